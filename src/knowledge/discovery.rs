//! Progressive subdirectory discovery (spec-002d §A.5): after a tool call touches paths, the
//! context files (`AGENTS.md`, `CLAUDE.md`, `.cursorrules`, first match per directory) of
//! project subdirectories not seen yet this session are returned, to be appended to that
//! tool's result — never to the system prompt, which stays byte-identical.
//!
//! For each touched path the directory holding it and up to 5 parents are checked, stopping
//! at the project root (whose files the system prompt already has). Each directory is checked at most once per session; the same content reached twice
//! (copies, symlinks) is sent once. Files are injection-scanned (a flagged file becomes the
//! `[BLOCKED: …]` line) and truncated with the same marker as startup files.
//!
//! Invariants: one append is at most [`MAX_APPEND_CHARS`] characters in total — a directory
//! that does not fit is left unseen and comes with a later call; nothing outside the project
//! root is read (hint files are canonicalized, so a symlink pointing out is ignored); copies
//! in dependency/build directories (`node_modules`, `target`, …) are skipped; a home
//! directory is not a project, so discovery is off there.

use std::collections::HashSet;
use std::hash::Hash;
use std::hash::Hasher;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Mutex;

use crate::knowledge::context_files::prepare_file;
use crate::util::paths::resolve_path;

/// Hint files, in priority order (first match wins per directory).
pub const HINT_FILE_NAMES: [&str; 3] = ["AGENTS.md", "CLAUDE.md", ".cursorrules"];
/// Largest text appended to one tool result (all discovered files together).
pub const MAX_APPEND_CHARS: usize = 8_000;
/// Parents checked above the directory of a touched path.
pub const MAX_PARENT_LEVELS: usize = 5;
/// A file is not squeezed into less room than this; it waits for the next call instead.
const MIN_BODY_CHARS: usize = 1_000;

/// Directory names whose contents are copies (dependencies, builds, caches), never sources
/// of project context.
const EXCLUDED_DIRS: [&str; 13] = [
    ".git",
    "node_modules",
    "target",
    ".venv",
    "venv",
    "__pycache__",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    "site-packages",
    "vendor",
    "dist",
    ".next",
];

/// Per-session discovery state. Cheap to share behind an `Arc`; tools may call it
/// concurrently.
#[derive(Debug)]
pub struct SubdirContext {
    root: PathBuf,
    enabled: bool,
    state: Mutex<Seen>,
}

#[derive(Debug, Default)]
struct Seen {
    dirs: HashSet<PathBuf>,
    digests: HashSet<u64>,
}

impl SubdirContext {
    /// Discovery below `project_root` (the session's working directory). The root itself
    /// counts as seen, as does the content of its own hint file.
    pub fn new(project_root: PathBuf) -> Self {
        let root = std::fs::canonicalize(&project_root).unwrap_or(project_root);
        let enabled = !is_home_like(&root);
        let mut seen = Seen::default();
        if let Some((_, content)) = first_hint_file(&root, &root) {
            seen.digests.insert(digest(&content));
        }
        seen.dirs.insert(root.clone());
        Self {
            root,
            enabled,
            state: Mutex::new(seen),
        }
    }

    pub fn project_root(&self) -> &Path {
        &self.root
    }

    /// Text to append to a tool result (after a blank line) for the context files of newly
    /// reached subdirectories, or `None`.
    pub fn discover_for_paths(&self, paths: &[PathBuf]) -> Option<String> {
        if !self.enabled {
            return None;
        }
        let mut seen = self
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut blocks: Vec<String> = Vec::new();
        let mut used = 0usize;
        for dir in self.candidates(paths, &seen) {
            let Some((file, content)) = first_hint_file(&dir, &self.root) else {
                seen.dirs.insert(dir);
                continue;
            };
            let hash = digest(&content);
            if seen.digests.contains(&hash) {
                seen.dirs.insert(dir);
                continue;
            }
            let rel = file
                .strip_prefix(&self.root)
                .unwrap_or(&file)
                .display()
                .to_string();
            let header = format!("[Subdirectory context discovered: {rel}]\n");
            let separator = if blocks.is_empty() { 0 } else { 2 };
            let room = MAX_APPEND_CHARS.saturating_sub(used + separator + header.chars().count());
            if room < MIN_BODY_CHARS {
                break;
            }
            let body = prepare_file(&content, &rel, room).text;
            let block = format!("{header}{body}");
            used += separator + block.chars().count();
            blocks.push(block);
            seen.dirs.insert(dir);
            seen.digests.insert(hash);
        }
        (!blocks.is_empty()).then(|| blocks.join("\n\n"))
    }

    /// Extract the paths of a tool call and discover for them.
    pub fn discover_for_call(
        &self,
        tool_name: &str,
        args: &serde_json::Value,
        cwd: &Path,
    ) -> Option<String> {
        self.discover_for_paths(&paths_touched(tool_name, args, cwd))
    }

    /// Unseen project subdirectories to check for `paths`, shallow before deep, no repeats.
    fn candidates(&self, paths: &[PathBuf], seen: &Seen) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        for path in paths {
            let Some(start) = start_dir(path) else {
                continue;
            };
            let mut chain = Vec::new();
            for dir in start.ancestors().take(MAX_PARENT_LEVELS + 1) {
                if !dir.starts_with(&self.root) || dir == self.root {
                    break;
                }
                // A seen directory is skipped, not a stop: an earlier walk may have ended
                // below this path's farther ancestors.
                if !seen.dirs.contains(dir) && !self.is_excluded(dir) {
                    chain.push(dir.to_path_buf());
                }
            }
            for dir in chain.into_iter().rev() {
                if !out.contains(&dir) {
                    out.push(dir);
                }
            }
        }
        out
    }

    fn is_excluded(&self, dir: &Path) -> bool {
        dir.strip_prefix(&self.root).is_ok_and(|rel| {
            rel.components()
                .any(|c| EXCLUDED_DIRS.iter().any(|x| c.as_os_str() == *x))
        })
    }
}

