//! The MCP settings of `config.yaml`: `mcp_servers.<name>` (spec-002b §3.2, Hermes's key
//! names). Plain data; `tools::mcp` connects to the servers, `config::mcp_servers` parses and
//! `config::mcp_edit` edits this section.
//!
//! A server is stdio (`command:`) or streamable HTTP (`url:`), never both. Durations are
//! seconds, as in Hermes; `supports_parallel_tool_calls` is also accepted as `parallel_safe`.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde::Serialize;

/// Seconds a tool call may take before it fails (Hermes's default).
pub const DEFAULT_MCP_TIMEOUT_SECS: f64 = 300.0;
/// Seconds the first connection (start, handshake, tool list) may take.
pub const DEFAULT_MCP_CONNECT_TIMEOUT_SECS: f64 = 60.0;
/// Seconds between keepalive pings (Hermes's default).
pub const DEFAULT_MCP_KEEPALIVE_SECS: f64 = 180.0;

/// One server under `mcp_servers:`, with its name.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedMcpServer {
    pub name: String,
    pub config: McpServerConfig,
}

/// `mcp_servers.<name>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct McpServerConfig {
    /// The executable of a stdio server (`npx`, `uvx`, a path).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// Variables the stdio server gets on top of the safe baseline (never the whole
    /// environment). `${VAR}` is replaced from hermes's environment and `.env`.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// The stdio server's working directory; default: hermes's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// The endpoint of a streamable-HTTP server.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// HTTP headers (`Authorization: "Bearer ${TOKEN}"`); `${VAR}` is replaced as in `env`.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, String>,
    /// `false`: never started or connected.
    pub enabled: bool,
    /// Seconds one tool call may take.
    pub timeout: f64,
    /// Seconds connecting (start, handshake, first tool list) may take.
    pub connect_timeout: f64,
    pub tools: McpToolsFilter,
    /// Whether this server's tools may run at the same time as other parallel-safe calls.
    #[serde(alias = "parallel_safe")]
    pub supports_parallel_tool_calls: bool,
    /// Seconds between pings that check an idle connection is alive (at least 5), so a dead
    /// server's tools are withdrawn before the model tries one.
    pub keepalive_interval: f64,
    /// Whether, and how, the server may ask hermes's model for a completion
    /// (`sampling/createMessage`).
    #[serde(skip_serializing_if = "McpSamplingConfig::is_default")]
    pub sampling: McpSamplingConfig,
}

/// `mcp_servers.<name>.sampling` (Hermes's keys and defaults).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct McpSamplingConfig {
    /// `false`: the server is not told hermes can sample, and requests are refused.
    pub enabled: bool,
    /// The model to answer with instead of the session's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The most tokens one answer may have, whatever the server asks for.
    pub max_tokens_cap: u32,
    /// Seconds one request may take.
    pub timeout: f64,
    /// Requests per minute (a sliding window); more are refused.
    pub max_rpm: u32,
    /// Hermes's limit on tool rounds inside sampling. Accepted for compatibility: hermes
    /// does not offer tools to sampling requests, so there are no rounds to count.
    pub max_tool_rounds: u32,
    /// Models the server may ask for (by model-preference hint, or the `model` above);
    /// empty: the session's model (or `model`) only, whatever the server hints.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub allowed_models: Vec<String>,
    /// The level of the audit line logged for each request: debug, info or warning.
    pub log_level: String,
}

impl Default for McpSamplingConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            model: None,
            max_tokens_cap: 4_096,
            timeout: 30.0,
            max_rpm: 10,
            max_tool_rounds: 5,
            allowed_models: Vec::new(),
            log_level: "info".to_string(),
        }
    }
}

impl McpSamplingConfig {
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }

    /// `timeout`, as a duration.
    pub fn request_timeout(&self) -> std::time::Duration {
        seconds(self.timeout, 30.0)
    }
}

impl Default for McpServerConfig {
    fn default() -> Self {
        Self {
            command: None,
            args: Vec::new(),
            env: BTreeMap::new(),
            cwd: None,
            url: None,
            headers: BTreeMap::new(),
            enabled: true,
            timeout: DEFAULT_MCP_TIMEOUT_SECS,
            connect_timeout: DEFAULT_MCP_CONNECT_TIMEOUT_SECS,
            tools: McpToolsFilter::default(),
            supports_parallel_tool_calls: false,
            keepalive_interval: DEFAULT_MCP_KEEPALIVE_SECS,
            sampling: McpSamplingConfig::default(),
        }
    }
}

/// `mcp_servers.<name>.tools`: which of the server's tools are offered to the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct McpToolsFilter {
    /// Only these tools (the server's own names). When set, `exclude` is ignored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include: Option<Vec<String>>,
    /// All tools but these.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exclude: Vec<String>,
    /// Offer `list_resources`/`read_resource` when the server has resources.
    pub resources: bool,
    /// Offer `list_prompts`/`get_prompt` when the server has prompts.
    pub prompts: bool,
}

impl Default for McpToolsFilter {
    fn default() -> Self {
        Self {
            include: None,
            exclude: Vec::new(),
            resources: true,
            prompts: true,
        }
    }
}

