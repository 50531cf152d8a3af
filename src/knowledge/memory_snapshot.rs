//! The frozen memory snapshot (spec-002a §4.2): both memory files read once at session start
//! and rendered into the system prompt as
//!
//! ```text
//! ══════════════════════════════════════════════
//! MEMORY (your personal notes) [67% — 1,474/2,200 chars]
//! ══════════════════════════════════════════════
//! entry
//! §
//! entry
//! ```
//!
//! (`USER PROFILE (who the user is)` for `USER.md`); a store switched off in `memory:` is not
//! read and renders as "". What it does not do: it never changes
//! after loading — writes made by the `memory` tool reach disk at once and this block at the
//! next session, so the prompt prefix stays cacheable. Invariants: entries failing the strict
//! injection scan are replaced by a `[BLOCKED: …]` placeholder here (the file keeps them so
//! the user can see and remove them); a hand-grown file is capped head + tail; an unreadable
//! file counts as empty; nothing at all renders as "".

use std::path::Path;

use crate::knowledge::injection;
use crate::knowledge::injection::ScanScope;
use crate::knowledge::memory_settings::MemorySettings;
use crate::knowledge::memory_store::MemoryLimits;
use crate::knowledge::memory_store::MemoryTarget;
use crate::knowledge::memory_store::percent;
use crate::knowledge::memory_store::read_entries;
use crate::knowledge::memory_store::serialize;
use crate::knowledge::memory_store::thousands;

/// The rule above and below a block header: 46 `═`.
pub const RULE: &str = "══════════════════════════════════════════════";

/// The memory blocks of the system prompt, captured once at session start.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemorySnapshot {
    memory: String,
    user: String,
}

impl MemorySnapshot {
    /// Read both files with the default limits. Never fails: unreadable files count as empty.
    pub fn load(memories_dir: &Path) -> MemorySnapshot {
        Self::load_with_limits(memories_dir, MemoryLimits::default())
    }

    pub fn load_with_limits(memories_dir: &Path, limits: MemoryLimits) -> MemorySnapshot {
        Self::load_with(
            memories_dir,
            &MemorySettings {
                limits,
                ..MemorySettings::default()
            },
        )
    }

    /// Read the stores `settings` enables, with its limits.
    pub fn load_with(memories_dir: &Path, settings: &MemorySettings) -> MemorySnapshot {
        let limits = settings.limits;
        let block = |target: MemoryTarget| {
            if !settings.enabled(target) {
                return String::new();
            }
            let entries = read_entries(&memories_dir.join(target.file_name())).unwrap_or_default();
            render_block(
                target,
                &sanitize(target, entries),
                limits.for_target(target),
            )
        };
        MemorySnapshot {
            memory: block(MemoryTarget::Memory),
            user: block(MemoryTarget::User),
        }
    }

    /// The `MEMORY (your personal notes)` block, or "" when there were no entries.
    pub fn memory_block(&self) -> &str {
        &self.memory
    }

    /// The `USER PROFILE` block, or "" when there were no entries.
    pub fn user_block(&self) -> &str {
        &self.user
    }

    pub fn is_empty(&self) -> bool {
        self.memory.is_empty() && self.user.is_empty()
    }

    /// Both blocks separated by a blank line; "" when there is nothing to show.
    pub fn render_for_prompt(&self) -> String {
        [self.memory.as_str(), self.user.as_str()]
            .into_iter()
            .filter(|b| !b.is_empty())
            .collect::<Vec<_>>()
            .join("\n\n")
    }
}

/// Entries that fail the strict scan are replaced by a placeholder (the file keeps them so
/// the user can see and remove them).
fn sanitize(target: MemoryTarget, entries: Vec<String>) -> Vec<String> {
    entries
        .into_iter()
        .map(|entry| {
            let findings = injection::scan_all(&entry, ScanScope::Strict);
            if findings.is_empty() {
                return entry;
            }
            let ids: Vec<String> = findings.iter().map(|f| f.kind.id()).collect();
            format!(
                "[BLOCKED: {} entry contained threat pattern(s): {}. Removed from system prompt; use memory(action=remove) to delete the original.]",
                target.file_name(),
                ids.join(", ")
            )
        })
        .collect()
}

fn render_block(target: MemoryTarget, entries: &[String], limit: usize) -> String {
    if entries.is_empty() {
        return String::new();
    }
    let mut content = serialize(entries);
    let current = content.chars().count();
    // A file grown past its budget by hand must not blow up every prompt: keep head + tail.
    let cap = (limit * 2).max(4_000);
    if current > cap {
        let head: String = content.chars().take(cap * 7 / 10).collect();
        let tail: String = content.chars().skip(current - cap * 2 / 10).collect();
        let omitted = current - head.chars().count() - tail.chars().count();
        content = format!(
            "{head}\n\n[... {} chars truncated — memory over budget ({}/{}); consolidate via memory(action=remove/replace) ...]\n\n{tail}",
            thousands(omitted),
            thousands(current),
            thousands(limit)
        );
    }
    let over = if current > limit {
        " ⚠ OVER BUDGET"
    } else {
        ""
    };
    let title = match target {
        MemoryTarget::Memory => "MEMORY (your personal notes)",
        MemoryTarget::User => "USER PROFILE (who the user is)",
    };
    format!(
        "{RULE}\n{title} [{}% — {}/{} chars{over}]\n{RULE}\n{content}",
        percent(current, limit),
        thousands(current),
        thousands(limit)
    )
}

#[cfg(test)]
#[path = "memory_snapshot_tests.rs"]
mod tests;
