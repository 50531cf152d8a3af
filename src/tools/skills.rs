//! The skills tools (spec-002a §3.3, §3.13): `skills_list` (level 0 of progressive
//! disclosure), `skill_view` (level 1: the whole `SKILL.md`; level 2: one supporting file) and
//! `skill_manage` (create / patch / edit / delete / write_file / remove_file).
//!
//! Each call reloads the catalog through the shared `SkillLoader`, so a skill created or
//! edited mid-session is visible to the next call; the system-prompt index is built elsewhere
//! and stays frozen for the session. Filesystem work runs on the blocking pool.
//!
//! Invariants: `skill_view` never reads outside the skill directory (`..`, absolute paths and
//! symlinks leading out are refused); `skill_manage` writes only inside a known skills root
//! (see `skills::manage`); as in Hermes, another platform's skills are neither listed nor
//! viewable, an inactive environment's are not listed but view by name, and skills whose tool
//! conditions are unmet are listed and viewable (they are only absent from the prompt index).

use std::sync::Arc;

use async_trait::async_trait;
use serde::Deserialize;

use crate::model::ToolSchema;
use crate::skills::SkillError;
use crate::skills::SkillLoader;
use crate::skills::catalog::AgentWrites;
use crate::skills::guard;
use crate::skills::invoke::missing_env;
use crate::skills::manage;
use crate::skills::manage::ReplaceMode;
use crate::skills::manage_guard::WriteSnapshot;
use crate::tools::Concurrency;
use crate::tools::Tool;
use crate::tools::ToolContext;
use crate::tools::ToolOutput;
use crate::tools::args;
use crate::tools::output;

const TOOLSET: &str = "skills";

/// Run `f` on the blocking pool; a panicked or cancelled task becomes a tool error.
async fn blocking(f: impl FnOnce() -> ToolOutput + Send + 'static) -> ToolOutput {
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or_else(|e| ToolOutput::error(format!("skills tool failed: {e}")))
}

fn from_result(result: Result<String, SkillError>) -> ToolOutput {
    match result {
        Ok(text) => ToolOutput::ok(text),
        Err(e) => ToolOutput::error(e.to_string()),
    }
}

/// `skills_list(category?)`: name, description and category of every visible skill.
pub struct SkillsListTool {
    loader: Arc<SkillLoader>,
}

impl SkillsListTool {
    pub fn new(loader: Arc<SkillLoader>) -> Self {
        Self { loader }
    }
}

#[derive(Debug, Deserialize)]
struct ListArgs {
    #[serde(default)]
    category: Option<String>,
}

#[async_trait]
impl Tool for SkillsListTool {
    fn name(&self) -> &'static str {
        "skills_list"
    }

    fn toolset(&self) -> &'static str {
        TOOLSET
    }

    fn schema(&self) -> ToolSchema {
        ToolSchema {
            name: self.name().to_string(),
            description: "List the available skills (name, description, category). Skills are reusable, proven \
                procedures; load one with skill_view(name) before doing a task it covers."
                .to_string(),
            parameters: serde_json::json!({
                "type": "object",
                "properties": {
                    "category": {"type": "string", "description": "Only skills in this category (e.g. devops)."}
                }
            }),
        }
    }

    fn concurrency(&self) -> Concurrency {
        Concurrency::ParallelSafe
    }

    fn preview(&self, args: &serde_json::Value) -> String {
        match args::str_field(args, "category") {
            "" => "all".to_string(),
            c => c.to_string(),
        }
    }

    async fn call(&self, args: serde_json::Value, _ctx: &ToolContext) -> ToolOutput {
        let args: ListArgs = match args::parse(self.name(), args) {
            Ok(a) => a,
            Err(e) => return e,
        };
        let loader = Arc::clone(&self.loader);
        blocking(move || {
            let catalog = loader.load();
            let filter = args.category.as_deref().map(str::trim).filter(|c| !c.is_empty());
            let category_of = |s: &crate::skills::Skill| s.category.clone().unwrap_or_else(|| "general".into());
            let all = catalog.list();
            let skills: Vec<_> = all
                .iter()
                .filter(|s| filter.is_none_or(|f| category_of(s) == f))
                .map(|s| serde_json::json!({"name": s.name, "description": s.description, "category": category_of(s)}))
                .collect();
            let mut categories: Vec<String> = all.iter().map(|s| category_of(s)).collect();
            categories.dedup();
            let hint = if skills.is_empty() && filter.is_some() {
                format!("No skills in that category. Categories: {}", categories.join(", "))
            } else {
                "Load a skill's full instructions with skill_view(name).".to_string()
            };
            let body = serde_json::json!({
                "skills": skills,
                "count": skills.len(),
                "categories": categories,
                "hint": hint,
            });
            ToolOutput::ok(serde_json::to_string_pretty(&body).unwrap_or_default())
        })
        .await
    }
}

