//! Opening one MCP connection with the official SDK (`rmcp`): a stdio child process or a
//! streamable-HTTP endpoint, the initialize handshake, and the handler that hears the
//! server's notifications.
//!
//! Does not retry, list tools or register anything (`server.rs` does). Invariants: a stdio
//! server runs in its own process group with only `env::server_env` as its environment, and
//! dropping or closing the connection ends the whole group; the server's stderr never reaches
//! the terminal (it is kept, last lines only, for error messages, and logged at debug level).

use std::collections::HashMap;
use std::collections::VecDeque;
use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;

use process_wrap::tokio::CommandWrap;
use process_wrap::tokio::KillOnDrop;
use process_wrap::tokio::ProcessGroup;
use rmcp::ClientHandler;
use rmcp::RoleClient;
use rmcp::ServiceExt;
use rmcp::model::ClientCapabilities;
use rmcp::model::ClientConfig;
use rmcp::model::Implementation;
use rmcp::model::ProgressNotificationParam;
#[allow(deprecated)] // sampling: deprecated by SEP-2577, still sent by servers
use rmcp::model::{
    CreateMessageRequestMethod, CreateMessageRequestParams, CreateMessageResult, ErrorData,
    SamplingCapability,
};
use rmcp::service::ClientInitializeError;
use rmcp::service::NotificationContext;
use rmcp::service::Peer;
use rmcp::service::RequestContext;
use rmcp::service::RunningService;
use rmcp::transport::DynamicTransportError;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::TokioChildProcess;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::streamable_http_client::StreamableHttpError;
use tokio::io::AsyncBufReadExt;
use tokio::sync::mpsc;

use super::env;
use super::progress::ProgressRoutes;
use super::sampling::Sampler;
use crate::config::schema::McpEndpoint;
use crate::config::schema::McpServerConfig;
use crate::protocol::McpTransport;

/// How many of a server's last stderr lines are kept for error messages.
const STDERR_TAIL_LINES: usize = 20;

#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error("{0}")]
    Config(String),
    #[error(transparent)]
    Endpoint(#[from] crate::config::schema::EndpointError),
    #[error("could not start `{command}`: {reason}")]
    Spawn { command: String, reason: String },
    #[error("no answer within {secs:.0} s{stderr}")]
    Timeout { secs: f64, stderr: StderrNote },
    #[error("the handshake failed: {reason}{stderr}")]
    Handshake { reason: String, stderr: StderrNote },
    #[error(
        "the server wants authorization (HTTP 401/403): set its `headers:` (e.g. Authorization: \"Bearer ${{TOKEN}}\" with TOKEN in .env); OAuth login is not supported yet"
    )]
    Unauthorized,
}

impl ConnectError {
    /// Errors that another attempt will not fix (a missing program, a bad URL or header).
    pub fn is_permanent(&self) -> bool {
        match self {
            Self::Config(_) | Self::Endpoint(_) => true,
            Self::Spawn { reason, .. } => reason.contains("not found"),
            Self::Unauthorized => true,
            Self::Timeout { .. } | Self::Handshake { .. } => false,
        }
    }
}

/// " — its stderr said: …" with the server's last stderr line, or nothing.
#[derive(Debug, Default, Clone)]
pub struct StderrNote(Option<String>);

impl std::fmt::Display for StderrNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(line) => write!(f, " — its stderr said: {line}"),
            None => Ok(()),
        }
    }
}

/// The last lines a stdio server wrote to stderr (none for HTTP servers).
#[derive(Debug, Clone)]
pub struct StderrTail {
    lines: Arc<Mutex<VecDeque<String>>>,
    /// The pipe reached its end (or there is none).
    ended: Arc<std::sync::atomic::AtomicBool>,
}

impl Default for StderrTail {
    fn default() -> Self {
        Self {
            lines: Arc::default(),
            ended: Arc::new(std::sync::atomic::AtomicBool::new(true)),
        }
    }
}

/// How long a failed handshake waits for a dying server's last stderr lines.
const STDERR_SETTLE: Duration = Duration::from_millis(300);

impl StderrTail {
    /// A tail whose pipe is still being read.
    fn reading() -> Self {
        Self {
            ended: Arc::new(std::sync::atomic::AtomicBool::new(false)),
            ..Self::default()
        }
    }

