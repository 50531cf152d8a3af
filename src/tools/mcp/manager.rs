//! `McpManager`: the session's MCP servers — one supervisor task per enabled server, the
//! combined tool registry (built-in tools, then each connected server's tools in config
//! order), and the status every frontend sees.
//!
//! Starting never blocks: servers connect in the background and `settled` lets a turn wait
//! for first connections. Invariants: the registry and `Event::McpStatus` change together,
//! under one lock, so the model is never offered a tool the status does not list; a name
//! that collides with a built-in or an earlier server's tool is left out with a warning;
//! `reload` and `shutdown` stop every supervisor (and so every server process) before
//! returning or within a few seconds.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::PoisonError;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::link::ServerLink;
use super::server::supervise;
use crate::config::schema::McpEndpoint;
use crate::config::schema::NamedMcpServer;
use crate::protocol::Event;
use crate::protocol::McpServerState;
use crate::protocol::McpServerStatus;
use crate::protocol::McpStatus;
use crate::protocol::McpTransport;
use crate::protocol::Notice;
use crate::protocol::NoticeLevel;
use crate::tools::Concurrency;
use crate::tools::Tool;
use crate::tools::ToolRegistry;

/// `${VAR}` lookup shared by a session's servers.
pub type VarLookup = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// What every server of a session shares.
pub struct McpSettings {
    /// The session's built-in tools; MCP tools are added after them.
    pub base: Arc<ToolRegistry>,
    /// Where images and blobs from results go (`HERMES_HOME/images`).
    pub media_dir: PathBuf,
    /// Where stdio servers run unless they set `cwd`.
    pub default_cwd: PathBuf,
    /// hermes's environment (the baseline variables are taken from it).
    pub parent_env: Vec<(String, String)>,
    /// `${VAR}` lookup: the environment plus `.env`.
    pub lookup: VarLookup,
    pub http: Option<reqwest::Client>,
    /// Where status and notices go (the session's event stream).
    pub emit: Arc<dyn Fn(Event) + Send + Sync>,
    /// The model that answers servers' sampling requests; `None`: sampling is not offered.
    pub sampling: Option<super::sampling::SamplingModel>,
}

struct Entry {
    status: McpServerStatus,
    tools: Vec<Arc<dyn Tool>>,
}

/// State shared by the supervisors of one generation (one config load).
pub struct Shared {
    pub settings: Arc<McpSettings>,
    entries: Mutex<Vec<Entry>>,
    registry: Mutex<Arc<ToolRegistry>>,
    /// Servers whose first attempt has not finished yet.
    pending_first: watch::Sender<usize>,
    /// Set when a reload or shutdown replaced this generation: its supervisors may still be
    /// finishing, and must not announce a status over the new generation's.
    retired: std::sync::atomic::AtomicBool,
}

impl Shared {
    pub fn set_state(&self, index: usize, state: McpServerState, tools: Vec<Arc<dyn Tool>>) {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(entry) = entries.get_mut(index) {
            entry.status.state = state;
            entry.tools = tools;
        }
        self.publish(&mut entries);
    }

    /// A refresh after `tools/list_changed`.
    pub fn replace_tools(&self, index: usize, tools: Vec<Arc<dyn Tool>>) {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(entry) = entries.get_mut(index) {
            let before: Vec<String> = entry.tools.iter().map(|t| t.name().to_string()).collect();
            let after: Vec<String> = tools.iter().map(|t| t.name().to_string()).collect();
            let added: Vec<&String> = after.iter().filter(|n| !before.contains(n)).collect();
            let removed: Vec<&String> = before.iter().filter(|n| !after.contains(n)).collect();
            if !added.is_empty() || !removed.is_empty() {
                tracing::info!(server = %entry.status.name, ?added, ?removed, "MCP tools changed");
            }
            entry.tools = tools;
        }
        self.publish(&mut entries);
    }

    pub fn tool_count(&self, index: usize) -> usize {
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries.get(index).map_or(0, |e| e.status.tools.len())
    }

    pub fn notice(&self, level: NoticeLevel, text: String) {
        if !self.retired.load(std::sync::atomic::Ordering::SeqCst) {
            (self.settings.emit)(Event::Notice(Notice { level, text }));
        }
    }

    pub fn first_attempt_done(&self, _index: usize) {
        self.pending_first.send_modify(|n| *n = n.saturating_sub(1));
    }

