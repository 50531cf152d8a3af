//! The MCP part of the protocol: the state of each configured MCP server, as the engine
//! reports it to frontends (`Event::McpStatus`), and splitting a registered tool name into
//! server and tool, which frontends use to label MCP tool cells (the names themselves are
//! made by `util::mcp_names`). Plain data, like the rest of `protocol`.
//!
//! Invariants: `Event::McpStatus` always carries every configured server, in config order,
//! so a frontend replaces its whole list; `tools` names exactly the tools the model is offered
//! for that server right now (empty unless `Connected`).

use serde::Deserialize;
use serde::Serialize;

use crate::util::mcp_names::mcp_name_part;

/// How hermes talks to an MCP server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum McpTransport {
    /// A child process speaking JSON-RPC on stdin/stdout (`command:`).
    Stdio,
    /// A streamable-HTTP endpoint (`url:`).
    Http,
}

impl McpTransport {
    pub fn label(self) -> &'static str {
        match self {
            Self::Stdio => "stdio",
            Self::Http => "http",
        }
    }
}

/// Where a server's connection stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum McpServerState {
    /// Starting the process / opening the connection and listing tools.
    Connecting,
    /// Connected; its tools are offered to the model.
    Connected,
    /// It failed to start, timed out or died; its tools are withdrawn. `retry_in_secs` is
    /// when the next attempt starts (`None`: no more attempts until `/reload-mcp`).
    Failed {
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retry_in_secs: Option<u64>,
    },
    /// `enabled: false` in config: never started.
    Disabled,
}

impl McpServerState {
    /// One word for lists: `connecting`, `connected`, `failed`, `disabled`.
    pub fn word(&self) -> &'static str {
        match self {
            Self::Connecting => "connecting",
            Self::Connected => "connected",
            Self::Failed { .. } => "failed",
            Self::Disabled => "disabled",
        }
    }
}

/// One configured MCP server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct McpServerStatus {
    /// The name under `mcp_servers:` in config.yaml.
    pub name: String,
    pub transport: McpTransport,
    pub state: McpServerState,
    /// The registered tool names (`mcp_<server>_<tool>`, utility wrappers included).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<String>,
}

/// Which server a registered tool name belongs to, and the tool's own part, given the
/// configured servers: `mcp_filesystem_read_file` → (`filesystem`, `read_file`). The longest
/// matching server prefix wins, so `mcp_a_b_c` picks server `a_b` over `a` when both exist.
pub fn split_mcp_tool_name<'a>(
    name: &'a str,
    servers: &'a [McpServerStatus],
) -> Option<(&'a str, &'a str)> {
    let rest = name.strip_prefix("mcp_")?;
    servers
        .iter()
        .filter_map(|server| {
            let part = mcp_name_part(&server.name);
            let tool = rest.strip_prefix(part.as_str())?.strip_prefix('_')?;
            (!tool.is_empty()).then_some((part.len(), server.name.as_str(), tool))
        })
        .max_by_key(|(len, _, _)| *len)
        .map(|(_, server, tool)| (server, tool))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::mcp_names::mcp_tool_name;

    fn server(name: &str) -> McpServerStatus {
        McpServerStatus {
            name: name.to_string(),
            transport: McpTransport::Stdio,
            state: McpServerState::Connected,
            tools: Vec::new(),
        }
    }

    #[test]
    fn long_names_are_cut_to_64_and_stay_unique() {
        let tool_a = format!("{}_alpha", "x".repeat(70));
        let tool_b = format!("{}_bravo", "x".repeat(70));
        let a = mcp_tool_name("server", &tool_a);
        let b = mcp_tool_name("server", &tool_b);
        assert_eq!(a.len(), 64);
        assert_eq!(b.len(), 64);
        assert_ne!(a, b);
        assert!(a.starts_with("mcp_server_xxx"), "{a}");
        assert_eq!(mcp_tool_name("server", &tool_a), a, "stable");
        let servers = [server("server")];
        assert_eq!(
            split_mcp_tool_name(&a, &servers).map(|(s, _)| s),
            Some("server")
        );
    }

    #[test]
    fn split_finds_the_longest_server_prefix() {
        let servers = [server("a"), server("a-b"), server("filesystem")];
        assert_eq!(
            split_mcp_tool_name("mcp_filesystem_read_file", &servers),
            Some(("filesystem", "read_file"))
        );
        assert_eq!(
            split_mcp_tool_name("mcp_a_b_c", &servers),
            Some(("a-b", "c"))
        );
        assert_eq!(split_mcp_tool_name("mcp_a_x", &servers), Some(("a", "x")));
        assert_eq!(split_mcp_tool_name("read_file", &servers), None);
        assert_eq!(split_mcp_tool_name("mcp_other_x", &servers), None);
    }

    #[test]
    fn status_round_trips_through_json() {
        let status = McpServerStatus {
            name: "fs".into(),
            transport: McpTransport::Http,
            state: McpServerState::Failed {
                reason: "connection refused".into(),
                retry_in_secs: Some(4),
            },
            tools: vec![],
        };
        let json = serde_json::to_string(&status).unwrap();
        assert!(json.contains(r#""state":"failed""#), "{json}");
        assert_eq!(
            serde_json::from_str::<McpServerStatus>(&json).unwrap(),
            status
        );
    }
}
