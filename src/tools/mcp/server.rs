//! One server's supervisor: a task that connects, lists the tools, publishes them, watches
//! the connection, refreshes on `tools/list_changed`, and after a failure withdraws the tools
//! and retries with backoff.
//!
//! Invariants: refreshes of one server never overlap (they run on this task, one at a time,
//! and a burst of notifications becomes one refresh); a failure always produces a notice and
//! a status change before the next attempt; cancelling the task closes the connection, which
//! ends the stdio server's whole process group.

use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use rmcp::RoleClient;
use rmcp::model::ClientRequest;
use rmcp::model::PingRequest;
use rmcp::service::Peer;
use rmcp::service::QuitReason;
use rmcp::service::ServiceError;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::client::ConnectContext;
use super::client::Connection;
use super::client::connect;
use super::link::ServerLink;
use super::manager::Shared;
use super::sampling::Sampler;
use super::tool::McpTool;
use super::utility::Utility;
use super::utility::UtilityTool;
use crate::config::schema::NamedMcpServer;
use crate::protocol::McpServerState;
use crate::protocol::NoticeLevel;
use crate::tools::Tool;

/// Consecutive failures retried quickly before slowing down.
const SLOW_AFTER: u32 = 6;
/// The slow retry interval (Hermes's "parked" self-probe).
const SLOW_RETRY: Duration = Duration::from_secs(300);

/// Waits between attempts: 1, 2, 4 … 60 s, then every 5 minutes.
pub fn retry_delay(failures: u32) -> Duration {
    match failures {
        0..SLOW_AFTER => Duration::from_secs((1u64 << failures).min(60)),
        _ => SLOW_RETRY,
    }
}

/// Runs until `cancel`; `index` is the server's place in `shared`.
pub async fn supervise(
    index: usize,
    server: NamedMcpServer,
    link: Arc<ServerLink>,
    shared: Arc<Shared>,
    cancel: CancellationToken,
) {
    let mut failures: u32 = 0;
    let mut first_attempt = true;
    // Retries that fail the same way stay quiet (the state is in /status); a new reason,
    // the switch to slow retries and a recovery are announced.
    let mut announced: Option<String> = None;
    // One handler for the server's life, so its rate window survives reconnects.
    let sampler = sampler_for(&server, &shared, &cancel);
    loop {
        shared.set_state(index, McpServerState::Connecting, Vec::new());
        let (changed_tx, mut changed_rx) = mpsc::unbounded_channel();
        let attempt = tokio::select! {
            () = cancel.cancelled() => return,
            attempt = connect_and_list(&server, &link, &shared, changed_tx, sampler.clone()) => attempt,
        };
        if first_attempt {
            first_attempt = false;
            shared.first_attempt_done(index);
        }
        let (reason, permanent) = match attempt {
            Ok((connection, tools)) => {
                let count = tools.len();
                link.up(connection.peer.clone());
                shared.set_state(index, McpServerState::Connected, tools);
                announced = None;
                if failures > 0 {
                    shared.notice(
                        NoticeLevel::Info,
                        format!("MCP server '{}' reconnected ({count} tools)", server.name),
                    );
                }
                failures = 0;
                match watch(
                    &server,
                    &link,
                    &shared,
                    index,
                    connection,
                    &mut changed_rx,
                    &cancel,
                )
                .await
                {
                    Some(reason) => (reason, false),
                    None => return,
                }
            }
            Err(attempt_error) => attempt_error,
        };
        let withdrawn = shared.tool_count(index);
        link.down(format!("it {reason}"));
        let delay = (!permanent).then(|| retry_delay(failures));
        failures = failures.saturating_add(1);
        shared.set_state(
            index,
            McpServerState::Failed {
                reason: reason.clone(),
                retry_in_secs: delay.map(|d| d.as_secs()),
            },
            Vec::new(),
        );
        let tools_note = match withdrawn {
            0 => String::new(),
            n => format!(" — its {n} tools are unavailable"),
        };
        let retry_note = match delay {
            Some(d) if d >= SLOW_RETRY => format!(
                "; still failing after {failures} attempts — retrying every {} minutes (or /reload-mcp)",
                d.as_secs() / 60
            ),
            Some(d) => format!("; retrying in {} s", d.as_secs()),
            None => "; fix the config and run /reload-mcp".to_string(),
        };
        let slowing_down = delay.is_some_and(|d| d >= SLOW_RETRY) && failures == SLOW_AFTER + 1;
        if announced.as_deref() != Some(reason.as_str()) || slowing_down {
            shared.notice(
                NoticeLevel::Warning,
                format!(
                    "MCP server '{}' {reason}{tools_note}{retry_note}",
                    server.name
                ),
            );
            announced = Some(reason.clone());
        } else {
            tracing::info!(server = %server.name, "MCP server still failing: {reason}{retry_note}");
        }
        let Some(delay) = delay else {
            cancel.cancelled().await;
            return;
        };
        tokio::select! {
            () = cancel.cancelled() => return,
            () = tokio::time::sleep(delay) => {}
        }
    }
}

