//! The MCP client: hermes connects to the servers under `mcp_servers:` in config.yaml (stdio
//! child processes and streamable-HTTP endpoints, through the official `rmcp` SDK) and offers
//! their tools to the model as `mcp_<server>_<tool>` in toolset `mcp-<server>`.
//!
//! `manager` owns a session's servers and the combined registry; `server` supervises one
//! server (connect, list, refresh, retry); `client` opens a connection; `tool`, `utility`
//! and `result` are the tools the model calls and how their results read; `env` is what a
//! stdio server may see; `probe` is `hermes mcp test`. Nothing here talks to a frontend
//! except through `Event`s handed to the session.

mod client;
pub mod env;
mod link;
mod manager;
pub mod probe;
mod progress;
mod result;
pub mod sampling;
mod server;
mod tool;
mod utility;

pub use manager::McpManager;
pub use manager::McpSettings;
pub use server::retry_delay;

/// `text` cut to `max_chars` characters, with `…` when cut.
fn clip(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars.saturating_sub(1)) {
        Some((cut, _)) if text.chars().count() > max_chars => format!("{}…", &text[..cut]),
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn clip_counts_characters() {
        assert_eq!(super::clip("short", 10), "short");
        assert_eq!(super::clip("ääääää", 4), "äää…");
        assert_eq!(super::clip("abcd", 4), "abcd");
    }
}