    fn end(&self) {
        self.ended.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// The note once the pipe has ended (at most `STDERR_SETTLE`): a server that exits
    /// during the handshake often writes its reason just before.
    pub async fn settled_note(&self) -> StderrNote {
        let deadline = tokio::time::Instant::now() + STDERR_SETTLE;
        while !self.ended.load(std::sync::atomic::Ordering::SeqCst)
            && tokio::time::Instant::now() < deadline
        {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        self.note()
    }

    fn push(&self, line: String) {
        let mut lines = self
            .lines
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if lines.len() == STDERR_TAIL_LINES {
            lines.pop_front();
        }
        lines.push_back(line);
    }

    /// The last non-empty line, capped, for one-line error messages.
    pub fn last_line(&self) -> Option<String> {
        let lines = self
            .lines
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        lines
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map(|l| super::clip(l.trim(), 200))
    }

    pub fn note(&self) -> StderrNote {
        StderrNote(self.last_line())
    }
}

/// Hears the server: tool-list changes go to the supervisor; sampling requests go to the
/// server's `Sampler` when it has one (else the capability is not declared). (Server log
/// notifications are deprecated by SEP-2577 and ignored.)
#[derive(Clone)]
pub struct HermesClient {
    server: String,
    tools_changed: mpsc::UnboundedSender<()>,
    sampler: Option<Arc<Sampler>>,
    progress: ProgressRoutes,
}

// Sampling is deprecated by SEP-2577 in the SDK, but servers still send it.
#[allow(deprecated)]
impl ClientHandler for HermesClient {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        tracing::debug!(server = %self.server, "MCP tools/list_changed");
        let _ = self.tools_changed.send(());
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress.deliver(&params);
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        match &self.sampler {
            Some(sampler) => sampler.create_message(params).await,
            None => Err(ErrorData::method_not_found::<CreateMessageRequestMethod>()),
        }
    }

    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        if self.sampler.is_some() {
            capabilities.sampling = Some(SamplingCapability::default());
        }
        ClientConfig::new(
            capabilities,
            Implementation::new("hermes", env!("CARGO_PKG_VERSION")),
        )
    }
}

/// A live connection.
pub struct Connection {
    pub service: RunningService<RoleClient, HermesClient>,
    pub peer: Peer<RoleClient>,
    pub stderr: StderrTail,
}

impl Connection {
    /// `name version` as the server introduced itself.
    pub fn server_label(&self) -> String {
        match self.peer.peer_info() {
            Some(info) => match &info.server_info {
                Some(server) => format!("{} {}", server.name, server.version),
                None => "an unnamed server".to_string(),
            },
            None => "an unnamed server".to_string(),
        }
    }

    pub fn has_resources(&self) -> bool {
        self.peer
            .peer_info()
            .is_some_and(|info| info.capabilities.resources.is_some())
    }

    pub fn has_prompts(&self) -> bool {
        self.peer
            .peer_info()
            .is_some_and(|info| info.capabilities.prompts.is_some())
    }
}

/// What connecting needs besides the server's config.
pub struct ConnectContext<'a> {
    pub name: &'a str,
    /// `${VAR}` lookup: hermes's environment and `.env`.
    pub lookup: &'a (dyn Fn(&str) -> Option<String> + Sync),
    /// hermes's own environment, for the baseline variables.
    pub parent_env: Vec<(String, String)>,
    /// Where a stdio server runs when it sets no `cwd`.
    pub default_cwd: &'a Path,
    pub http: Option<reqwest::Client>,
    /// Tool-list-changed notifications go here.
    pub tools_changed: mpsc::UnboundedSender<()>,
    /// Answers the server's sampling requests; `None`: sampling is not offered.
    pub sampler: Option<Arc<Sampler>>,
    /// Where the server's progress notifications go.
    pub progress: ProgressRoutes,
}

/// Start (or reach) the server and finish the handshake within `connect_timeout`.
pub async fn connect(
    config: &McpServerConfig,
    cx: ConnectContext<'_>,
) -> Result<Connection, ConnectError> {
    let config = env::interpolated(config, cx.lookup);
    let handler = HermesClient {
        server: cx.name.to_string(),
        tools_changed: cx.tools_changed.clone(),
        sampler: cx.sampler.clone(),
        progress: cx.progress.clone(),
    };
    let timeout = config.connect_timeout();
    let endpoint = config.endpoint()?;
    match endpoint {
        McpEndpoint::Stdio { command } => {
            let (transport, stderr) = spawn_stdio(command, &config, &cx)?;
            let serving = handler.serve(transport);
            let service = handshake(serving, McpTransport::Stdio, timeout, &stderr).await?;
            Ok(Connection {
                peer: service.peer().clone(),
                service,
                stderr,
            })
        }
        McpEndpoint::Http { url } => {
            let transport = http_transport(url, &config, cx.http)?;
            let stderr = StderrTail::default();
            let serving = handler.serve(transport);
            let service = handshake(serving, McpTransport::Http, timeout, &stderr).await?;
            Ok(Connection {
                peer: service.peer().clone(),
                service,
                stderr,
            })
        }
    }
}

async fn handshake(
    serving: impl Future<
        Output = Result<RunningService<RoleClient, HermesClient>, ClientInitializeError>,
    >,
    transport: McpTransport,
    timeout: Duration,
    stderr: &StderrTail,
) -> Result<RunningService<RoleClient, HermesClient>, ConnectError> {
    match tokio::time::timeout(timeout, serving).await {
        Ok(Ok(service)) => Ok(service),
        Ok(Err(err)) if err.is_authorization_required() => Err(ConnectError::Unauthorized),
        Ok(Err(err)) => {
            let reason = match transport {
                // A process that exits mid-handshake fails with "broken pipe" or "connection
                // closed" depending on timing; one wording keeps retries of it quiet.
                McpTransport::Stdio if closed_early(&err) => {
                    "the server exited (or closed its stdout) first".to_string()
                }
                McpTransport::Stdio | McpTransport::Http => initialize_failure(&err),
            };
            Err(ConnectError::Handshake {
                reason: super::clip(&reason, 300),
                stderr: stderr.settled_note().await,
            })
        }
        Err(_) => Err(ConnectError::Timeout {
            secs: timeout.as_secs_f64(),
            stderr: stderr.note(),
        }),
    }
}

