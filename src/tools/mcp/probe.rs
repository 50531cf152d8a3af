//! `hermes mcp test NAME`: connect to one server the way a session would (same environment
//! rules, same timeouts), list its tools with their schemas, time each step, and close.
//!
//! Does not register anything or retry; a failure is reported with how long it took.

use std::path::Path;
use std::time::Instant;

use tokio::sync::mpsc;

use super::client::ConnectContext;
use super::client::connect;
use crate::config::schema::McpServerConfig;

/// One tool as the server lists it, and whether `tools.include/exclude` lets it through.
#[derive(Debug, Clone)]
pub struct ProbedTool {
    /// The server's name for it.
    pub name: String,
    /// `mcp_<server>_<tool>`.
    pub registered: String,
    pub description: String,
    pub schema: serde_json::Value,
    pub offered: bool,
}

#[derive(Debug, Clone)]
pub struct ProbeReport {
    /// `name version`, as the server introduced itself.
    pub server: String,
    pub connect_ms: u128,
    pub list_ms: u128,
    pub tools: Vec<ProbedTool>,
    pub resources: bool,
    pub prompts: bool,
}

#[derive(Debug, thiserror::Error)]
#[error("{reason} (after {elapsed_ms} ms)")]
pub struct ProbeError {
    pub reason: String,
    pub elapsed_ms: u128,
}

pub async fn probe(
    name: &str,
    config: &McpServerConfig,
    lookup: &(dyn Fn(&str) -> Option<String> + Sync),
    cwd: &Path,
) -> Result<ProbeReport, ProbeError> {
    let started = Instant::now();
    let failed = |reason: String| ProbeError {
        reason,
        elapsed_ms: started.elapsed().as_millis(),
    };
    let (changed, _ignored) = mpsc::unbounded_channel();
    let context = ConnectContext {
        name,
        lookup,
        parent_env: std::env::vars().collect(),
        default_cwd: cwd,
        http: None,
        tools_changed: changed,
        // `hermes mcp test` has no session model to lend.
        sampler: None,
        progress: Default::default(),
    };
    let connection = connect(config, context)
        .await
        .map_err(|err| failed(err.to_string()))?;
    let connect_ms = started.elapsed().as_millis();
    let listing = Instant::now();
    let listed = tokio::time::timeout(config.connect_timeout(), connection.peer.list_all_tools())
        .await
        .map_err(|_| failed("listing tools timed out".to_string()))?
        .map_err(|err| failed(format!("listing tools failed: {err}")))?;
    let list_ms = listing.elapsed().as_millis();
    let tools = listed
        .iter()
        .map(|tool| ProbedTool {
            name: tool.name.to_string(),
            registered: crate::util::mcp_names::mcp_tool_name(name, &tool.name),
            description: tool.description.as_deref().unwrap_or("").trim().to_string(),
            schema: super::tool::normalize_schema(serde_json::Value::Object(
                (*tool.input_schema).clone(),
            )),
            offered: config.tools.allows(&tool.name),
        })
        .collect();
    let report = ProbeReport {
        server: connection.server_label(),
        connect_ms,
        list_ms,
        tools,
        resources: connection.has_resources(),
        prompts: connection.has_prompts(),
    };
    let mut service = connection.service;
    let _ = tokio::time::timeout(std::time::Duration::from_secs(4), service.close()).await;
    Ok(report)
}
