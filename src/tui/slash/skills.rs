//! Skills as slash commands: the engine announces them at runtime (`SessionInfo`), so they are
//! not in `COMMANDS`. This module cleans the announced list up for completion
//! (`skill_commands`) and writes the "Skills" section of `/help` (`help_text_with`).
//!
//! Invariant: a skill never shadows a built-in; one named like a built-in name or alias is
//! dropped here and skipped by completion.

use super::find;
use super::help_text;

/// A command announced by the engine at runtime (a skill), not in `COMMANDS`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillCommand {
    /// Name without the leading `/`, lowercase after `skill_commands`.
    pub name: String,
    pub description: String,
}

/// How `/help` says skills are run: free-form instructions may follow the name.
pub const SKILL_USAGE_HINT: &str = "Run a skill with /name [instructions]";

/// Cleans up the engine's skill list for completion and `/help`: names lose a leading `/` and
/// are lowercased; empty names, names with whitespace or `/`, names that are a built-in name or
/// alias (no shadowing) and repeats are dropped. Sorted by name.
pub fn skill_commands(commands: Vec<SkillCommand>) -> Vec<SkillCommand> {
    let mut out: Vec<SkillCommand> = Vec::with_capacity(commands.len());
    for command in commands {
        let name = command.name.trim();
        let name = name.strip_prefix('/').unwrap_or(name).to_lowercase();
        let valid = !name.is_empty() && !name.contains(|c: char| c.is_whitespace() || c == '/');
        if !valid || find(&name).is_some() || out.iter().any(|s| s.name == name) {
            continue;
        }
        out.push(SkillCommand {
            name,
            description: command.description.trim().to_owned(),
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// The hint under "Skills" in `/help` when the engine announced none.
pub const NO_SKILLS_HINT: &str = "No skills installed (add one with `hermes skills install <dir>`)";

/// The full `/help` text: the built-ins (`help_text`), then a "Skills" section listing each
/// skill (name and description) and `SKILL_USAGE_HINT`, or `NO_SKILLS_HINT`. Skills that
/// would shadow a built-in are left out, as in completion.
pub fn help_text_with(skills: &[SkillCommand]) -> String {
    let mut out = help_text();
    out.push_str("\nSkills\n");
    let skills: Vec<&SkillCommand> = skills.iter().filter(|s| find(&s.name).is_none()).collect();
    if skills.is_empty() {
        out.push_str(&format!("  {NO_SKILLS_HINT}\n"));
        return out;
    }
    let usage = |s: &SkillCommand| format!("/{}", s.name);
    let width = skills
        .iter()
        .map(|s| usage(s).chars().count())
        .max()
        .unwrap_or(0);
    for skill in skills {
        let line = format!("  {:<width$}  {}", usage(skill), skill.description);
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(&format!("  {SKILL_USAGE_HINT}\n"));
    out
}
