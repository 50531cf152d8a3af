//! How an MCP server's tools are named for the model: `mcp_<server>_<tool>`, sanitized to
//! `[A-Za-z0-9_]` and kept within the 64 characters every provider accepts, as Hermes does.
//!
//! Used by the config checks (two servers whose names sanitize alike would clash), the MCP
//! client that registers the tools, and the protocol's `split_mcp_tool_name`. Invariant: the
//! same server and tool always give the same name, and distinct long names stay distinct.

/// `my-api` → `my_api`: the part of a tool name that stands for a server or an MCP tool.
/// Every character outside `[A-Za-z0-9_]` becomes `_`, so names are valid for every provider.
pub fn mcp_name_part(raw: &str) -> String {
    raw.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Longest tool name providers accept (OpenAI and Anthropic: 64).
pub const MAX_TOOL_NAME: usize = 64;

/// The registered name of `tool` on `server`: `mcp_<server>_<tool>`, sanitized. A name over
/// 64 characters keeps its first 55 and ends in `_` plus 8 hex digits of a hash of the whole,
/// so it stays unique and providers accept it.
pub fn mcp_tool_name(server: &str, tool: &str) -> String {
    let full = format!("mcp_{}_{}", mcp_name_part(server), mcp_name_part(tool));
    if full.len() <= MAX_TOOL_NAME {
        return full;
    }
    use sha2::Digest;
    let digest = sha2::Sha256::digest(full.as_bytes());
    let hex: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
    // ASCII only after sanitizing, so byte slicing is safe.
    format!("{}_{hex}", &full[..MAX_TOOL_NAME - 9])
}

#[cfg(test)]
#[path = "mcp_names_tests.rs"]
mod tests;
