//! Project context files for the system prompt (spec-002d §A): one project-context type per
//! session, first match wins — `.hermes.md` / `HERMES.md` (walking up from the working
//! directory to the git root), then `AGENTS.md`, then `CLAUDE.md` (working directory only),
//! then `.cursorrules` with `.cursor/rules/*.mdc` (working directory only).
//!
//! Each file is read as UTF-8, scanned for prompt injection (a flagged file is replaced as a
//! whole by the `[BLOCKED: …]` line), then cut to 20,000 characters (70 % head, 20 % tail,
//! the `[...truncated …]` marker between), and rendered as `## <name>` sections under
//! `# Project Context`.
//!
//! What it does not do: `SOUL.md` is never looked for here (only `HERMES_HOME/SOUL.md`, loaded
//! by the engine, which may reuse [`prepare_file`]); subdirectory files are `discovery`'s job.
//! Invariants: missing, unreadable and empty files are skipped (the next candidate is tried);
//! nothing unscanned reaches `ProjectContext::text`; loading never fails.

use std::path::Path;
use std::path::PathBuf;

use crate::knowledge::injection;
use crate::knowledge::injection::Finding;
use crate::knowledge::injection::ScanScope;

/// Largest context file kept whole in the system prompt.
pub const CONTEXT_FILE_MAX_CHARS: usize = 20_000;

/// The heading of the system-prompt section.
pub const PROJECT_CONTEXT_HEADER: &str = "# Project Context\n\nThe following project context files have been loaded and should be followed:";

const HERMES_MD_NAMES: [&str; 2] = [".hermes.md", "HERMES.md"];

/// The project context chosen for a session.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProjectContext {
    /// The file that won (for Cursor rules: `.cursorrules`, else the first `.mdc`).
    pub source: Option<PathBuf>,
    /// The `## <name>` sections, scanned and truncated, joined by blank lines; "" when no
    /// project context file was found.
    pub text: String,
    /// What the user should know: truncations, blocked files, unreadable files.
    pub notes: Vec<String>,
}

/// A file's text made safe for a prompt: scanned, maybe blocked, maybe truncated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreparedFile {
    pub text: String,
    pub blocked: bool,
    pub truncated: bool,
}

/// Find and prepare the project context for a session started in `cwd`.
pub fn load_project_context(cwd: &Path) -> ProjectContext {
    let mut notes = Vec::new();
    let hermes_md = find_hermes_md(cwd);
    if let Some(ctx) = hermes_md.and_then(|p| single_file(&p, strip_frontmatter, &mut notes)) {
        return with_notes(ctx, notes);
    }
    for name in ["AGENTS.md", "CLAUDE.md"] {
        if let Some(ctx) = single_file(&cwd.join(name), |t| t, &mut notes) {
            return with_notes(ctx, notes);
        }
    }
    let ctx = cursor_rules(cwd, &mut notes).unwrap_or_default();
    with_notes(ctx, notes)
}

/// The system-prompt section: the header and the file sections, or "" when there are none.
pub fn render_for_prompt(ctx: &ProjectContext) -> String {
    if ctx.text.is_empty() {
        return String::new();
    }
    format!("{PROJECT_CONTEXT_HEADER}\n\n{}", ctx.text)
}

/// Scan then truncate `content` for inclusion under `label` (the file name shown to the
/// model). A leading BOM is dropped. Used for project files, `SOUL.md` and subdirectory hints.
pub fn prepare_file(content: &str, label: &str, max_chars: usize) -> PreparedFile {
    let content = content.strip_prefix('\u{FEFF}').unwrap_or(content);
    let findings = injection::scan_all(content, ScanScope::Context);
    if !findings.is_empty() {
        return PreparedFile {
            text: blocked_line(label, &findings),
            blocked: true,
            truncated: false,
        };
    }
    let text = truncate_with_marker(content, label, max_chars);
    PreparedFile {
        truncated: text != content,
        text,
        blocked: false,
    }
}

/// `[BLOCKED: AGENTS.md contained potential prompt injection (prompt_injection). Content not loaded.]`
pub fn blocked_line(label: &str, findings: &[Finding]) -> String {
    let ids: Vec<String> = findings.iter().map(|f| f.kind.id()).collect();
    format!(
        "[BLOCKED: {label} contained potential prompt injection ({}). Content not loaded.]",
        ids.join(", ")
    )
}

/// The truncation marker: `[...truncated AGENTS.md: kept 14000+4000 of 25000 chars. Use file
/// tools to read the full file.]`.
pub fn truncation_marker(label: &str, head: usize, tail: usize, total: usize) -> String {
    format!(
        "[...truncated {label}: kept {head}+{tail} of {total} chars. Use file tools to read the full file.]"
    )
}

