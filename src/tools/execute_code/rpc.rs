//! The channel a script's tool calls travel over, and the server that answers them.
//!
//! Transport: a Unix domain socket created in the run's private staging directory (0700) and
//! itself 0600, behind the [`Transport`] trait so a platform without Unix sockets could plug
//! in another (there is no such build; [`bind`] says "not supported" there). Protocol: one
//! JSON object per line each way — `{"id", "tool", "args", "token"}` in, `{"id", "ok": true,
//! "result"}` or `{"id", "ok": false, "error", "kind"}` out.
//!
//! Invariants: a request without the run's token is answered `unauthorized` and runs
//! nothing; at most `max_calls` calls are dispatched per run, however many connections a
//! script opens (the count is taken before the call starts); only the allowed tools are
//! dispatched; a request line is bounded (`MAX_REQUEST_BYTES`), so a runaway script cannot
//! grow hermes's memory.

use std::path::Path;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::PoisonError;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering;
use std::time::Instant;

use async_trait::async_trait;
use serde_json::Value;
use serde_json::json;
use tokio::io::AsyncBufReadExt;
use tokio::io::AsyncRead;
use tokio::io::AsyncReadExt;
use tokio::io::AsyncWrite;
use tokio::io::AsyncWriteExt;
use tokio::io::BufReader;

use super::stub::TERMINAL_BLOCKED_PARAMS;
use crate::tools::NestedCalls;
use crate::tools::ToolOutcome;
use crate::tools::ToolOutput;

/// The largest request line (a `write_file` of a big file fits; a runaway line does not).
pub const MAX_REQUEST_BYTES: u64 = 32 * 1024 * 1024;

/// A connected script.
pub trait Channel: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Channel for T {}

/// Where scripts connect.
#[async_trait]
pub trait Transport: Send + Sync {
    /// What the stub reads from `HERMES_RPC_SOCKET`.
    fn endpoint(&self) -> String;
    async fn accept(&self) -> std::io::Result<Box<dyn Channel>>;
}

#[derive(Debug, thiserror::Error)]
pub enum RpcError {
    #[error("could not open the script channel at {path}: {source}")]
    Bind {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "execute_code needs Unix domain sockets, which this platform does not have; use \
         ordinary tool calls instead"
    )]
    Unsupported,
}

#[cfg(unix)]
struct UnixTransport {
    listener: tokio::net::UnixListener,
    path: String,
}

#[cfg(unix)]
#[async_trait]
impl Transport for UnixTransport {
    fn endpoint(&self) -> String {
        self.path.clone()
    }

    async fn accept(&self) -> std::io::Result<Box<dyn Channel>> {
        let (stream, _) = self.listener.accept().await?;
        Ok(Box::new(stream))
    }
}

/// The channel for one run, as a socket `rpc.sock` in `staging` (which only we can enter).
#[cfg(unix)]
pub fn bind(staging: &Path) -> Result<Box<dyn Transport>, RpcError> {
    use std::os::unix::fs::PermissionsExt;
    let path = staging.join("rpc.sock");
    let shown = path.display().to_string();
    let bind_error = |source| RpcError::Bind {
        path: shown.clone(),
        source,
    };
    let listener = tokio::net::UnixListener::bind(&path).map_err(bind_error)?;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).map_err(bind_error)?;
    Ok(Box::new(UnixTransport {
        listener,
        path: shown.clone(),
    }))
}

#[cfg(not(unix))]
pub fn bind(_staging: &Path) -> Result<Box<dyn Transport>, RpcError> {
    Err(RpcError::Unsupported)
}

/// What the run shows while it goes: calls made and the current one.
#[derive(Debug)]
pub struct RunStatus {
    pub started: Instant,
    made: AtomicU64,
    current: Mutex<Option<String>>,
}

impl Default for RunStatus {
    fn default() -> Self {
        Self::new()
    }
}

impl RunStatus {
    pub fn new() -> Self {
        Self {
            started: Instant::now(),
            made: AtomicU64::new(0),
            current: Mutex::new(None),
        }
    }

    /// Tool calls dispatched so far.
    pub fn calls_made(&self) -> u64 {
        self.made.load(Ordering::SeqCst)
    }

    /// `3 tool calls · read_file · 2.1s`, for the tool cell while the script runs.
    pub fn line(&self) -> String {
        let made = self.calls_made();
        let noun = if made == 1 { "tool call" } else { "tool calls" };
        let secs = self.started.elapsed().as_secs_f64();
        let current = self
            .current
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        match current {
            Some(name) => format!("{made} {noun} · {name} · {secs:.1}s"),
            None => format!("{made} {noun} · {secs:.1}s"),
        }
    }
}

/// Answers one run's requests.
pub struct Dispatcher {
    pub token: String,
    pub nested: Arc<dyn NestedCalls>,
    /// The tools a script may call (the names in `nested`'s schemas).
    pub allowed: Vec<String>,
    pub max_calls: u64,
    /// The `execute_code` call the run belongs to.
    pub parent: String,
    pub status: Arc<RunStatus>,
    /// Told (with `status.line()`) whenever a call starts.
    pub on_call: Box<dyn Fn(&RunStatus) + Send + Sync>,
}

/// Accept connections until the task is dropped; each connection's requests are answered in
/// order.
pub async fn serve(transport: Box<dyn Transport>, dispatcher: Arc<Dispatcher>) {
    let mut connections = tokio::task::JoinSet::new();
    loop {
        let channel = match transport.accept().await {
            Ok(c) => c,
            Err(e) => {
                tracing::debug!(error = %e, "execute_code channel accept failed");
                return;
            }
        };
        let dispatcher = Arc::clone(&dispatcher);
        connections.spawn(async move { answer(channel, &dispatcher).await });
        // Reap finished connections so a script that reconnects often does not pile them up.
        while connections.try_join_next().is_some() {}
    }
}

