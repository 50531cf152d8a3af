//! `execute_code`: the model writes one Python script that calls hermes's tools itself, so a
//! chain of calls with logic between them costs one turn and only what the script prints
//! reaches the context (Hermes's "programmatic tool calling").
//!
//! A run: a private staging directory (0700) with the generated `hermes_tools.py` (`stub`)
//! and the script; a Unix socket in it served by `rpc`, whose calls go through the session's
//! normal tool path (`NestedCalls`: approvals, sandbox, hooks, redaction, events); the
//! script in its own process group (`run`) with a scrubbed environment (`env`), confined by
//! the sandbox when one is active; the result in Hermes's shape (`result`). The staging
//! directory is removed when the run ends, however it ends.
//!
//! It is offered only when a usable Python is found (`python`); a script cannot call
//! `execute_code`, `delegate_task`, `clarify`, `memory` or MCP tools.

pub mod env;
pub mod python;
pub mod result;
pub mod rpc;
pub mod run;
pub mod schema;
pub mod stub;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde::Deserialize;

use crate::config::CodeExecutionMode;
use crate::model::ToolSchema;
use crate::safety::CommandVerdict;
use crate::tools::Concurrency;
use crate::tools::Tool;
use crate::tools::ToolContext;
use crate::tools::ToolOutput;
use crate::tools::args;
use crate::tools::sandboxed;
pub use python::Interpreter;
pub use schema::SCRIPT_TOOLS;

/// How this session runs scripts (from `code_execution:` and the interpreter found).
#[derive(Debug, Clone)]
pub struct CodeSettings {
    pub mode: CodeExecutionMode,
    pub timeout: Duration,
    pub max_tool_calls: u64,
    pub python: Interpreter,
    /// `terminal.env_passthrough`.
    pub env_passthrough: Vec<String>,
    /// The IANA zone scripts get as `TZ` (`HERMES_TIMEZONE`, else `timezone`); empty: none.
    pub timezone: String,
}

pub struct ExecuteCodeTool {
    settings: CodeSettings,
    schema: ToolSchema,
}

impl ExecuteCodeTool {
    /// The tool for a session whose tools include `session_tools` (the description lists
    /// only the script tools among them).
    pub fn new(settings: CodeSettings, session_tools: &[String]) -> Self {
        let schema = schema::schema(
            session_tools,
            settings.mode,
            settings.timeout.as_secs(),
            settings.max_tool_calls,
        );
        Self { settings, schema }
    }
}

#[derive(Debug, Deserialize)]
struct CodeArgs {
    #[serde(default)]
    code: String,
}

#[async_trait]
impl Tool for ExecuteCodeTool {
    fn name(&self) -> &'static str {
        "execute_code"
    }

    fn toolset(&self) -> &'static str {
        "code_execution"
    }

    fn schema(&self) -> ToolSchema {
        self.schema.clone()
    }

    fn concurrency(&self) -> Concurrency {
        Concurrency::Sequential
    }

    fn preview(&self, args: &serde_json::Value) -> String {
        let code = args::str_field(args, "code");
        let lines = code.lines().count();
        let first = code
            .lines()
            .map(str::trim)
            .find(|l| {
                !l.is_empty() && !l.starts_with("from hermes_tools") && !l.starts_with("import ")
            })
            .unwrap_or("");
        let first = args::preview_text(first, 60);
        match lines {
            0 | 1 => first,
            n => format!("{first} ({n} lines)"),
        }
    }

    async fn call(&self, args: serde_json::Value, ctx: &ToolContext) -> ToolOutput {
        let args: CodeArgs = match args::parse(self.name(), args) {
            Ok(a) => a,
            Err(e) => return e,
        };
        if args.code.trim().is_empty() {
            return ToolOutput::error(
                serde_json::json!({"error": "No code provided."}).to_string(),
            );
        }
        let Some(nested) = ctx.nested.clone() else {
            return early_error("execute_code cannot reach the tools here (no tool channel)");
        };
        let verdict = tokio::select! {
            v = ctx.policy.check_script(self.name()) => v,
            () = ctx.cancel.cancelled() => return ToolOutput::cancelled(result::INTERRUPTED),
        };
        if let CommandVerdict::Deny { reason } = &verdict {
            let mut out = early_error(reason);
            out.outcome = crate::tools::ToolOutcome::Denied;
            return out;
        }
        match self.execute(&args.code, nested, &verdict, ctx).await {
            Ok(out) => out,
            Err(why) => early_error(&why),
        }
    }
}

/// A result for a run that never started, in the same shape.
fn early_error(message: &str) -> ToolOutput {
    ToolOutput::error(
        serde_json::json!({
            "status": "error",
            "error": message,
            "tool_calls_made": 0,
            "duration_seconds": 0,
        })
        .to_string(),
    )
}

