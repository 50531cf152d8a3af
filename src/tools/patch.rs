//! The `patch` tool: replace an exact `old_string` in a file with `new_string`.
//!
//! The replacement rules and the diff summary are `util::patch_plan` (shared with
//! `skill_manage`). Binary and non-UTF-8 files are refused. The write goes through the
//! `CommandPolicy` (`check_write`) like `write_file`'s.

use async_trait::async_trait;
use serde::Deserialize;

use crate::model::ToolSchema;
use crate::tools::Concurrency;
use crate::tools::Tool;
use crate::tools::ToolContext;
use crate::tools::ToolOutput;
use crate::tools::args;
use crate::tools::output;
use crate::util::patch_plan::plan;
use crate::util::paths::resolve_path;

pub struct PatchTool;

#[derive(Debug, Deserialize)]
struct PatchArgs {
    path: String,
    old_string: String,
    new_string: String,
    #[serde(default, deserialize_with = "args::lenient_bool")]
    replace_all: bool,
}

#[async_trait]
impl Tool for PatchTool {
    fn name(&self) -> &'static str {
        "patch"
    }

    fn toolset(&self) -> &'static str {
        "file"
    }

    fn schema(&self) -> ToolSchema {
        ToolSchema {
            name: self.name().to_string(),
            description: "Edit a file by replacing an exact string. `old_string` must match the file exactly (including indentation and \
                whitespace, without read_file's line-number prefixes) and must occur exactly once: include enough surrounding lines to make \
                it unique, or set replace_all=true to replace every occurrence. Returns a short diff of the change. \
                To create a file or rewrite it completely use write_file."
                .to_string(),
            parameters: serde_json::json!({
                "type": "object",
                "properties": {
                    "path": {"type": "string", "description": "File to edit."},
                    "old_string": {"type": "string", "description": "Exact text to replace."},
                    "new_string": {"type": "string", "description": "Replacement text (may be empty to delete)."},
                    "replace_all": {"type": "boolean", "description": "Replace every occurrence instead of requiring exactly one (default false)."}
                },
                "required": ["path", "old_string", "new_string"]
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
        let args: PatchArgs = match args::parse(self.name(), args) {
            Ok(a) => a,
            Err(e) => return e,
        };
        let path = resolve_path(&ctx.cwd, &args.path);
        let shown = path.display().to_string();
        let bytes = match tokio::fs::read(&path).await {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return ToolOutput::error(format!(
                    "file not found: {shown}; use write_file to create it"
                ));
            }
            Err(e) => return ToolOutput::error(format!("cannot read {shown}: {e}")),
        };
        if output::looks_binary(&bytes) {
            return ToolOutput::error(format!("{shown} is a binary file; patch edits text only"));
        }
        let Ok(content) = String::from_utf8(bytes) else {
            return ToolOutput::error(format!(
                "{shown} is not valid UTF-8; patch edits UTF-8 text only"
            ));
        };
        let edit = match plan(
            &content,
            &args.old_string,
            &args.new_string,
            args.replace_all,
        ) {
            Ok(e) => e,
            Err(e) => return ToolOutput::error(format!("{shown}: {e}")),
        };
        let verdict = tokio::select! {
            v = ctx.policy.check_write(self.name(), &path) => v,
            () = ctx.cancel.cancelled() => return ToolOutput::cancelled("cancelled before the file was written"),
        };
        if let crate::safety::CommandVerdict::Deny { reason } = verdict {
            return ToolOutput::denied(reason);
        }
        if let Err(e) = tokio::fs::write(&path, edit.new_content.as_bytes()).await {
            return ToolOutput::error(format!("cannot write {shown}: {e}"));
        }
        let text = format!("Patched {shown}: {}", edit.summary);
        let data = serde_json::json!({
            "success": true,
            "files_modified": [shown],
            "diff": edit.summary,
        });
        ToolOutput::ok(text).with_data(data)
    }
}

#[cfg(test)]
#[path = "patch_tests.rs"]
mod tests;
