//! The slash-command registry: the ONE list of built-in commands the TUI knows (`COMMANDS`,
//! written out in `slash/table.rs`), with lookup by name or alias (`find`), fuzzy completion
//! for the popup (`complete`, `complete_with` to include skills), the `/help` text
//! (`help_text`, `help_text_with`) and the parser that splits `/name args` (`parse`).
//!
//! Skills are slash commands too, but announced by the engine at runtime (`SessionInfo`), so
//! they are not in `COMMANDS`: the composer keeps them as `SkillCommand`s (see `skills`) and
//! passes them in. A skill never shadows a built-in: one with a built-in
//! name or alias is dropped, and built-ins rank before skills on equal match quality.
//!
//! It does not run commands: the app maps a resolved name to an `Op` or a local action, and an
//! unknown name (a skill, or a typo) still comes through `parse` for the app to forward.
//!
//! Invariants: names and aliases are lowercase ASCII, unique across the whole registry, and
//! never start with `/`; every `Category` used here appears in `CATEGORY_ORDER`.

mod skills;
mod table;

pub use skills::NO_SKILLS_HINT;
pub use skills::SKILL_USAGE_HINT;
pub use skills::SkillCommand;
pub use skills::help_text_with;
pub use skills::skill_commands;
pub use table::COMMANDS;

/// Where a command is listed in `/help`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    Session,
    Configuration,
    Info,
    Exit,
}

impl Category {
    pub fn label(self) -> &'static str {
        match self {
            Category::Session => "Session",
            Category::Configuration => "Configuration",
            Category::Info => "Info",
            Category::Exit => "Exit",
        }
    }
}

/// The order categories appear in `/help`.
pub const CATEGORY_ORDER: [Category; 4] = [
    Category::Session,
    Category::Configuration,
    Category::Info,
    Category::Exit,
];

/// One slash command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlashCommand {
    /// Canonical name, without the leading `/`.
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    /// Argument syntax shown after the name, e.g. `<prompt>`; empty when it takes none.
    pub args_hint: &'static str,
    pub description: &'static str,
    pub category: Category,
}

impl SlashCommand {
    /// Whether the command takes arguments (so accepting it in the popup waits for them).
    pub fn takes_args(&self) -> bool {
        !self.args_hint.is_empty()
    }
}

/// Looks a command up by name or alias (case-insensitive, a leading `/` is ignored).
pub fn find(name: &str) -> Option<&'static SlashCommand> {
    let name = name.strip_prefix('/').unwrap_or(name).to_ascii_lowercase();
    COMMANDS
        .iter()
        .find(|c| c.name == name || c.aliases.contains(&name.as_str()))
}

/// How a completion candidate matched, best first (the derived order is the ranking).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MatchKind {
    /// The query is the name or an alias.
    Exact,
    /// The name starts with the query.
    Prefix,
    /// An alias starts with the query.
    AliasPrefix,
    /// The query starts a word inside the name (after `-`/`_`), or spells its initials.
    WordBoundary,
    /// The query's characters appear in order in the name (aliases are too short to
    /// subsequence-match usefully: `reset` would match `st`).
    Subsequence,
}

/// A completion candidate: a built-in command or a skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Candidate {
    Builtin(&'static SlashCommand),
    Skill(SkillCommand),
}

impl Candidate {
    pub fn name(&self) -> &str {
        match self {
            Candidate::Builtin(c) => c.name,
            Candidate::Skill(s) => &s.name,
        }
    }

    pub fn description(&self) -> &str {
        match self {
            Candidate::Builtin(c) => c.description,
            Candidate::Skill(s) => &s.description,
        }
    }

    /// Argument syntax; empty for skills, whose optional instructions go without saying (a
    /// hint would only widen the popup's name column).
    pub fn args_hint(&self) -> &str {
        match self {
            Candidate::Builtin(c) => c.args_hint,
            Candidate::Skill(_) => "",
        }
    }

    /// Whether accepting it in the popup waits for arguments; skills always may take some.
    pub fn takes_args(&self) -> bool {
        match self {
            Candidate::Builtin(c) => c.takes_args(),
            Candidate::Skill(_) => true,
        }
    }

    pub fn is_skill(&self) -> bool {
        matches!(self, Candidate::Skill(_))
    }

    /// `/name` followed by the args hint, if any: how the popup and `/help` show it.
    pub fn usage(&self) -> String {
        if !self.args_hint().is_empty() {
            format!("/{} {}", self.name(), self.args_hint())
        } else {
            format!("/{}", self.name())
        }
    }
}