impl ExecuteCodeTool {
    async fn execute(
        &self,
        code: &str,
        nested: Arc<dyn crate::tools::NestedCalls>,
        verdict: &CommandVerdict,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, String> {
        let staging = crate::util::temp_dir::PrivateTempDir::create("hermes_sandbox")
            .map_err(|e| format!("could not create the staging directory: {e}"))?;
        let schemas = nested.schemas();
        let allowed: Vec<String> = schemas.iter().map(|s| s.name.clone()).collect();
        let write = |name: &str, text: &str| {
            std::fs::write(staging.path().join(name), text)
                .map_err(|e| format!("could not write {name} to the staging directory: {e}"))
        };
        write("hermes_tools.py", &stub::generate(&schemas))?;
        write("script.py", code)?;
        let transport = rpc::bind(staging.path()).map_err(|e| e.to_string())?;
        let token = format!(
            "{}{}",
            uuid::Uuid::new_v4().simple(),
            uuid::Uuid::new_v4().simple()
        );
        let env = self.child_env(ctx, staging.path(), &transport.endpoint(), &token);
        let cwd = match self.settings.mode {
            CodeExecutionMode::Project if ctx.cwd.is_dir() => ctx.cwd.clone(),
            CodeExecutionMode::Project | CodeExecutionMode::Strict => staging.path().to_path_buf(),
        };
        let confinement = sandboxed::for_verdict(ctx, verdict, &cwd).map_err(|out| out.content)?;
        let status = Arc::new(rpc::RunStatus::new());
        let host = Arc::clone(&ctx.host);
        let call_id = ctx.call_id.clone();
        let dispatcher = Arc::new(rpc::Dispatcher {
            token,
            nested,
            allowed,
            max_calls: self.settings.max_tool_calls,
            parent: ctx.call_id.clone(),
            status: Arc::clone(&status),
            on_call: Box::new(move |status| host.progress(&call_id, &status.line())),
        });
        let server = tokio::spawn(rpc::serve(transport, dispatcher));
        let launch = run::Launch {
            argv: vec![
                self.settings.python.path.clone().into_os_string(),
                staging.path().join("script.py").into_os_string(),
            ],
            cwd: &cwd,
            env: &env,
            confine: confinement.as_ref().map(|c| &c.confine),
            timeout: self.settings.timeout,
        };
        let tick = || ctx.host.progress(&ctx.call_id, &status.line());
        let finished = run::run(launch, &ctx.cancel, &tick).await;
        server.abort();
        let finished = finished.map_err(|e| {
            format!(
                "could not start {}: {e}",
                self.settings.python.path.display()
            )
        })?;
        let (text, outcome) = result::assemble(
            &finished,
            status.calls_made(),
            self.settings.timeout.as_secs(),
        );
        // `staging` is dropped here: the directory, the stub, the script and the socket go.
        Ok(ToolOutput {
            content: text,
            outcome,
            images: Vec::new(),
            data: None,
        })
    }

    /// The script's environment: the process's and the session's variables, scrubbed, plus
    /// the channel, UTF-8 mode and the staging directory on `PYTHONPATH`.
    fn child_env(
        &self,
        ctx: &ToolContext,
        staging: &std::path::Path,
        endpoint: &str,
        token: &str,
    ) -> Vec<(String, String)> {
        // The session's `.env` values first, so the process's own variables win (as for
        // commands).
        let mut source = ctx.env.snapshot();
        source.extend(std::env::vars());
        let mut passthrough = self.settings.env_passthrough.clone();
        passthrough.extend(ctx.session.env_passthrough());
        let mut env = env::scrub(&source, &passthrough);
        env::set(&mut env, "HERMES_RPC_SOCKET", endpoint);
        env::set(&mut env, "HERMES_RPC_TOKEN", token);
        env::set(&mut env, "PYTHONDONTWRITEBYTECODE", "1");
        env::set(&mut env, "PYTHONIOENCODING", "utf-8");
        env::set(&mut env, "PYTHONUTF8", "1");
        let existing = env
            .iter()
            .find(|(k, _)| k == "PYTHONPATH")
            .map(|(_, v)| v.clone())
            .filter(|v| !v.is_empty());
        let staging = staging.display().to_string();
        let pythonpath = match existing {
            Some(existing) => format!("{staging}:{existing}"),
            None => staging,
        };
        env::set(&mut env, "PYTHONPATH", &pythonpath);
        if !self.settings.timezone.trim().is_empty() {
            env::set(&mut env, "TZ", self.settings.timezone.trim());
        }
        env
    }
}
