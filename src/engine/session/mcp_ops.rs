//! The session's MCP side: starting the `McpManager` with the session, giving each turn the
//! current tool list (after first connections settle), `/reload-mcp`, and stopping the
//! servers at shutdown.
//!
//! A turn keeps the tool list it started with, so the tools offered to the model (and the
//! provider's prompt cache) change only between turns; a server that dies mid-turn makes
//! its tools answer "not connected" until the next turn withdraws them.

use std::sync::Arc;

use super::Actor;
use super::SessionSpec;
use crate::engine::events::EventSink;
use crate::engine::turn::TurnContext;
use crate::protocol::McpServerState;
use crate::protocol::NoticeLevel;
use crate::tools::mcp::McpManager;
use crate::tools::mcp::McpSettings;
use crate::tools::mcp::sampling::SamplingModel;

/// How long a turn waits for first connections before saying so.
const SAY_WAITING_AFTER: std::time::Duration = std::time::Duration::from_secs(1);

/// Start the manager when the spec asks for MCP (even with no servers, so `/reload-mcp`
/// can add some).
pub(super) fn start_mcp(spec: &SessionSpec, events: &EventSink) -> Option<Arc<McpManager>> {
    let launch = spec.mcp.clone()?;
    let tool_env = Arc::clone(&spec.tool_env);
    let emit_events = events.clone();
    let settings = McpSettings {
        base: Arc::clone(&spec.tools),
        media_dir: launch.media_dir,
        default_cwd: spec.cwd.clone(),
        parent_env: std::env::vars().collect(),
        lookup: Arc::new(move |key| tool_env.get(key).or_else(|| std::env::var(key).ok())),
        http: launch.http,
        emit: Arc::new(move |event| emit_events.send(event)),
        sampling: Some(SamplingModel {
            provider: Arc::clone(&spec.endpoint.provider),
            model: spec.endpoint.model.clone(),
        }),
    };
    Some(McpManager::start(launch.servers, settings))
}

/// Before the turn's first request: wait for servers still making their first attempt
/// (bounded by their `connect_timeout`, cut short by an interrupt), then take the current
/// tools.
pub(super) async fn with_current_tools(
    mcp: Option<Arc<McpManager>>,
    mut ctx: TurnContext,
) -> TurnContext {
    if let Some(mcp) = mcp {
        let settled = mcp.settled();
        tokio::pin!(settled);
        let waited = tokio::select! {
            () = &mut settled => false,
            () = ctx.tool_ctx.cancel.cancelled() => false,
            () = tokio::time::sleep(SAY_WAITING_AFTER) => true,
        };
        if waited {
            // Slow starts (npx fetching a package) should not look like a hung turn.
            let connecting: Vec<String> = mcp
                .statuses()
                .into_iter()
                .filter(|s| matches!(s.state, McpServerState::Connecting))
                .map(|s| s.name)
                .collect();
            if !connecting.is_empty() {
                ctx.events.send(crate::protocol::Event::Notice(crate::protocol::Notice {
                    level: NoticeLevel::Info,
                    text: format!(
                        "waiting for MCP server(s) {} to finish connecting (at most their connect_timeout)…",
                        connecting.join(", ")
                    ),
                }));
            }
            tokio::select! {
                () = &mut settled => {}
                () = ctx.tool_ctx.cancel.cancelled() => {}
            }
        }
        ctx.tools = mcp.tools();
    }
    ctx
}

impl Actor {
    pub(super) fn reload_mcp(&mut self) {
        let (Some(mcp), Some(launch)) = (self.mcp.clone(), self.spec.mcp.as_ref()) else {
            self.notice(
                NoticeLevel::Info,
                "MCP is not available in this session".to_string(),
            );
            return;
        };
        let path = launch.config_path.clone();
        let selection = launch.selection.clone();
        let events = self.events.clone();
        tokio::spawn(async move {
            let loaded =
                tokio::task::spawn_blocking(move || crate::config::load::load_path(&path)).await;
            let loaded = match loaded {
                Ok(loaded) => loaded,
                Err(err) => {
                    events.send(crate::protocol::Event::Notice(crate::protocol::Notice {
                        level: NoticeLevel::Warning,
                        text: format!("MCP reload failed: could not read the config ({err})"),
                    }));
                    return;
                }
            };
            for warning in &loaded.warnings {
                events.send(crate::protocol::Event::Notice(crate::protocol::Notice {
                    level: NoticeLevel::Warning,
                    text: warning.to_string(),
                }));
            }
            let servers = loaded
                .config
                .mcp_servers
                .into_iter()
                .filter(|s| selection.as_ref().is_none_or(|sel| sel.offers_mcp(&s.name)))
                .collect();
            mcp.reload(servers).await;
            mcp.settled().await;
            events.send(crate::protocol::Event::Notice(crate::protocol::Notice {
                level: NoticeLevel::Info,
                text: reload_summary(&mcp),
            }));
        });
    }

    pub(super) async fn stop_mcp(&mut self) {
        if let Some(mcp) = self.mcp.take() {
            mcp.shutdown().await;
        }
    }
}

/// "MCP servers reloaded: filesystem connected (14 tools), web failed — 14 tools from 1
/// server."
fn reload_summary(mcp: &McpManager) -> String {
    let statuses = mcp.statuses();
    if statuses.is_empty() {
        return "MCP servers reloaded: none configured".to_string();
    }
    let parts: Vec<String> = statuses
        .iter()
        .map(|s| match &s.state {
            McpServerState::Connected => format!("{} connected ({} tools)", s.name, s.tools.len()),
            other => format!("{} {}", s.name, other.word()),
        })
        .collect();
    let connected = statuses
        .iter()
        .filter(|s| matches!(s.state, McpServerState::Connected))
        .count();
    let tools: usize = statuses.iter().map(|s| s.tools.len()).sum();
    format!(
        "MCP servers reloaded: {} — {tools} tool(s) from {connected} server(s); the model sees the new list from the next message",
        parts.join(", ")
    )
}