/// `skill_view(name, file_path?)`: the skill's `SKILL.md`, or one file inside its directory.
pub struct SkillViewTool {
    loader: Arc<SkillLoader>,
}

impl SkillViewTool {
    pub fn new(loader: Arc<SkillLoader>) -> Self {
        Self { loader }
    }
}

#[derive(Debug, Deserialize)]
struct ViewArgs {
    name: String,
    #[serde(default, alias = "path")]
    file_path: Option<String>,
}

#[async_trait]
impl Tool for SkillViewTool {
    fn name(&self) -> &'static str {
        "skill_view"
    }

    fn toolset(&self) -> &'static str {
        TOOLSET
    }

    fn schema(&self) -> ToolSchema {
        ToolSchema {
            name: self.name().to_string(),
            description: "Load a skill: without file_path returns its full SKILL.md (instructions and metadata) and lists \
                its supporting files; with file_path returns that file (e.g. references/api.md, templates/x.yaml), \
                relative to the skill directory. Follow the loaded instructions."
                .to_string(),
            parameters: serde_json::json!({
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "Skill name as listed by skills_list."},
                    "file_path": {"type": "string", "description": "Optional supporting file, relative to the skill directory."}
                },
                "required": ["name"]
            }),
        }
    }

    fn concurrency(&self) -> Concurrency {
        Concurrency::ParallelSafe
    }

    fn preview(&self, args: &serde_json::Value) -> String {
        let name = args::str_field(args, "name");
        match args
            .get("file_path")
            .or_else(|| args.get("path"))
            .and_then(|v| v.as_str())
        {
            Some(p) if !p.is_empty() => format!("{name}/{p}"),
            _ => name.to_string(),
        }
    }

    async fn call(&self, args: serde_json::Value, ctx: &ToolContext) -> ToolOutput {
        let args: ViewArgs = match args::parse(self.name(), args) {
            Ok(a) => a,
            Err(e) => return e,
        };
        let loader = Arc::clone(&self.loader);
        let max_bytes = ctx.limits.max_read_bytes;
        let session = Arc::clone(&ctx.session);
        blocking(move || {
            let catalog = loader.load();
            let Some(skill) = catalog.get(&args.name) else {
                return ToolOutput::error(SkillError::NotFound(args.name).to_string());
            };
            // A loaded skill's declared variables reach `execute_code` scripts, as in Hermes.
            let declared: Vec<String> = skill.meta.required_env.iter().map(|r| r.name.clone()).collect();
            for name in session.pass_env_through(&declared) {
                tracing::warn!(skill = %skill.name, variable = %name, "a skill may not pass a provider credential through to scripts");
            }
            match args.file_path.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
                Some(path) => from_result(view_file(&skill.dir, path, max_bytes).map(|text| {
                    let findings = guard::scan_skill("", "", &text);
                    if findings.is_clean() {
                        text
                    } else {
                        guard::fenced_untrusted(&skill.name, &findings, &text)
                    }
                })),
                None => {
                    let findings =
                        guard::scan_skill(&skill.name, &skill.description, &skill.raw);
                    let mut out = if findings.is_clean() {
                        skill.raw.clone()
                    } else {
                        guard::fenced_untrusted(&skill.name, &findings, &skill.raw)
                    };
                    out.push_str(&format!("\n\n[Skill directory: {}]", skill.dir.display()));
                    let files = skill.supporting_files();
                    if !files.is_empty() {
                        out.push_str(&format!(
                            "\n[Supporting files — load with skill_view(name=\"{}\", file_path=\"<path>\"): {}]",
                            skill.name,
                            files.join(", ")
                        ));
                    }
                    let missing = missing_env(skill, &*loader.env);
                    if !missing.is_empty() {
                        let names: Vec<&str> = missing.iter().map(|r| r.name.as_str()).collect();
                        out.push_str(&format!(
                            "\n[Setup note: required environment variables not set: {}. Explain any reduced functionality; the user can add them to HERMES_HOME/.env.]",
                            names.join(", ")
                        ));
                    }
                    ToolOutput::ok(out)
                }
            }
        })
        .await
    }
}

