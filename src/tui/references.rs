//! Context references in the composer: `@path/to/file`, `@folder/`, `@"path with spaces"` and
//! `@diff` (Hermes's `@file:…` / `@folder:…` spellings work too). `find_references` locates
//! them; `expand_references` attaches what they name to the message before it is sent.
//!
//! The message text stays as typed (the `@token` is the reference, as in Hermes) and each
//! attachment is appended after a blank line as a block headed
//! `--- @src/main.rs (N lines) ---`, `--- @src/ (folder, N entries) ---` or
//! `--- @diff: git diff (N lines) ---`. What could not be attached (no such path, a binary
//! file, not a git repository, a cap reached) becomes a short note for the user, and the token
//! is left as typed.
//!
//! Caps: each attachment at `FILE_CAP` bytes, all of them together at `TOTAL_CAP`; a cut block
//! ends with a `[… truncated …]` line so the model knows. Folders list at most `FOLDER_ENTRIES`
//! entries `FOLDER_DEPTH` levels deep, skipping hidden and git-ignored files.
//!
//! `expand_references` and `list_paths` block on the disk and on `git`: call them off the UI
//! task (`spawn_blocking`). Nothing here touches the terminal.

mod files;
mod git;
mod parse;
mod walk;

use std::collections::HashSet;
use std::ops::Range;
use std::path::Path;

pub use walk::list_paths;

/// Most bytes attached from one file (or one part of `@diff`).
pub const FILE_CAP: usize = 50 * 1024;
/// Most bytes attached to one message in all.
pub const TOTAL_CAP: usize = 200 * 1024;
/// Folder listings go this many levels below the folder.
pub const FOLDER_DEPTH: usize = 2;
/// Folder listings stop after this many entries.
pub const FOLDER_ENTRIES: usize = 200;
/// Below this much room left in `TOTAL_CAP`, a further attachment is dropped, not cut.
const MIN_USEFUL_BLOCK: usize = 1024;

/// One `@` reference in a draft.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// The token as typed, e.g. `@src/main.rs` or `@"my file.txt"`.
    pub raw: String,
    pub target: ReferenceTarget,
    /// Byte range of `raw` in the text searched.
    pub range: Range<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReferenceTarget {
    /// A file or folder, as typed (unquoted, `~` not yet expanded).
    Path(String),
    /// `@diff`: unstaged and staged changes.
    Diff,
}

/// A message with its references attached.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Expanded {
    /// What to send: the text as typed plus the attached blocks.
    pub text: String,
    /// For the user: what was not attached, or attached only in part.
    pub notes: Vec<String>,
}

/// Why a reference was not (fully) attached; its `Display` is the note's wording.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReferenceError {
    #[error("no file at {0}")]
    Missing(String),
    #[error("not a regular file, not attached")]
    NotAFile,
    #[error("refused: credential files are never attached")]
    Sensitive,
    #[error("binary file ({}), not attached", files::human_size(*size))]
    Binary { size: u64 },
    #[error("could not read it: {0}")]
    Read(String),
    #[error("not a git repository")]
    NotARepo,
    #[error("git is not installed")]
    GitMissing,
    #[error("git took longer than {} s and was stopped", git::GIT_TIMEOUT.as_secs())]
    GitTimeout,
    #[error("git failed: {0}")]
    Git(String),
}

/// The `@` references in `text`, in order. Emails (`a@b.com`) and anything inside inline code
/// or fenced code blocks are not references.
pub fn find_references(text: &str) -> Vec<Reference> {
    parse::find(text)
}

/// `text` with what its references name appended (see the module docs for the format), plus
/// notes for the user. Paths resolve against `cwd`. Blocking: disk reads and `git`.
pub fn expand_references(text: &str, cwd: &Path) -> Expanded {
    let mut out = Attachments::default();
    let mut seen = HashSet::new();
    for reference in find_references(text) {
        let key = match &reference.target {
            ReferenceTarget::Path(p) => Some(files::resolve(p, cwd)),
            ReferenceTarget::Diff => None,
        };
        if !seen.insert(key.clone()) {
            continue;
        }
        if let Err(err) = attach(&reference, cwd, &mut out) {
            out.notes.push(format!("{}: {err}", reference.raw));
        }
    }
    let mut message = text.to_owned();
    for block in &out.blocks {
        message.push_str("\n\n");
        message.push_str(block);
    }
    Expanded {
        text: message,
        notes: out.notes,
    }
}