/// The canonical directory a touched path stands for: itself when it is a directory, else
/// its parent; for a path that does not exist (yet), its nearest existing ancestor.
fn start_dir(path: &Path) -> Option<PathBuf> {
    let existing = path.ancestors().find(|p| p.exists())?;
    let dir = if existing.is_dir() {
        existing
    } else {
        existing.parent()?
    };
    std::fs::canonicalize(dir).ok()
}

/// The first non-empty hint file of `dir` whose real location is inside `root`.
fn first_hint_file(dir: &Path, root: &Path) -> Option<(PathBuf, String)> {
    for name in HINT_FILE_NAMES {
        let candidate = dir.join(name);
        if !candidate.is_file() {
            continue;
        }
        let Ok(real) = std::fs::canonicalize(&candidate) else {
            continue;
        };
        if !real.starts_with(root) {
            continue;
        }
        let Ok(bytes) = std::fs::read(&real) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let text = text.trim_start_matches('\u{FEFF}').trim();
        if !text.is_empty() {
            return Some((candidate, text.to_string()));
        }
    }
    None
}

fn digest(content: &str) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    content.hash(&mut hasher);
    hasher.finish()
}

fn is_home_like(root: &Path) -> bool {
    root.parent().is_none()
        || dirs::home_dir()
            .and_then(|h| std::fs::canonicalize(h).ok())
            .is_some_and(|home| home == root)
}

/// Argument keys that hold a path in the core tools (`read_file`, `write_file`, `patch`,
/// `search_files`: `path`; `terminal`: `workdir`).
const PATH_KEYS: [&str; 3] = ["path", "file_path", "workdir"];

/// The paths a tool call touches, resolved against `cwd` (`~` expanded): its path-like
/// arguments and, for `terminal`, the `cd`/`pushd` targets and path-looking words of the
/// command (relative to its `workdir`).
pub fn paths_touched(tool_name: &str, args: &serde_json::Value, cwd: &Path) -> Vec<PathBuf> {
    let field = |key: &str| {
        args.get(key)
            .and_then(|v| v.as_str())
            .map(str::trim)
            .filter(|s| !s.is_empty())
    };
    let mut out: Vec<PathBuf> = Vec::new();
    let mut push = |p: PathBuf| {
        if !out.contains(&p) {
            out.push(p);
        }
    };
    for key in PATH_KEYS {
        if let Some(value) = field(key) {
            push(resolve_path(cwd, value));
        }
    }
    if tool_name == "terminal" {
        let base = field("workdir").map_or_else(|| cwd.to_path_buf(), |w| resolve_path(cwd, w));
        if let Some(command) = field("command") {
            for word in command_paths(command) {
                push(resolve_path(&base, &word));
            }
        }
    }
    out
}

/// Path-like words of a shell command: operands of `cd`/`pushd` at the start of a segment,
/// and words containing `/` or `.` that are not flags or URLs.
fn command_paths(command: &str) -> Vec<String> {
    let tokens = shell_words(command);
    let mut out = Vec::new();
    let mut segment_start = true;
    let mut iter = tokens.iter().peekable();
    while let Some(token) = iter.next() {
        let Token::Word(word) = token else {
            segment_start = true;
            continue;
        };
        if segment_start && (word == "cd" || word == "pushd") {
            if let Some(Token::Word(target)) = iter.peek()
                && !target.starts_with('-')
            {
                out.push(target.clone());
            }
        } else if looks_like_path(word) {
            out.push(word.clone());
        }
        segment_start = false;
    }
    out
}

fn looks_like_path(word: &str) -> bool {
    !word.is_empty()
        && !word.starts_with('-')
        && !word.contains("://")
        && !word.starts_with("git@")
        && !word.contains('=')
        && (word.contains('/') || word.contains('.'))
}

#[derive(Debug, PartialEq, Eq)]
enum Token {
    Word(String),
    Operator,
}

/// A small shell lexer: quotes and backslashes, and `; & | ( )` (alone or doubled) as
/// operators. Redirections stay attached to their words and are filtered as non-paths
/// only when they start with `-`; good enough for finding directories.
fn shell_words(command: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = command.chars().peekable();
    let flush = |word: &mut String, in_word: &mut bool, tokens: &mut Vec<Token>| {
        if *in_word {
            tokens.push(Token::Word(std::mem::take(word)));
            *in_word = false;
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    word.push(q);
                }
            }
            '"' => {
                in_word = true;
                while let Some(q) = chars.next() {
                    match q {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        other => word.push(other),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.extend(chars.next());
            }
            ';' | '&' | '|' | '(' | ')' => {
                flush(&mut word, &mut in_word, &mut tokens);
                tokens.push(Token::Operator);
            }
            c if c.is_whitespace() => flush(&mut word, &mut in_word, &mut tokens),
            other => {
                in_word = true;
                word.push(other);
            }
        }
    }
    flush(&mut word, &mut in_word, &mut tokens);
    tokens
}

#[cfg(test)]
#[path = "discovery_tests.rs"]
mod tests;