impl McpToolsFilter {
    /// Whether the server's tool `name` is offered: `include` wins over `exclude`.
    pub fn allows(&self, name: &str) -> bool {
        match &self.include {
            Some(include) => include.iter().any(|n| n == name),
            None => !self.exclude.iter().any(|n| n == name),
        }
    }
}

/// How to reach a server, from `command:` or `url:`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum McpEndpoint<'a> {
    Stdio { command: &'a str },
    Http { url: &'a str },
}

/// Why an `mcp_servers` entry names no transport; the text follows `mcp_servers.<name> `.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum EndpointError {
    #[error("has both `command` and `url`; a server is one or the other")]
    Both,
    #[error("has neither `command` (stdio) nor `url` (HTTP)")]
    Neither,
}

impl McpServerConfig {
    /// The transport, or why the entry names none (or both).
    pub fn endpoint(&self) -> Result<McpEndpoint<'_>, EndpointError> {
        let command = self
            .command
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty());
        let url = self.url.as_deref().map(str::trim).filter(|u| !u.is_empty());
        match (command, url) {
            (Some(command), None) => Ok(McpEndpoint::Stdio { command }),
            (None, Some(url)) => Ok(McpEndpoint::Http { url }),
            (Some(_), Some(_)) => Err(EndpointError::Both),
            (None, None) => Err(EndpointError::Neither),
        }
    }

    /// `timeout`, as a duration (non-positive or absurd values fall back to the default).
    pub fn call_timeout(&self) -> std::time::Duration {
        seconds(self.timeout, DEFAULT_MCP_TIMEOUT_SECS)
    }

    /// `connect_timeout`, as a duration.
    pub fn connect_timeout(&self) -> std::time::Duration {
        seconds(self.connect_timeout, DEFAULT_MCP_CONNECT_TIMEOUT_SECS)
    }

    /// `keepalive_interval`, as a duration of at least 5 s (Hermes's floor).
    pub fn keepalive(&self) -> std::time::Duration {
        seconds(self.keepalive_interval, DEFAULT_MCP_KEEPALIVE_SECS)
            .max(std::time::Duration::from_secs(5))
    }
}

fn seconds(value: f64, default: f64) -> std::time::Duration {
    let value = if value.is_finite() && value > 0.0 && value <= 86_400.0 {
        value
    } else {
        default
    };
    std::time::Duration::from_secs_f64(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_wins_over_exclude() {
        let filter = McpToolsFilter {
            include: Some(vec!["create_issue".into()]),
            exclude: vec!["create_issue".into(), "delete_issue".into()],
            ..McpToolsFilter::default()
        };
        assert!(filter.allows("create_issue"));
        assert!(!filter.allows("delete_issue"));
        assert!(!filter.allows("list_issues"));
        let exclude_only = McpToolsFilter {
            exclude: vec!["delete_customer".into()],
            ..McpToolsFilter::default()
        };
        assert!(exclude_only.allows("get_customer"));
        assert!(!exclude_only.allows("delete_customer"));
    }

    #[test]
    fn endpoint_needs_exactly_one_transport() {
        let stdio: McpServerConfig =
            serde_norway::from_str("command: npx\nargs: [-y, x]\nparallel_safe: true").unwrap();
        assert_eq!(stdio.endpoint(), Ok(McpEndpoint::Stdio { command: "npx" }));
        assert!(stdio.supports_parallel_tool_calls);
        assert!(stdio.enabled);
        let http: McpServerConfig = serde_norway::from_str("url: http://127.0.0.1:1/mcp").unwrap();
        assert!(matches!(http.endpoint(), Ok(McpEndpoint::Http { .. })));
        let both: McpServerConfig = serde_norway::from_str("command: a\nurl: b").unwrap();
        assert!(both.endpoint().unwrap_err().to_string().contains("both"));
        let neither = McpServerConfig::default();
        assert!(
            neither
                .endpoint()
                .unwrap_err()
                .to_string()
                .contains("neither")
        );
    }

    #[test]
    fn sampling_has_hermes_defaults_and_reads_its_keys() {
        let config: McpServerConfig = serde_norway::from_str("command: a").unwrap();
        assert!(config.sampling.enabled);
        assert_eq!(config.sampling.max_tokens_cap, 4_096);
        assert_eq!(config.sampling.max_rpm, 10);
        assert_eq!(config.sampling.request_timeout().as_secs(), 30);
        let config: McpServerConfig = serde_norway::from_str(
            "command: a\nsampling:\n  enabled: false\n  model: m\n  max_rpm: 2\n  allowed_models: [m, n]",
        )
        .unwrap();
        assert!(!config.sampling.enabled);
        assert_eq!(config.sampling.model.as_deref(), Some("m"));
        assert_eq!(config.sampling.max_rpm, 2);
        assert_eq!(config.sampling.allowed_models, ["m", "n"]);
        assert_eq!(config.sampling.max_tokens_cap, 4_096);
    }

    #[test]
    fn bad_timeouts_fall_back_to_defaults() {
        let config: McpServerConfig =
            serde_norway::from_str("timeout: -1\nconnect_timeout: 2.5").unwrap();
        assert_eq!(config.call_timeout().as_secs(), 300);
        assert_eq!(config.connect_timeout().as_millis(), 2_500);
    }
}