/// The server's sampling handler, when the session offers a model and the server's
/// `sampling.enabled` is on.
fn sampler_for(
    server: &NamedMcpServer,
    shared: &Shared,
    cancel: &CancellationToken,
) -> Option<Arc<Sampler>> {
    let model = shared.settings.sampling.clone()?;
    server.config.sampling.enabled.then(|| {
        Arc::new(Sampler::new(
            &server.name,
            server.config.sampling.clone(),
            model,
            Arc::clone(&shared.settings.emit),
            cancel.clone(),
        ))
    })
}

/// Connect and list the tools; on failure, why (`failed to start: …`) and whether retrying
/// is pointless.
async fn connect_and_list(
    server: &NamedMcpServer,
    link: &Arc<ServerLink>,
    shared: &Shared,
    changed: mpsc::UnboundedSender<()>,
    sampler: Option<Arc<Sampler>>,
) -> Result<(Connection, Vec<Arc<dyn Tool>>), (String, bool)> {
    let lookup = |key: &str| (shared.settings.lookup)(key);
    let context = ConnectContext {
        name: &server.name,
        lookup: &lookup,
        parent_env: shared.settings.parent_env.clone(),
        default_cwd: &shared.settings.default_cwd,
        http: shared.settings.http.clone(),
        tools_changed: changed,
        sampler,
        progress: link.progress.clone(),
    };
    let connection = connect(&server.config, context)
        .await
        .map_err(|err| (format!("failed to connect: {err}"), err.is_permanent()))?;
    let timeout = server.config.connect_timeout();
    match tokio::time::timeout(timeout, list_tools(server, link, &connection.peer)).await {
        Ok(Ok(tools)) => Ok((connection, tools)),
        Ok(Err(err)) => Err((
            format!("connected but listing its tools failed: {err}"),
            false,
        )),
        Err(_) => Err((
            format!(
                "connected but did not list its tools within {:.0} s",
                timeout.as_secs_f64()
            ),
            false,
        )),
    }
}

/// The tools to register: the server's (filtered), then the utilities it supports.
async fn list_tools(
    server: &NamedMcpServer,
    link: &Arc<ServerLink>,
    peer: &Peer<RoleClient>,
) -> Result<Vec<Arc<dyn Tool>>, rmcp::service::ServiceError> {
    let listed = peer.list_all_tools().await?;
    let info = peer.peer_info();
    let capabilities = info.as_ref().map(|i| &i.capabilities);
    let filter = &server.config.tools;
    let mut tools: Vec<Arc<dyn Tool>> = Vec::new();
    for tool in listed.iter().filter(|t| filter.allows(&t.name)) {
        let tool = McpTool::new(link, tool);
        if tools.iter().any(|t| t.name() == tool.name()) {
            tracing::warn!(server = %server.name, tool = tool.name(), "two MCP tools share a name; keeping the first");
            continue;
        }
        tools.push(Arc::new(tool));
    }
    let mut utilities = Vec::new();
    if filter.resources && capabilities.is_some_and(|c| c.resources.is_some()) {
        utilities.extend(Utility::RESOURCES);
    }
    if filter.prompts && capabilities.is_some_and(|c| c.prompts.is_some()) {
        utilities.extend(Utility::PROMPTS);
    }
    for utility in utilities {
        let tool = UtilityTool::new(link, utility);
        // A server's own tool of the same name wins over the generated utility.
        if !tools.iter().any(|t| t.name() == tool.name()) {
            tools.push(Arc::new(tool));
        }
    }
    Ok(tools)
}