/// One completion candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    pub command: Candidate,
    pub kind: MatchKind,
}

/// Fuzzy completion of a partial built-in command name (without the `/`); see `complete_with`.
pub fn complete(prefix: &str) -> Vec<Match> {
    complete_with(prefix, &[])
}

/// Fuzzy completion of a partial command name (without the `/`) over the built-ins and
/// `skills`. An empty prefix lists every command. Ranking: exact, then name prefix, alias
/// prefix, word boundary, subsequence; on equal kind built-ins before skills, then by name. A
/// skill named like a built-in (name or alias) is skipped.
pub fn complete_with(prefix: &str, skills: &[SkillCommand]) -> Vec<Match> {
    let query = prefix
        .strip_prefix('/')
        .unwrap_or(prefix)
        .to_ascii_lowercase();
    let builtins = COMMANDS.iter().filter_map(|command| {
        match_kind(command.name, command.aliases, &query).map(|kind| Match {
            command: Candidate::Builtin(command),
            kind,
        })
    });
    let skills = skills
        .iter()
        .filter(|skill| find(&skill.name).is_none())
        .filter_map(|skill| {
            match_kind(&skill.name, &[], &query).map(|kind| Match {
                command: Candidate::Skill(skill.clone()),
                kind,
            })
        });
    let mut out: Vec<Match> = builtins.chain(skills).collect();
    out.sort_by(|a, b| {
        a.kind
            .cmp(&b.kind)
            .then_with(|| a.command.is_skill().cmp(&b.command.is_skill()))
            .then_with(|| a.command.name().cmp(b.command.name()))
    });
    out
}

fn match_kind(name: &str, aliases: &[&str], query: &str) -> Option<MatchKind> {
    if query.is_empty() {
        return Some(MatchKind::Prefix);
    }
    let names = || std::iter::once(name).chain(aliases.iter().copied());
    if names().any(|n| n == query) {
        Some(MatchKind::Exact)
    } else if name.starts_with(query) {
        Some(MatchKind::Prefix)
    } else if aliases.iter().any(|a| a.starts_with(query)) {
        Some(MatchKind::AliasPrefix)
    } else if names().any(|n| word_boundary_match(n, query)) {
        Some(MatchKind::WordBoundary)
    } else if is_subsequence(name, query) {
        Some(MatchKind::Subsequence)
    } else {
        None
    }
}

/// `reload-mcp` matches `mcp` (a later word starts with the query) and `rm` (its initials).
fn word_boundary_match(name: &str, query: &str) -> bool {
    let words: Vec<&str> = name.split(['-', '_']).filter(|w| !w.is_empty()).collect();
    if words.len() < 2 {
        return false;
    }
    let initials: String = words.iter().filter_map(|w| w.chars().next()).collect();
    words[1..].iter().any(|w| w.starts_with(query)) || initials.starts_with(query)
}

fn is_subsequence(haystack: &str, needle: &str) -> bool {
    let mut hay = haystack.chars();
    needle.chars().all(|n| hay.any(|h| h == n))
}

/// Splits `/name args` into `(name, args)`: the name is lowercased and has no `/`, the args are
/// trimmed. `None` when the input does not start with `/`, the name is empty, or the "name"
/// contains another `/` (a path such as `/usr/bin/env` is a message, not a command).
pub fn parse(input: &str) -> Option<(String, String)> {
    let rest = input.trim_start().strip_prefix('/')?;
    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let (name, args) = rest.split_at(end);
    if name.is_empty() || name.contains('/') {
        return None;
    }
    Some((name.to_lowercase(), args.trim().to_owned()))
}

/// The `/help` text for the built-ins alone: commands grouped by category, one per line, with
/// args and aliases.
pub fn help_text() -> String {
    let usage = |c: &'static SlashCommand| Candidate::Builtin(c).usage();
    let width = COMMANDS
        .iter()
        .map(|c| usage(c).chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for category in CATEGORY_ORDER {
        let mut commands = COMMANDS
            .iter()
            .filter(|c| c.category == category)
            .peekable();
        if commands.peek().is_none() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(category.label());
        out.push('\n');
        for c in commands {
            out.push_str(&format!("  {:<width$}  {}", usage(c), c.description));
            if !c.aliases.is_empty() {
                let aliases: Vec<String> = c.aliases.iter().map(|a| format!("/{a}")).collect();
                out.push_str(&format!(" (alias {})", aliases.join(", ")));
            }
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
#[path = "slash_tests.rs"]
mod tests;
