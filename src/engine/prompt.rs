//! System prompt assembly.
//!
//! The prompt is built once when a session starts — identity from `HERMES_HOME/SOUL.md` (the
//! default is written there on first run), tool guidance, and the environment — and is then
//! byte-identical for every turn of the session, so provider prompt caches stay warm. Later
//! issues add memory, context files and the skills index here, still frozen at session start.

use std::path::Path;

/// The identity written to `SOUL.md` when it does not exist yet.
pub const DEFAULT_SOUL: &str = include_str!("../../assets/SOUL.md");

/// How the identity was obtained, for a notice when the file could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SoulSource {
    File,
    WroteDefault,
    /// The file could not be read or written; the default is used for this session.
    DefaultAfterError(String),
}

/// Read `SOUL.md`, writing the default first when it is missing. Never fails: on an I/O
/// error the built-in identity is used and the error is reported in the `SoulSource`.
pub fn load_soul(path: &Path) -> (String, SoulSource) {
    match std::fs::read_to_string(path) {
        Ok(text) if !text.trim().is_empty() => (text, SoulSource::File),
        Ok(_) => (DEFAULT_SOUL.to_string(), SoulSource::File),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            let written = path
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|()| std::fs::write(path, DEFAULT_SOUL));
            match written {
                Ok(()) => (DEFAULT_SOUL.to_string(), SoulSource::WroteDefault),
                Err(err) => (
                    DEFAULT_SOUL.to_string(),
                    SoulSource::DefaultAfterError(format!("{}: {err}", path.display())),
                ),
            }
        }
        Err(err) => (
            DEFAULT_SOUL.to_string(),
            SoulSource::DefaultAfterError(format!("{}: {err}", path.display())),
        ),
    }
}

/// One line of the tool guidance: shown when the session has every tool of `needs` and not
/// all of `unless` (the line that covers both says it then), so a toolset switched off takes
/// its instructions with it.
struct Guidance {
    needs: &'static [&'static str],
    unless: &'static [&'static str],
    text: &'static str,
}

const fn line(needs: &'static [&'static str], text: &'static str) -> Guidance {
    Guidance {
        needs,
        unless: &[],
        text,
    }
}

const TOOL_GUIDANCE: &[Guidance] = &[
    line(
        &[],
        "- Use the tools to act; do not describe a command when you can run it.",
    ),
    line(
        &["read_file", "patch"],
        "- Read a file before you patch it. `patch` replaces one exact occurrence; include enough context to make it unique.",
    ),
    line(
        &["search_files", "read_file"],
        "- Prefer `search_files` over shelling out to grep or find, and `read_file` over cat.",
    ),
    line(
        &["terminal", "process"],
        "- Long-running commands: start them with `terminal` and `background=true`, then follow them with `process`.",
    ),
    line(
        &["todo", "clarify"],
        "- Use `todo` to plan and track multi-step work. Use `clarify` only when you truly need the user's decision.",
    ),
    Guidance {
        needs: &["todo"],
        unless: &["todo", "clarify"],
        text: "- Use `todo` to plan and track multi-step work.",
    },
    Guidance {
        needs: &["clarify"],
        unless: &["todo", "clarify"],
        text: "- Use `clarify` only when you truly need the user's decision.",
    },
    line(
        &[],
        "- Tool output may be truncated; page with offsets rather than re-running whole commands.",
    ),
];

/// The `## Using tools` section for the session's tools.
fn tool_guidance(tool_names: &[String]) -> String {
    let has = |names: &[&str]| names.iter().all(|n| tool_names.iter().any(|t| t == n));
    let mut out = String::from("## Using tools");
    for g in TOOL_GUIDANCE {
        if has(g.needs) && (g.unless.is_empty() || !has(g.unless)) {
            out.push('\n');
            out.push_str(g.text);
        }
    }
    out
}

pub struct PromptEnvironment<'a> {
    pub cwd: &'a Path,
    pub tool_names: &'a [String],
    /// Frozen-at-session-start sections (memory, project context, skills index), in order;
    /// empty ones are skipped.
    pub sections: &'a [String],
    /// Session start, as `YYYY-MM-DD HH:MM UTC`.
    pub started_at: &'a str,
}

pub fn build_system_prompt(soul: &str, env: &PromptEnvironment<'_>) -> String {
    let mut prompt = soul.trim_end().to_string();
    if !env.tool_names.is_empty() {
        prompt.push_str("\n\n");
        prompt.push_str(&tool_guidance(env.tool_names));
        prompt.push_str("\nAvailable tools: ");
        prompt.push_str(&env.tool_names.join(", "));
        prompt.push('.');
    }
    for section in env.sections.iter().filter(|s| !s.trim().is_empty()) {
        prompt.push_str("\n\n");
        prompt.push_str(section.trim_end());
    }
    prompt.push_str(&format!(
        "\n\n## Environment\n- Working directory: {}\n- Platform: {} ({})\n- Session started: {}\n",
        env.cwd.display(),
        std::env::consts::OS,
        std::env::consts::ARCH,
        env.started_at
    ));
    prompt
}

/// Format a UNIX timestamp as `YYYY-MM-DD HH:MM UTC`.
pub fn format_utc(unix_secs: u64) -> String {
    let secs = i64::try_from(unix_secs).unwrap_or(i64::MAX / 2);
    format!("{} UTC", crate::util::time::format_minutes(secs))
}

#[cfg(test)]
#[path = "prompt_tests.rs"]
mod tests;