/// Serve until the connection ends (returns why) or `cancel` (returns `None`).
async fn watch(
    server: &NamedMcpServer,
    link: &Arc<ServerLink>,
    shared: &Shared,
    index: usize,
    connection: Connection,
    changed: &mut mpsc::UnboundedReceiver<()>,
    cancel: &CancellationToken,
) -> Option<String> {
    let Connection {
        service, stderr, ..
    } = connection;
    let peer = service.peer().clone();
    let stop = service.cancellation_token();
    let mut done = pin!(service.waiting());
    let every = server.config.keepalive();
    let mut keepalive = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    keepalive.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = keepalive.tick() => {
                if let Some(why) = ping(&peer).await {
                    stop.cancel();
                    let _ = tokio::time::timeout(Duration::from_secs(4), &mut done).await;
                    return Some(format!("{why}{}", stderr.note()));
                }
            }
            () = cancel.cancelled() => {
                link.down("hermes is shutting down");
                stop.cancel();
                // Closing stdin lets the server exit; the process group is killed after 3 s.
                let _ = tokio::time::timeout(Duration::from_secs(4), &mut done).await;
                return None;
            }
            quit = &mut done => {
                let why = match quit {
                    Ok(QuitReason::Closed) => "stopped (its connection closed)".to_string(),
                    Ok(QuitReason::Cancelled) => "was disconnected".to_string(),
                    Ok(other) => format!("stopped ({other:?})"),
                    Err(err) => format!("stopped (its task failed: {err})"),
                };
                return Some(format!("{why}{}", stderr.note()));
            }
            () = link.broken.notified() => {
                stop.cancel();
                let _ = tokio::time::timeout(Duration::from_secs(4), &mut done).await;
                return Some(format!("lost its connection{}", stderr.note()));
            }
            Some(()) = changed.recv() => {
                // A burst of notifications is one refresh.
                while changed.try_recv().is_ok() {}
                let timeout = server.config.call_timeout();
                match tokio::time::timeout(timeout, list_tools(server, link, &peer)).await {
                    Ok(Ok(tools)) => shared.replace_tools(index, tools),
                    Ok(Err(why)) => tracing::warn!(server = %server.name, "tool refresh failed: {why}"),
                    Err(_) => tracing::warn!(server = %server.name, "tool refresh timed out"),
                }
            }
        }
    }
}

/// How long a keepalive ping may take.
const PING_TIMEOUT: Duration = Duration::from_secs(30);

/// Ping the server; `Some(why)` when the connection is gone or it did not answer. Any
/// answer, an error included (a server without `ping`), means it is alive.
async fn ping(peer: &Peer<RoleClient>) -> Option<String> {
    let request = ClientRequest::PingRequest(PingRequest::default());
    match tokio::time::timeout(PING_TIMEOUT, peer.send_request(request)).await {
        Ok(Ok(_)) | Ok(Err(ServiceError::McpError(_))) => None,
        Ok(Err(ServiceError::TransportSend(error))) => Some(format!(
            "stopped answering (a keepalive ping failed: {})",
            super::client::transport_cause(&error)
        )),
        Ok(Err(err)) => Some(format!(
            "stopped answering (a keepalive ping failed: {err})"
        )),
        Err(_) => Some(format!(
            "did not answer a keepalive ping within {} s",
            PING_TIMEOUT.as_secs()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_back_off_then_slow_down() {
        let delays: Vec<u64> = (0..9).map(|n| retry_delay(n).as_secs()).collect();
        assert_eq!(delays, [1, 2, 4, 8, 16, 32, 300, 300, 300]);
    }
}