async fn answer(channel: Box<dyn Channel>, dispatcher: &Dispatcher) {
    let (read, mut write) = tokio::io::split(channel);
    let mut reader = BufReader::new(read);
    loop {
        let mut line = Vec::new();
        let read = (&mut reader)
            .take(MAX_REQUEST_BYTES + 1)
            .read_until(b'\n', &mut line)
            .await;
        match read {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let too_long = line.len() as u64 > MAX_REQUEST_BYTES;
        let reply = if too_long {
            refusal(
                &Value::Null,
                "invalid",
                &format!("the request is larger than {MAX_REQUEST_BYTES} bytes"),
            )
        } else {
            dispatcher.handle(&line).await
        };
        let mut bytes = reply.to_string().into_bytes();
        bytes.push(b'\n');
        if write.write_all(&bytes).await.is_err() || write.flush().await.is_err() || too_long {
            return;
        }
    }
}

fn refusal(id: &Value, kind: &str, message: &str) -> Value {
    json!({"id": id, "ok": false, "kind": kind, "error": message})
}

impl Dispatcher {
    /// The reply to one request line.
    pub async fn handle(&self, line: &[u8]) -> Value {
        let request: Value = match serde_json::from_slice(line) {
            Ok(v @ Value::Object(_)) => v,
            Ok(_) => {
                return refusal(
                    &Value::Null,
                    "invalid",
                    "Invalid RPC request: not an object",
                );
            }
            Err(e) => {
                return refusal(
                    &Value::Null,
                    "invalid",
                    &format!("Invalid RPC request: {e}"),
                );
            }
        };
        let id = request.get("id").cloned().unwrap_or(Value::Null);
        let token = request.get("token").and_then(Value::as_str).unwrap_or("");
        if !same_token(token, &self.token) {
            return refusal(&id, "unauthorized", "Unauthorized RPC request");
        }
        let tool = request.get("tool").and_then(Value::as_str).unwrap_or("");
        if !self.allowed.iter().any(|a| a == tool) {
            return refusal(&id, "unavailable", &unavailable(tool, &self.allowed));
        }
        let args = match request.get("args") {
            None | Some(Value::Null) => json!({}),
            Some(v @ Value::Object(_)) => v.clone(),
            Some(_) => {
                return refusal(
                    &id,
                    "invalid",
                    "args must be an object of keyword arguments",
                );
            }
        };
        if tool == "terminal"
            && let Some(param) = TERMINAL_BLOCKED_PARAMS
                .iter()
                .find(|p| args.get(**p).is_some_and(truthy))
        {
            return refusal(
                &id,
                "refused",
                &format!(
                    "terminal() in a script runs in the foreground only ({param} is not \
                     available); start background processes with the terminal tool itself"
                ),
            );
        }
        let claimed = self
            .status
            .made
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < self.max_calls).then_some(n + 1)
            });
        let Ok(before) = claimed else {
            return refusal(
                &id,
                "limit",
                &format!(
                    "Tool call limit reached ({}). No more tool calls allowed in this \
                     execution (code_execution.max_tool_calls).",
                    self.max_calls
                ),
            );
        };
        *self
            .status
            .current
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(tool.to_string());
        (self.on_call)(&self.status);
        let call_id = format!("{}~{}", self.parent, before + 1);
        let output = self.nested.call(&self.parent, call_id, tool, args).await;
        *self
            .status
            .current
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = None;
        reply(&id, output)
    }
}

/// What the script gets for a tool's output: the result, or (refused, cancelled) an error
/// the stub raises.
fn reply(id: &Value, output: ToolOutput) -> Value {
    match output.outcome {
        ToolOutcome::Ok => json!({"id": id, "ok": true, "result": result_value(output)}),
        ToolOutcome::Error => {
            let mut result = result_value(output.clone());
            match &mut result {
                Value::Object(map) => {
                    map.entry("error")
                        .and_modify(|e| {
                            if e.is_null() {
                                *e = Value::String(output.content.clone());
                            }
                        })
                        .or_insert_with(|| Value::String(output.content.clone()));
                }
                other => *other = json!({"error": output.content}),
            }
            json!({"id": id, "ok": true, "result": result})
        }
        ToolOutcome::Denied => refusal(id, "refused", &output.content),
        ToolOutcome::Cancelled => refusal(id, "cancelled", &output.content),
    }
}

/// A tool's program-facing result: its `data`, else its text as JSON when it is JSON, else
/// the text.
fn result_value(output: ToolOutput) -> Value {
    if let Some(data) = output.data {
        return data;
    }
    match serde_json::from_str::<Value>(&output.content) {
        Ok(v @ (Value::Object(_) | Value::Array(_))) => v,
        _ => Value::String(output.content),
    }
}

fn unavailable(tool: &str, allowed: &[String]) -> String {
    let why = match tool {
        "execute_code" => " (a script cannot start another script)",
        "delegate_task" => " (scripts cannot start subagents)",
        "clarify" => " (a script cannot ask the user)",
        "memory" => " (scripts cannot change memory)",
        t if t.starts_with("mcp_") => " (scripts cannot call MCP tools)",
        _ => "",
    };
    format!(
        "Tool '{tool}' is not available in execute_code{why}. Available: {}",
        allowed.join(", ")
    )
}

fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// Token comparison in time independent of where the tokens differ.
fn same_token(given: &str, expected: &str) -> bool {
    let (a, b) = (given.as_bytes(), expected.as_bytes());
    if a.len() != b.len() || b.is_empty() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
#[path = "rpc_tests.rs"]
mod tests;