#[derive(Default)]
struct Attachments {
    blocks: Vec<String>,
    notes: Vec<String>,
    /// Body bytes attached so far, against `TOTAL_CAP`.
    used: usize,
}

impl Attachments {
    /// Adds a block, cutting its body to what is left of `TOTAL_CAP`. `cut` says whether the
    /// body is already a cut of something bigger, and of what size.
    fn push(&mut self, raw: &str, header: &str, body: &str, cut: Option<u64>) {
        let room = TOTAL_CAP.saturating_sub(self.used);
        if room < MIN_USEFUL_BLOCK.min(body.len().max(1)) {
            self.notes.push(format!(
                "{raw}: not attached, the {} limit for one message's attachments was reached",
                files::human_size(TOTAL_CAP as u64)
            ));
            return;
        }
        let kept = files::cut_at_line(body, room);
        let whole = cut.unwrap_or(body.len() as u64);
        let mut block = format!("--- {header} ---\n{}", kept.trim_end_matches('\n'));
        if kept.len() < body.len() || cut.is_some() {
            let shown = files::human_size(kept.len() as u64);
            let whole = files::human_size(whole);
            block.push_str(&format!("\n[… truncated: first {shown} of {whole} shown]"));
            self.notes
                .push(format!("{raw}: truncated to the first {shown} of {whole}"));
        }
        self.used += kept.len();
        self.blocks.push(block);
    }
}

fn attach(reference: &Reference, cwd: &Path, out: &mut Attachments) -> Result<(), ReferenceError> {
    let raw = reference.raw.as_str();
    let target = match &reference.target {
        ReferenceTarget::Diff => return attach_diff(raw, cwd, out),
        ReferenceTarget::Path(target) => target,
    };
    let path = files::resolve(target, cwd);
    if !path.exists() {
        return Err(ReferenceError::Missing(target.clone()));
    }
    files::check_allowed(&path)?;
    if path.is_dir() {
        let label = format!("{}/", target.trim_end_matches('/'));
        let (listing, count) = walk::folder_listing(&path, &label);
        let noun = if count == 1 { "entry" } else { "entries" };
        out.push(
            raw,
            &format!("{raw} (folder, {count} {noun})"),
            &listing,
            None,
        );
        return Ok(());
    }
    if !path.is_file() {
        // A FIFO or device would block the read (or never end).
        return Err(ReferenceError::NotAFile);
    }
    let file = files::read_text(&path)?;
    let lines = match (file.lines_exact, file.lines) {
        (true, 1) => "1 line".to_owned(),
        (true, n) => format!("{n} lines"),
        (false, n) => format!("over {n} lines"),
    };
    let cut = file.truncated.then_some(file.size);
    out.push(raw, &format!("{raw} ({lines})"), &file.text, cut);
    Ok(())
}

fn attach_diff(raw: &str, cwd: &Path, out: &mut Attachments) -> Result<(), ReferenceError> {
    let parts = git::diff(cwd, FILE_CAP)?;
    if parts.is_empty() {
        out.notes.push(format!(
            "{raw}: no changes (git diff and git diff --cached are empty)"
        ));
    }
    for part in parts {
        let output = &part.output;
        let lines = output.text.lines().count();
        let cut = (output.text.len() as u64) < output.size;
        let more = if cut { "over " } else { "" };
        let header = format!("{raw}: {} ({more}{lines} lines)", part.command);
        out.push(raw, &header, &output.text, cut.then_some(output.size));
    }
    Ok(())
}

#[cfg(test)]
#[path = "references_tests.rs"]
mod tests;
