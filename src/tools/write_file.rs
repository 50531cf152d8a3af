//! The `write_file` tool: create or overwrite a file with the given content, creating missing
//! parent directories, and report the bytes and lines written.
//!
//! It writes exactly the content given (no newline added) and refuses to replace a directory.
//! Before writing it asks the `CommandPolicy` (`check_write`): a sensitive path needs the
//! user's approval, and the turn's first write is checkpointed first (the engine's gate).

use async_trait::async_trait;
use serde::Deserialize;

use crate::model::ToolSchema;
use crate::tools::Concurrency;
use crate::tools::Tool;
use crate::tools::ToolContext;
use crate::tools::ToolOutput;
use crate::tools::args;
use crate::util::paths::resolve_path;

pub struct WriteFileTool;

#[derive(Debug, Deserialize)]
struct WriteArgs {
    path: String,
    content: String,
}

#[async_trait]
impl Tool for WriteFileTool {
    fn name(&self) -> &'static str {
        "write_file"
    }

    fn toolset(&self) -> &'static str {
        "file"
    }

    fn schema(&self) -> ToolSchema {
        ToolSchema {
            name: self.name().to_string(),
            description: "Create a file or overwrite it completely with `content`, creating missing parent directories. \
                To change part of an existing file use patch instead. Paths are relative to the working directory; ~ is the home directory."
                .to_string(),
            parameters: serde_json::json!({
                "type": "object",
                "properties": {
                    "path": {"type": "string", "description": "File to write."},
                    "content": {"type": "string", "description": "The complete new content of the file."}
                },
                "required": ["path", "content"]
            }),
        }
    }

    fn concurrency(&self) -> Concurrency {
        Concurrency::Sequential
    }

    fn preview(&self, args: &serde_json::Value) -> String {
        args::str_field(args, "path").to_string()
    }

    async fn call(&self, args: serde_json::Value, ctx: &ToolContext) -> ToolOutput {
        let args: WriteArgs = match args::parse(self.name(), args) {
            Ok(a) => a,
            Err(e) => return e,
        };
        if args.path.trim().is_empty() {
            return ToolOutput::error("path is empty");
        }
        let path = resolve_path(&ctx.cwd, &args.path);
        let shown = path.display().to_string();
        if path.is_dir() {
            return ToolOutput::error(format!("{shown} is a directory"));
        }
        let existed = path.exists();
        let verdict = tokio::select! {
            v = ctx.policy.check_write(self.name(), &path) => v,
            () = ctx.cancel.cancelled() => return ToolOutput::cancelled("cancelled before the file was written"),
        };
        if let crate::safety::CommandVerdict::Deny { reason } = verdict {
            return ToolOutput::denied(reason);
        }
        let mut dirs_created = false;
        if let Some(parent) = path.parent()
            && !parent.is_dir()
        {
            if let Err(e) = tokio::fs::create_dir_all(parent).await {
                return ToolOutput::error(format!("cannot create {}: {e}", parent.display()));
            }
            dirs_created = true;
        }
        if let Err(e) = tokio::fs::write(&path, args.content.as_bytes()).await {
            return ToolOutput::error(format!("cannot write {shown}: {e}"));
        }
        let lines = args.content.lines().count();
        let verb = if existed { "Overwrote" } else { "Created" };
        ToolOutput::ok(format!(
            "{verb} {shown}: wrote {} bytes ({lines} lines)",
            args.content.len()
        ))
        .with_data(serde_json::json!({
            "bytes_written": args.content.len(),
            "dirs_created": dirs_created,
        }))
    }
}

#[cfg(test)]
#[path = "write_file_tests.rs"]
mod tests;