/// Whether the handshake failed because the other end went away.
fn closed_early(err: &ClientInitializeError) -> bool {
    match err {
        ClientInitializeError::ConnectionClosed(_) => true,
        ClientInitializeError::TransportError { error, .. } => {
            let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error.error.as_ref());
            while let Some(current) = cause {
                if current
                    .downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
                {
                    return true;
                }
                cause = current.source();
            }
            false
        }
        _ => false,
    }
}

/// Why the handshake failed, without the SDK's generic type names.
fn initialize_failure(err: &ClientInitializeError) -> String {
    match err {
        ClientInitializeError::TransportError { error, .. } => transport_cause(error),
        other => other.to_string(),
    }
}

/// A transport error as "the transport's message: its innermost cause" ("Client error: error
/// sending request for url (…): Connection refused (os error 111)"), without type names.
pub fn transport_cause(error: &DynamicTransportError) -> String {
    let top = error.error.to_string();
    let mut deepest: &(dyn std::error::Error + 'static) = error.error.as_ref();
    // The HTTP transport's client errors do not chain to their cause; reach into them.
    if let Some(StreamableHttpError::Client(client)) =
        deepest.downcast_ref::<StreamableHttpError<reqwest::Error>>()
    {
        deepest = client;
    }
    while let Some(source) = deepest.source() {
        deepest = source;
    }
    let inner = deepest.to_string();
    match top.contains(&inner) {
        true => top,
        false => format!("{top}: {inner}"),
    }
}

fn spawn_stdio(
    command: &str,
    config: &McpServerConfig,
    cx: &ConnectContext<'_>,
) -> Result<(TokioChildProcess, StderrTail), ConnectError> {
    let env = env::server_env(cx.parent_env.iter().cloned(), &config.env);
    let cwd = match config
        .cwd
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
    {
        Some(dir) => cx.default_cwd.join(dir),
        None => cx.default_cwd.to_path_buf(),
    };
    if !cwd.is_dir() {
        return Err(ConnectError::Config(format!(
            "its cwd {} is not a directory",
            cwd.display()
        )));
    }
    let mut cmd = tokio::process::Command::new(command);
    cmd.args(&config.args)
        .env_clear()
        .envs(&env)
        .current_dir(&cwd);
    let mut wrapped = CommandWrap::from(cmd);
    wrapped.wrap(ProcessGroup::leader()).wrap(KillOnDrop);
    let spawn_error = |err: std::io::Error| {
        let reason = match err.kind() {
            std::io::ErrorKind::NotFound => "not found on the server's PATH".to_string(),
            _ => err.to_string(),
        };
        ConnectError::Spawn {
            command: command.to_string(),
            reason,
        }
    };
    let (transport, stderr_pipe) = TokioChildProcess::builder(wrapped)
        .stderr(Stdio::piped())
        .spawn()
        .map_err(spawn_error)?;
    let tail = StderrTail::default();
    if let Some(pipe) = stderr_pipe {
        let tail = StderrTail::reading();
        let reader = tail.clone();
        let server = cx.name.to_string();
        tokio::spawn(async move {
            let mut lines = tokio::io::BufReader::new(pipe).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                tracing::debug!(server = %server, "MCP stderr: {line}");
                reader.push(line);
            }
            reader.end();
        });
        return Ok((transport, tail));
    }
    Ok((transport, tail))
}

fn http_transport(
    url: &str,
    config: &McpServerConfig,
    client: Option<reqwest::Client>,
) -> Result<StreamableHttpClientTransport<reqwest::Client>, ConnectError> {
    let parsed = reqwest::Url::parse(url)
        .map_err(|err| ConnectError::Config(format!("its url {url:?} is not a URL: {err}")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(ConnectError::Config(format!(
            "its url {url:?} is not http:// or https://"
        )));
    }
    let mut headers = HashMap::new();
    for (name, value) in &config.headers {
        let header = reqwest::header::HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| ConnectError::Config(format!("header {name:?} is not a valid name")))?;
        let value = reqwest::header::HeaderValue::from_str(value).map_err(|_| {
            // Never echo the value: headers carry tokens.
            ConnectError::Config(format!("the value of header {name} is not valid"))
        })?;
        headers.insert(header, value);
    }
    let client = match client {
        Some(client) => client,
        None => crate::util::http::build_client()
            .map_err(|err| ConnectError::Config(err.to_string()))?,
    };
    let transport_config =
        StreamableHttpClientTransportConfig::with_uri(url.to_string()).custom_headers(headers);
    Ok(StreamableHttpClientTransport::with_client(
        client,
        transport_config,
    ))
}