    /// Rebuild the registry and each status's tool list, then announce it.
    fn publish(&self, entries: &mut [Entry]) {
        if self.retired.load(std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        let mut registry = (*self.settings.base).clone();
        for entry in entries.iter_mut() {
            let connected = matches!(entry.status.state, McpServerState::Connected);
            entry.status.tools.clear();
            if !connected {
                continue;
            }
            for tool in &entry.tools {
                match registry.register(Arc::clone(tool)) {
                    Ok(()) => entry.status.tools.push(tool.name().to_string()),
                    Err(err) => {
                        tracing::warn!(server = %entry.status.name, "MCP tool left out: {err}")
                    }
                }
            }
        }
        *self.registry.lock().unwrap_or_else(PoisonError::into_inner) = Arc::new(registry);
        let servers = entries.iter().map(|e| e.status.clone()).collect();
        (self.settings.emit)(Event::McpStatus(McpStatus { servers }));
    }
}

struct Generation {
    shared: Arc<Shared>,
    cancel: CancellationToken,
    tasks: Vec<JoinHandle<()>>,
}

pub struct McpManager {
    settings: Arc<McpSettings>,
    current: Mutex<Generation>,
}

impl McpManager {
    /// Start supervising `servers` (disabled ones are listed, never started).
    pub fn start(servers: Vec<NamedMcpServer>, settings: McpSettings) -> Arc<Self> {
        let settings = Arc::new(settings);
        let generation = launch(servers, &settings);
        Arc::new(Self {
            settings,
            current: Mutex::new(generation),
        })
    }

    /// The tools to offer now: built-ins, then connected servers' tools.
    pub fn tools(&self) -> Arc<ToolRegistry> {
        let shared = self.shared();
        let registry = shared
            .registry
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        registry.clone()
    }

    pub fn statuses(&self) -> Vec<McpServerStatus> {
        let shared = self.shared();
        let entries = shared
            .entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        entries.iter().map(|e| e.status.clone()).collect()
    }

    /// Resolves once every enabled server has finished its first connection attempt
    /// (each is bounded by its `connect_timeout`).
    pub async fn settled(&self) {
        let mut pending = self.shared().pending_first.subscribe();
        let _ = pending.wait_for(|n| *n == 0).await;
    }

    /// Stop every server, then start `servers` (a fresh config read).
    pub async fn reload(&self, servers: Vec<NamedMcpServer>) {
        let next = launch(servers, &self.settings);
        let old = {
            let mut current = self.current.lock().unwrap_or_else(PoisonError::into_inner);
            std::mem::replace(&mut *current, next)
        };
        stop(old).await;
    }

    /// Stop every server (closing stdio servers' input, killing their process groups).
    pub async fn shutdown(&self) {
        let old = {
            let mut current = self.current.lock().unwrap_or_else(PoisonError::into_inner);
            let empty = launch(Vec::new(), &self.settings);
            std::mem::replace(&mut *current, empty)
        };
        stop(old).await;
    }

    fn shared(&self) -> Arc<Shared> {
        let current = self.current.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(&current.shared)
    }
}

impl Drop for McpManager {
    fn drop(&mut self) {
        // Tasks end when cancelled; dropping their connections kills the process groups.
        let current = self
            .current
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        current.cancel.cancel();
    }
}

fn launch(servers: Vec<NamedMcpServer>, settings: &Arc<McpSettings>) -> Generation {
    let cancel = CancellationToken::new();
    let enabled = servers.iter().filter(|s| s.config.enabled).count();
    let (pending_first, _) = watch::channel(enabled);
    let entries = servers
        .iter()
        .map(|server| Entry {
            status: McpServerStatus {
                name: server.name.clone(),
                transport: match server.config.endpoint() {
                    Ok(McpEndpoint::Http { .. }) => McpTransport::Http,
                    _ => McpTransport::Stdio,
                },
                state: match server.config.enabled {
                    true => McpServerState::Connecting,
                    false => McpServerState::Disabled,
                },
                tools: Vec::new(),
            },
            tools: Vec::new(),
        })
        .collect();
    let shared = Arc::new(Shared {
        settings: Arc::clone(settings),
        entries: Mutex::new(entries),
        registry: Mutex::new(Arc::clone(&settings.base)),
        pending_first,
        retired: std::sync::atomic::AtomicBool::new(false),
    });
    if !servers.is_empty() {
        let mut entries = shared
            .entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        shared.publish(&mut entries);
    }
    let mut tasks = Vec::new();
    for (index, server) in servers.into_iter().enumerate() {
        if !server.config.enabled {
            continue;
        }
        let concurrency = match server.config.supports_parallel_tool_calls {
            true => Concurrency::ParallelSafe,
            false => Concurrency::Sequential,
        };
        let link = ServerLink::new(
            &server.name,
            server.config.call_timeout(),
            concurrency,
            settings.media_dir.clone(),
        );
        tasks.push(tokio::spawn(supervise(
            index,
            server,
            link,
            Arc::clone(&shared),
            cancel.clone(),
        )));
    }
    Generation {
        shared,
        cancel,
        tasks,
    }
}

async fn stop(generation: Generation) {
    generation
        .shared
        .retired
        .store(true, std::sync::atomic::Ordering::SeqCst);
    generation.cancel.cancel();
    for task in generation.tasks {
        // Each supervisor waits up to 4 s for its server to exit.
        let _ = tokio::time::timeout(Duration::from_secs(5), task).await;
    }
}