/// `content` unchanged when it has at most `max_chars` characters; otherwise 70 % of the
/// limit from the head and 20 % from the tail around the marker (blank lines on both sides).
/// The result never exceeds `max_chars`: when the marker does not fit in the remaining 10 %
/// (tiny limits), head and tail shrink in the same 7:2 proportion.
pub fn truncate_with_marker(content: &str, label: &str, max_chars: usize) -> String {
    let total = content.chars().count();
    if total <= max_chars {
        return content.to_string();
    }
    let mut head = max_chars * 7 / 10;
    let mut tail = max_chars * 2 / 10;
    let overhead = truncation_marker(label, head, tail, total).chars().count() + 4;
    if head + tail + overhead > max_chars {
        // Recompute with the smaller numbers; the marker can only get shorter.
        let room = max_chars.saturating_sub(overhead);
        head = room * 7 / 9;
        tail = room - head;
    }
    let marker = truncation_marker(label, head, tail, total);
    let head_text: String = content.chars().take(head).collect();
    let tail_text: String = content.chars().skip(total - tail).collect();
    format!("{head_text}\n\n{marker}\n\n{tail_text}")
}

/// The nearest directory at or above `start` that contains `.git`.
pub fn git_root(start: &Path) -> Option<PathBuf> {
    let start = std::fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
    start
        .ancestors()
        .find(|dir| dir.join(".git").exists())
        .map(Path::to_path_buf)
}

/// `.hermes.md` / `HERMES.md` in `cwd`, or in a parent up to and including the git root
/// (only `cwd` when it is not inside a git repository).
fn find_hermes_md(cwd: &Path) -> Option<PathBuf> {
    let cwd = std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf());
    let stop = git_root(&cwd);
    for dir in cwd.ancestors() {
        for name in HERMES_MD_NAMES {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
        if stop.as_deref().is_none_or(|root| root == dir) {
            break;
        }
    }
    None
}

/// One file as the whole project context, or `None` when missing, empty or unreadable.
fn single_file(
    path: &Path,
    transform: fn(&str) -> &str,
    notes: &mut Vec<String>,
) -> Option<ProjectContext> {
    let label = file_label(path);
    let raw = read_candidate(path, notes)?;
    let section = section(&label, transform(&raw), notes);
    Some(ProjectContext {
        source: Some(path.to_path_buf()),
        text: section,
        notes: Vec::new(),
    })
}

/// `.cursorrules` and `.cursor/rules/*.mdc` (sorted) from `cwd`, each its own section.
fn cursor_rules(cwd: &Path, notes: &mut Vec<String>) -> Option<ProjectContext> {
    let mut files: Vec<(String, PathBuf)> =
        vec![(".cursorrules".to_string(), cwd.join(".cursorrules"))];
    let rules_dir = cwd.join(".cursor").join("rules");
    if let Ok(read) = std::fs::read_dir(&rules_dir) {
        let mut mdc: Vec<PathBuf> = read
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "mdc") && p.is_file())
            .collect();
        mdc.sort();
        for path in mdc {
            files.push((format!(".cursor/rules/{}", file_label(&path)), path));
        }
    }
    let mut source = None;
    let mut sections = Vec::new();
    for (label, path) in files {
        let Some(raw) = read_candidate(&path, notes) else {
            continue;
        };
        source.get_or_insert(path);
        sections.push(section(&label, &raw, notes));
    }
    (!sections.is_empty()).then(|| ProjectContext {
        source,
        text: sections.join("\n\n"),
        notes: Vec::new(),
    })
}

fn section(label: &str, raw: &str, notes: &mut Vec<String>) -> String {
    let prepared = prepare_file(raw, label, CONTEXT_FILE_MAX_CHARS);
    if prepared.blocked {
        notes.push(format!(
            "{label} was not loaded: it looks like a prompt injection. {}",
            prepared.text
        ));
    } else if prepared.truncated {
        notes.push(format!(
            "{label} has {} characters; only the first and last part ({} max) are in the prompt.",
            raw.chars().count(),
            CONTEXT_FILE_MAX_CHARS
        ));
    }
    format!("## {label}\n\n{}", prepared.text)
}

/// The file's text with surrounding whitespace trimmed, or `None` (missing, empty,
/// unreadable — the last noted).
fn read_candidate(path: &Path, notes: &mut Vec<String>) -> Option<String> {
    if !path.is_file() {
        return None;
    }
    match std::fs::read(path) {
        Ok(bytes) => {
            let text = match String::from_utf8(bytes) {
                Ok(text) => text,
                Err(err) => {
                    notes.push(format!(
                        "{} is not valid UTF-8; invalid bytes were replaced.",
                        path.display()
                    ));
                    String::from_utf8_lossy(err.as_bytes()).into_owned()
                }
            };
            let trimmed = text.trim();
            (!trimmed.is_empty()).then(|| trimmed.to_string())
        }
        Err(err) => {
            notes.push(format!("Could not read {}: {err}", path.display()));
            None
        }
    }
}

/// Drop a leading `---` YAML front-matter block (`.hermes.md` may carry settings there).
fn strip_frontmatter(text: &str) -> &str {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let Some(rest) = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
    else {
        return text;
    };
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        offset += line.len();
        if line.trim_end() == "---" {
            let body = rest[offset..].trim_start_matches(['\r', '\n']);
            return if body.trim().is_empty() { text } else { body };
        }
    }
    text
}

fn file_label(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

fn with_notes(mut ctx: ProjectContext, notes: Vec<String>) -> ProjectContext {
    ctx.notes = notes;
    ctx
}

#[cfg(test)]
#[path = "context_files_tests.rs"]
mod tests;