/// A file inside `dir`, refusing traversal and symlinks that lead outside.
fn view_file(dir: &std::path::Path, path: &str, max_bytes: usize) -> Result<String, SkillError> {
    let rel = manage::checked_relative(path)?;
    let target = dir.join(&rel);
    let (Ok(real), Ok(base)) = (target.canonicalize(), dir.canonicalize()) else {
        return Err(SkillError::InvalidPath(format!(
            "'{path}' does not exist in this skill"
        )));
    };
    if !real.starts_with(&base) {
        return Err(SkillError::InvalidPath(format!(
            "'{path}' resolves outside the skill directory"
        )));
    }
    if !real.is_file() {
        return Err(SkillError::InvalidPath(format!("'{path}' is not a file")));
    }
    let bytes = std::fs::read(&real).map_err(|e| SkillError::io(&real, e))?;
    if output::looks_binary(&bytes) {
        return Err(SkillError::InvalidPath(format!(
            "'{path}' is a binary file ({} bytes); run or open it with the terminal tool instead",
            bytes.len()
        )));
    }
    Ok(output::cap_text(&output::lossy(&bytes), max_bytes))
}

/// `skill_manage(action, name, …)`: the agent's procedural memory.
pub struct SkillManageTool {
    loader: Arc<SkillLoader>,
}

impl SkillManageTool {
    pub fn new(loader: Arc<SkillLoader>) -> Self {
        Self { loader }
    }
}

#[derive(Debug, Deserialize)]
struct ManageArgs {
    action: String,
    name: String,
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    category: Option<String>,
    #[serde(default)]
    old_string: Option<String>,
    #[serde(default)]
    new_string: Option<String>,
    #[serde(default, deserialize_with = "args::lenient_bool")]
    replace_all: bool,
    #[serde(default)]
    file_path: Option<String>,
    #[serde(default)]
    file_content: Option<String>,
}

fn required<'a>(
    value: &'a Option<String>,
    field: &str,
    action: &str,
) -> Result<&'a str, ToolOutput> {
    value
        .as_deref()
        .ok_or_else(|| ToolOutput::error(format!("action '{action}' requires '{field}'")))
}

