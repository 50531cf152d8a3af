//! `ServerLink`: what a registered MCP tool holds to reach its server — the current
//! connection (or why there is none), the call timeout and where media goes — shared between
//! the server's supervisor (which connects and disconnects) and its tools (which call).
//!
//! Invariants: a tool never owns a connection; when the supervisor drops the peer, calls
//! fail at once with a message naming the server and the reason, instead of hanging.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::PoisonError;
use std::time::Duration;

use rmcp::RoleClient;
use rmcp::service::Peer;
use rmcp::service::ServiceError;
use tokio::sync::Notify;

use super::progress::ProgressRoutes;
use crate::tools::Concurrency;

pub struct ServerLink {
    /// The name under `mcp_servers:`.
    pub name: String,
    /// `mcp-<server>`.
    pub toolset: String,
    pub call_timeout: Duration,
    pub concurrency: Concurrency,
    /// Where images and blobs from results are saved.
    pub media_dir: PathBuf,
    state: Mutex<LinkState>,
    /// Signalled when a call finds the transport broken, so the supervisor reconnects now
    /// rather than when it next notices.
    pub broken: Notify,
    /// Running calls' progress tokens, for the server's progress notifications.
    pub progress: ProgressRoutes,
}

enum LinkState {
    Up(Peer<RoleClient>),
    Down(String),
}

impl ServerLink {
    pub fn new(
        name: &str,
        call_timeout: Duration,
        concurrency: Concurrency,
        media_dir: PathBuf,
    ) -> Arc<Self> {
        Arc::new(Self {
            name: name.to_string(),
            toolset: format!("mcp-{name}"),
            call_timeout,
            concurrency,
            media_dir,
            state: Mutex::new(LinkState::Down("it is still connecting".to_string())),
            broken: Notify::new(),
            progress: ProgressRoutes::default(),
        })
    }

    pub fn up(&self, peer: Peer<RoleClient>) {
        *self.state.lock().unwrap_or_else(PoisonError::into_inner) = LinkState::Up(peer);
    }

    pub fn down(&self, why: impl Into<String>) {
        *self.state.lock().unwrap_or_else(PoisonError::into_inner) = LinkState::Down(why.into());
    }

    /// The connection, or why there is none.
    pub fn peer(&self) -> Result<Peer<RoleClient>, CallError> {
        match &*self.state.lock().unwrap_or_else(PoisonError::into_inner) {
            LinkState::Up(peer) => Ok(peer.clone()),
            LinkState::Down(why) => Err(CallError::NotConnected {
                server: self.name.clone(),
                why: why.clone(),
            }),
        }
    }

    /// `mcp_<server>_<what>` (cut to 64 characters, see `util::mcp_names::mcp_tool_name`).
    pub fn tool_name(&self, what: &str) -> String {
        crate::util::mcp_names::mcp_tool_name(&self.name, what)
    }

    /// The error for a failed request; when the connection itself broke, the supervisor is
    /// told to reconnect.
    pub fn request_failed(&self, what: &str, source: ServiceError) -> CallError {
        if matches!(
            source,
            ServiceError::TransportClosed | ServiceError::TransportSend(_)
        ) {
            self.broken.notify_one();
        }
        CallError::Request {
            server: self.name.clone(),
            what: what.to_string(),
            source,
        }
    }
}

/// Why a call to an MCP server failed; the text is for the model and says whether to retry.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    #[error(
        "MCP server '{server}' is not connected ({why}); its tools are unavailable until it reconnects — use another approach or ask the user to check the server"
    )]
    NotConnected { server: String, why: String },
    #[error("{}", request_text(server, what, source))]
    Request {
        server: String,
        /// The request, as a phrase (`the call to search`, `resources/list`).
        what: String,
        source: ServiceError,
    },
}

fn request_text(server: &str, what: &str, err: &ServiceError) -> String {
    match err {
        ServiceError::McpError(data) => format!(
            "MCP server '{server}' rejected {what}: {} (code {})",
            data.message, data.code.0
        ),
        ServiceError::Timeout { timeout } => format!(
            "MCP server '{server}' did not answer {what} within {:.0} s",
            timeout.as_secs_f64()
        ),
        ServiceError::TransportClosed | ServiceError::TransportSend(_) => {
            let cause = match err {
                ServiceError::TransportSend(error) => super::client::transport_cause(error),
                _ => "the connection closed".to_string(),
            };
            format!(
                "MCP server '{server}' lost its connection during {what} ({cause}). The operation may or may not have happened; it was not retried. hermes is reconnecting — do not retry immediately."
            )
        }
        other => format!("MCP server '{server}' failed {what}: {other}"),
    }
}
