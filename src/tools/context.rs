//! What a running tool may use: its working directory and limits, cancellation, the command
//! policy (`safety::CommandPolicy`), shared per-session state (background processes, the todo list), and a `ToolHost`
//! through which it reports progress and asks the user clarifying questions.

use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

use crate::protocol::ClarifyAnswer;
use crate::safety::CommandPolicy;
use crate::tools::ToolOutput;

/// The engine side of a tool call: progress lines and questions for the user.
#[async_trait]
pub trait ToolHost: Send + Sync {
    /// A line of live output or status for the call `call_id`. Must not block.
    fn progress(&self, call_id: &str, text: &str);
    /// Ask the user; resolves when they answer, decline, or the frontend goes away
    /// (`ClarifyAnswer::Declined`).
    async fn clarify(&self, question: &str, choices: &[String]) -> ClarifyAnswer;
}

/// One task for a subagent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DelegatedTask {
    pub goal: String,
    pub context: String,
}

/// A `delegate_task` call, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DelegationRequest {
    pub tasks: Vec<DelegatedTask>,
    /// API calls each child may make; `None`: `delegation.max_iterations`.
    pub max_iterations: Option<u32>,
    pub role: crate::protocol::SubagentRole,
}

/// Why `delegate_task` started no subagents; the text is for the model (say what to do instead).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DelegateError {
    #[error(
        "the user paused new subagents (p in the subagent monitor); do the work yourself or try \
         again later"
    )]
    Paused,
    #[error("subagents may not delegate further (delegation.max_spawn_depth is {max_depth})")]
    TooDeep { max_depth: u32 },
    #[error("orchestrator subagents are disabled (delegation.orchestrator_enabled: false)")]
    OrchestratorDisabled,
    #[error(
        "{tasks} tasks is more than delegation.max_concurrent_children ({limit}); send at most \
         {limit} at a time"
    )]
    TooManyTasks { tasks: usize, limit: usize },
    #[error(
        "{running} background delegation(s) are still running, the most \
         delegation.max_concurrent_children ({limit}) allows. Wait for their results (they \
         arrive together as a new message), or do this work yourself."
    )]
    BackgroundBusy { running: usize, limit: usize },
    #[error("interrupted: the subagents were stopped")]
    Interrupted,
}

/// Starts subagents for `delegate_task`. The engine implements it; `Err` says why not (caps,
/// depth, paused spawns).
#[async_trait]
pub trait Delegator: Send + Sync {
    /// Runs the children. Returns the text the model gets back: a handle (the main agent's
    /// children run in the background) or the children's results in input order (a
    /// subagent's own workers, waited for).
    async fn delegate(
        &self,
        request: DelegationRequest,
        cancel: &CancellationToken,
    ) -> Result<String, DelegateError>;
}

/// Runs tool calls for a tool that makes its own (an `execute_code` script), through the
/// session's normal tool path: the same approvals, sandbox, hooks, redaction and events as
/// the model's calls. The engine implements it, limited to the tools scripts may call.
#[async_trait]
pub trait NestedCalls: Send + Sync {
    /// The schemas of the tools that may be called, in registration order.
    fn schemas(&self) -> Vec<crate::model::ToolSchema>;
    /// Run `name(args)` as the call `call_id`, made inside the call `parent`.
    async fn call(
        &self,
        parent: &str,
        call_id: String,
        name: &str,
        args: serde_json::Value,
    ) -> ToolOutput;
}

/// Why the auxiliary vision model gave no description; the text is for the model.
#[derive(Debug, thiserror::Error)]
pub enum DescribeError {
    #[error(
        "{model} cannot see images and no auxiliary.vision model is configured (set \
         auxiliary.vision.model to a vision model)"
    )]
    NoDescriber { model: String },
    #[error(
        "{} could not be sent ({source}); the model gets a placeholder instead",
        path.display()
    )]
    Unsendable {
        path: PathBuf,
        source: crate::images::image_file::ImageError,
    },
    #[error("images could not be prepared ({0}); sent as text only")]
    Prepare(#[source] tokio::task::JoinError),
    #[error("{} could not be read", path.display())]
    Unreadable { path: PathBuf },
    #[error(transparent)]
    Provider(#[from] crate::providers::ProviderError),
    #[error("{model} returned an empty description")]
    Empty { model: String },
}

/// What `vision_analyze` needs from the session: whether the model sees images, the embed cap
/// and the auxiliary describer. The engine implements it.
#[async_trait]
pub trait VisionHost: Send + Sync {
    /// The main model sees images in tool results (then the image is embedded).
    fn model_sees_images(&self) -> bool;
    /// Count one embed of `image` (a resolved path or a URL); `Err(n)` when it was already
    /// embedded `n` times and `vision.max_calls_per_image` is reached.
    fn note_embed(&self, image: &Path) -> Result<(), u64>;
    /// The auxiliary vision model's answer to `question` about the image file, or why not.
    async fn describe(
        &self,
        image: &Path,
        question: &str,
        cancel: &CancellationToken,
    ) -> Result<String, DescribeError>;
}

/// Limits and settings tools read from config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolLimits {
    /// Foreground `terminal` timeout (`terminal.timeout`, default 180 s).
    pub terminal_timeout: Duration,
    /// Cap on tool output shown to the model; above it head + tail are kept.
    pub max_output_bytes: usize,
    /// `read_file`: largest file read without offset/limit.
    pub max_read_bytes: usize,
}

impl Default for ToolLimits {
    fn default() -> Self {
        Self {
            terminal_timeout: Duration::from_secs(180),
            max_output_bytes: 50_000,
            max_read_bytes: 256 * 1024,
        }
    }
}

/// Extra environment variables for the commands tools run: the `.env` values (as Hermes loads
/// `.env` into its environment) plus secrets the user entered this session. Shared by every
/// call of a session; reads take a snapshot.
#[derive(Debug, Default)]
pub struct ToolEnv {
    vars: std::sync::RwLock<std::collections::BTreeMap<String, String>>,
}

impl ToolEnv {
    pub fn new(vars: std::collections::BTreeMap<String, String>) -> Self {
        Self {
            vars: std::sync::RwLock::new(vars),
        }
    }

    pub fn set(&self, key: &str, value: &str) {
        let mut vars = self
            .vars
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        vars.insert(key.to_string(), value.to_string());
    }

    pub fn get(&self, key: &str) -> Option<String> {
        self.vars
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(key)
            .cloned()
    }

    pub fn snapshot(&self) -> Vec<(String, String)> {
        self.vars
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }
}

/// Per-call context. Cheap to clone.
#[derive(Clone)]
pub struct ToolContext {
    pub call_id: String,
    pub session_id: String,
    pub cwd: PathBuf,
    pub limits: ToolLimits,
    pub cancel: CancellationToken,
    pub host: Arc<dyn ToolHost>,
    pub policy: Arc<dyn CommandPolicy>,
    pub session: Arc<crate::tools::SessionTools>,
    pub env: Arc<ToolEnv>,
    /// Starts subagents (`delegate_task`); `None` where delegation is not available.
    pub delegator: Option<Arc<dyn Delegator>>,
    /// Images for `vision_analyze`; `None` outside a model turn.
    pub vision: Option<Arc<dyn VisionHost>>,
    /// Tool calls for `execute_code` scripts; `None` where the tools cannot be reached (a
    /// nested call itself, `!cmd`).
    pub nested: Option<Arc<dyn NestedCalls>>,
}