fn run_manage(loader: &SkillLoader, a: &ManageArgs) -> Result<ToolOutput, ToolOutput> {
    let catalog = loader.load();
    let action = a.action.trim();
    let snapshot = WriteSnapshot::take(&catalog, action, &a.name, a.file_path.as_deref());
    let result = match action {
        "create" => manage::create(
            &catalog,
            &a.name,
            required(&a.content, "content", action)?,
            a.category.as_deref(),
        ),
        "edit" => manage::edit(&catalog, &a.name, required(&a.content, "content", action)?),
        "patch" => manage::patch(
            &catalog,
            &a.name,
            required(&a.old_string, "old_string", action)?,
            required(&a.new_string, "new_string", action)?,
            a.file_path.as_deref(),
            if a.replace_all {
                ReplaceMode::All
            } else {
                ReplaceMode::ExactlyOnce
            },
        ),
        "delete" => manage::delete(&catalog, &a.name),
        "write_file" => manage::write_file(
            &catalog,
            &a.name,
            required(&a.file_path, "file_path", action)?,
            required(&a.file_content, "file_content", action)?,
        ),
        "remove_file" => manage::remove_file(
            &catalog,
            &a.name,
            required(&a.file_path, "file_path", action)?,
        ),
        other => {
            return Err(ToolOutput::error(format!(
                "unknown action '{other}'; use create, patch, edit, delete, write_file or remove_file"
            )));
        }
    };
    let Ok(done) = result else {
        return Ok(from_result(result));
    };
    let written = loader.load();
    let findings = snapshot.scan_written(&written, &a.name);
    if findings.is_clean() {
        return Ok(ToolOutput::ok(done));
    }
    match loader.agent_writes {
        AgentWrites::RefuseFlagged => {
            let undone = match snapshot.restore(&written, &a.name) {
                Ok(()) => "nothing was changed".to_string(),
                Err(e) => format!("undoing the write failed ({e})"),
            };
            Err(ToolOutput::error(format!(
                "Security scan blocked this skill ({}); {undone}. Remove the flagged text and try again.",
                findings.summary()
            )))
        }
        AgentWrites::FlagFlagged => Ok(ToolOutput::ok(format!(
            "{done}\n[Flagged by the injection scanner: {}. A flagged name or description stays out of the \
             system prompt's skill index, and skill_view shows flagged text fenced as untrusted, until the \
             text is fixed. Tell the user; skills.guard_agent_created: true refuses such writes.]",
            findings.summary()
        ))),
    }
}

#[async_trait]
impl Tool for SkillManageTool {
    fn name(&self) -> &'static str {
        "skill_manage"
    }

    fn toolset(&self) -> &'static str {
        TOOLSET
    }

    fn schema(&self) -> ToolSchema {
        ToolSchema {
            name: self.name().to_string(),
            description: "Manage skills, your procedural memory. Create one after a complex task succeeds (5+ tool calls), \
                after finding a working path past errors, when the user corrects your approach, or when you discover a \
                non-trivial workflow. Actions: create (name, content = full SKILL.md with frontmatter name/description, \
                optional category), patch (name, old_string, new_string; preferred for fixes; old_string must match \
                exactly once unless replace_all; optional file_path for a supporting file), edit (name, content = full \
                replacement), delete (name), write_file (name, file_path under references/, templates/, scripts/, \
                examples/ or assets/, file_content), remove_file (name, file_path)."
                .to_string(),
            parameters: serde_json::json!({
                "type": "object",
                "properties": {
                    "action": {"type": "string", "enum": ["create", "patch", "edit", "delete", "write_file", "remove_file"]},
                    "name": {"type": "string", "description": "Skill name (lowercase letters, digits, '-', '.', '_')."},
                    "content": {"type": "string", "description": "Full SKILL.md: '---' frontmatter with name and description, '---', then markdown instructions (create, edit)."},
                    "category": {"type": "string", "description": "Category directory for a new skill (create)."},
                    "old_string": {"type": "string", "description": "Exact text to replace (patch)."},
                    "new_string": {"type": "string", "description": "Replacement text (patch)."},
                    "replace_all": {"type": "boolean", "description": "Replace every occurrence (patch; default false)."},
                    "file_path": {"type": "string", "description": "Supporting file relative to the skill directory (write_file, remove_file, patch)."},
                    "file_content": {"type": "string", "description": "Content of the supporting file (write_file)."}
                },
                "required": ["action", "name"]
            }),
        }
    }

    fn concurrency(&self) -> Concurrency {
        Concurrency::Sequential
    }

    fn preview(&self, args: &serde_json::Value) -> String {
        let action = args::str_field(args, "action");
        let name = args::str_field(args, "name");
        match args::str_field(args, "file_path") {
            "" => format!("{action} {name}"),
            p => format!("{action} {name}/{p}"),
        }
    }

    async fn call(&self, args: serde_json::Value, _ctx: &ToolContext) -> ToolOutput {
        let args: ManageArgs = match args::parse(self.name(), args) {
            Ok(a) => a,
            Err(e) => return e,
        };
        let loader = Arc::clone(&self.loader);
        blocking(move || run_manage(&loader, &args).unwrap_or_else(|e| e)).await
    }
}

#[cfg(test)]
#[path = "skills_tests.rs"]
mod tests;
