//! Skill discovery: `SkillCatalog` scans `HERMES_HOME/skills/` and the external directories,
//! decides where each skill is offered, and renders the compact index that goes into the
//! system prompt once per session (spec-002a §3.3, §3.5, §3.7, §3.10–3.11).
//!
//! Where a skill is offered follows Hermes 0.19 (`tools/skills_tool.py`,
//! `agent/prompt_builder.py`): `platforms:` excluding this OS hides it everywhere;
//! `environments:` naming no active environment keeps it out of listings, slash completion
//! and the index, but it still loads by name; `metadata.hermes` tool conditions only keep it
//! out of the system prompt's index — it is still listed, viewable and invocable.
//!
//! Layout: `<root>/<name>/SKILL.md` (flat) or `<root>/<category>[/<sub>]/<name>/SKILL.md`. A
//! directory holding `SKILL.md` is a skill; its `references/`, `templates/`, `assets/` and
//! `scripts/` are supporting files, not searched, but its other subdirectories may hold more
//! skills, as in Hermes. Entries starting with `.` (`.hub`, `.archive`, `.git`) and the
//! dependency and cache directories Hermes skips (`node_modules`, `venv`, `__pycache__`, …)
//! are not searched.
//!
//! Invariants: the scan never fails and never drops a skill Hermes would load — unreadable
//! files and metadata Hermes would silently lose become `warnings()` naming the file and
//! line; the result is sorted, so the index is byte-stable for the same files; local skills
//! shadow same-named external ones (silently, as the spec says), and within one root the
//! first path in sorted order wins (with a warning). Non-existent external directories are
//! skipped without a warning.

use std::fmt;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;

use crate::skills::bundles;
use crate::skills::bundles::Bundle;
use crate::skills::skill::Availability;
use crate::skills::skill::Environments;
use crate::skills::skill::Platform;
use crate::skills::skill::Skill;
use crate::skills::skill::SkillOrigin;
use crate::skills::skill::slugify;

pub(crate) use crate::skills::scan::find_skill_dirs;
use crate::skills::scan::scan_root;

/// Longest description shown per skill in the prompt index.
const INDEX_DESCRIPTION_CHARS: usize = 100;

/// Environment lookup shared with tools (`std::env::var` in production, a map in tests).
pub type EnvLookup = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// A skill or bundle that could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillWarning {
    pub path: PathBuf,
    /// 1-based line in the file, when known.
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for SkillWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.path.display(), self.message),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

/// Where a loaded skill is offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visibility {
    /// Listed, in the prompt index, loadable.
    Visible,
    /// `fallback_for_*` / `requires_*` exclude it for the current tools: listed and loadable,
    /// but not in the prompt index.
    Unindexed,
    /// `environments:` names no active environment: loadable by name only.
    HiddenEnvironment,
    /// `platforms:` excludes this OS: hidden everywhere.
    HiddenPlatform,
}

#[derive(Debug, Clone)]
struct Entry {
    skill: Skill,
    visibility: Visibility,
}

/// The skills (and bundles) available to one session.
#[derive(Debug, Clone, Default)]
pub struct SkillCatalog {
    entries: Vec<Entry>,
    bundles: Vec<Bundle>,
    warnings: Vec<SkillWarning>,
    local_root: PathBuf,
    external_roots: Vec<PathBuf>,
    availability: Availability,
}

impl SkillCatalog {
    /// Scan `skills_dir` then each of `external_dirs` (`~` and `${VAR}` expanded through
    /// `env`), deciding visibility for `platform`, the active `environments` and the tools
    /// `available` (see `Visibility`).
    pub fn load(
        skills_dir: &Path,
        external_dirs: &[PathBuf],
        platform: Platform,
        available: &Availability,
        environments: &Environments,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Self {
        let external_roots: Vec<PathBuf> = external_dirs
            .iter()
            .map(|d| expand_dir(&d.to_string_lossy(), env))
            .collect();
        let mut catalog = Self {
            local_root: skills_dir.to_path_buf(),
            external_roots: external_roots.clone(),
            availability: available.clone(),
            ..Self::default()
        };
        let mut found = Vec::new();
        scan_root(
            skills_dir,
            &SkillOrigin::Local,
            &mut found,
            &mut catalog.warnings,
        );
        for root in &external_roots {
            scan_root(
                root,
                &SkillOrigin::External(root.clone()),
                &mut found,
                &mut catalog.warnings,
            );
        }
        for skill in found {
            if let Some(first) = catalog.entries.iter().find(|e| e.skill.name == skill.name) {
                // Local shadows external silently (§3.11); a clash inside one root is a mistake.
                if first.skill.origin == skill.origin {
                    catalog.warnings.push(SkillWarning {
                        path: skill.skill_md(),
                        line: None,
                        message: format!(
                            "skill name '{}' is already used by {}; this one is ignored",
                            skill.name,
                            first.skill.skill_md().display()
                        ),
                    });
                }
                continue;
            }
            let visibility = if !skill.meta.supports(platform) {
                Visibility::HiddenPlatform
            } else if !environments.admit(&skill.meta.environments) {
                Visibility::HiddenEnvironment
            } else if !skill.meta.conditions.allows(available) {
                Visibility::Unindexed
            } else {
                Visibility::Visible
            };
            catalog.entries.push(Entry { skill, visibility });
        }
        let key = |e: &Entry| {
            (
                e.skill.category.clone().unwrap_or_else(|| "general".into()),
                e.skill.name.clone(),
            )
        };
        catalog.entries.sort_by_key(key);
        catalog
    }

    /// Add the bundles from `bundles_dir` (`HERMES_HOME/skill-bundles/`); a missing directory
    /// means no bundles.
    pub fn with_bundles(mut self, bundles_dir: &Path) -> Self {
        let (found, warnings) = bundles::load_bundles(bundles_dir);
        self.bundles = found;
        self.warnings.extend(warnings);
        self
    }

    /// Listed skills (visible or unindexed), sorted by category (`general` for
    /// uncategorised) then name.
    pub fn list(&self) -> Vec<&Skill> {
        self.entries
            .iter()
            .filter(|e| matches!(e.visibility, Visibility::Visible | Visibility::Unindexed))
            .map(|e| &e.skill)
            .collect()
    }

    /// A loadable skill (any but another platform's) by name, slug, directory name or
    /// `category/name` path.
    pub fn get(&self, name: &str) -> Option<&Skill> {
        self.lookup(name)
            .filter(|(_, v)| *v != Visibility::HiddenPlatform)
            .map(|(s, _)| s)
    }

    /// Why a loaded skill is not `Visible`, one phrase per reason (empty when it is).
    pub fn reasons(&self, skill: &Skill) -> Vec<String> {
        let visibility = self
            .entries
            .iter()
            .find(|e| e.skill.dir == skill.dir)
            .map_or(Visibility::Visible, |e| e.visibility);
        let mut reasons = match visibility {
            Visibility::Visible => Vec::new(),
            Visibility::HiddenPlatform => {
                vec![format!("for {} only", skill.meta.platforms.join(", "))]
            }
            Visibility::HiddenEnvironment => vec![format!(
                "for the {} environment, not active here",
                skill.meta.environments.join(" / ")
            )],
            Visibility::Unindexed => skill.meta.conditions.unmet(&self.availability),
        };
        if let Some(why) = flagged_for_index(skill) {
            reasons.push(format!(
                "left out of the system prompt: the injection scanner flagged its {why}"
            ));
        }
        reasons
    }

    /// Any loaded skill (hidden ones too) with its visibility.
    pub fn lookup(&self, name: &str) -> Option<(&Skill, Visibility)> {
        let name = name.trim().trim_start_matches('/');
        let exact = self.entries.iter().find(|e| e.skill.name == name);
        let fuzzy = || {
            let slug = slugify(name);
            self.entries.iter().find(|e| {
                slugify(&e.skill.name) == slug
                    || e.skill.dir.file_name().is_some_and(|d| d == name)
                    || relative_id(&e.skill).is_some_and(|r| r == name)
            })
        };
        exact.or_else(fuzzy).map(|e| (&e.skill, e.visibility))
    }

    /// Every loaded skill with its visibility (hidden ones included).
    pub fn all(&self) -> Vec<(&Skill, Visibility)> {
        self.entries
            .iter()
            .map(|e| (&e.skill, e.visibility))
            .collect()
    }

    pub fn bundles(&self) -> &[Bundle] {
        &self.bundles
    }

    /// A bundle by its slash slug (or display name).
    pub fn bundle(&self, name: &str) -> Option<&Bundle> {
        let slug = slugify(name.trim().trim_start_matches('/'));
        self.bundles.iter().find(|b| b.slug == slug)
    }

    pub fn warnings(&self) -> &[SkillWarning] {
        &self.warnings
    }

    /// `HERMES_HOME/skills/`: where new skills are created.
    pub fn local_root(&self) -> &Path {
        &self.local_root
    }

    /// The expanded external directories, in configured order.
    pub fn external_roots(&self) -> &[PathBuf] {
        &self.external_roots
    }

    /// The progressive-disclosure index for the system prompt: one line per visible skill
    /// (name and a description cut to 100 chars) grouped by category, with Hermes's
    /// instructions around it. Empty when no skill is visible.
    pub fn render_index_for_prompt(&self) -> String {
        // A name or description the scanner flags would sit in every system prompt.
        let skills: Vec<&Skill> = self
            .entries
            .iter()
            .filter(|e| e.visibility == Visibility::Visible)
            .map(|e| &e.skill)
            .filter(|s| flagged_for_index(s).is_none())
            .collect();
        if skills.is_empty() {
            return String::new();
        }
        let mut lines = Vec::new();
        let mut current: Option<&str> = None;
        for skill in skills {
            let category = skill.category.as_deref().unwrap_or("general");
            if current != Some(category) {
                lines.push(format!("  {category}:"));
                current = Some(category);
            }
            let description = cut(&skill.description, INDEX_DESCRIPTION_CHARS);
            if description.is_empty() {
                lines.push(format!("    - {}", skill.name));
            } else {
                lines.push(format!("    - {}: {description}", skill.name));
            }
        }
        format!(
            "## Skills (mandatory)\n\
             Before replying, scan the skills below. If a skill matches or is even partially relevant to your task, \
             you MUST load it with skill_view(name) and follow its instructions. Err on the side of loading: skills \
             hold the user's preferred workflows, commands, pitfalls and quality standards.\n\
             If a skill has issues, fix it with skill_manage(action='patch').\n\
             After difficult/iterative tasks, offer to save the approach as a skill.\n\
             \n\
             <available_skills>\n{}\n</available_skills>\n\
             \n\
             Only proceed without loading a skill if genuinely none are relevant to the task.",
            lines.join("\n")
        )
    }
}

/// Why a skill's name or description is kept out of the prompt index, if it is.
pub fn flagged_for_index(skill: &Skill) -> Option<String> {
    let findings = crate::skills::guard::scan_skill(&skill.name, &skill.description, "");
    (!findings.index.is_empty()).then(|| findings.summary())
}

/// `category/name` of a skill relative to its root (the identifier bundles may use).
pub(crate) fn relative_id(skill: &Skill) -> Option<String> {
    let dir = skill.dir.file_name()?.to_string_lossy().into_owned();
    Some(match &skill.category {
        Some(c) => format!("{c}/{dir}"),
        None => dir,
    })
}

/// How `SkillCatalog`s are built for a session: the tools reload through it on every call, so
/// a skill created mid-session is found at once, while the prompt index stays frozen.
#[derive(Clone)]
pub struct SkillLoader {
    pub skills_dir: PathBuf,
    /// `skills.external_dirs` as configured (expanded on load).
    pub external_dirs: Vec<PathBuf>,
    /// `HERMES_HOME/skill-bundles/`, when bundles should be loaded.
    pub bundles_dir: Option<PathBuf>,
    pub platform: Platform,
    pub availability: Availability,
    pub environments: Environments,
    pub env: EnvLookup,
    /// What `skill_manage` does with a write the injection scanner flags.
    pub agent_writes: AgentWrites,
}

/// `skills.guard_agent_created`: what happens to a flagged `skill_manage` write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AgentWrites {
    /// Written, and the result says it was flagged (Hermes's default).
    #[default]
    FlagFlagged,
    /// Refused (nothing changes on disk).
    RefuseFlagged,
}

impl fmt::Debug for SkillLoader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SkillLoader")
            .field("skills_dir", &self.skills_dir)
            .field("external_dirs", &self.external_dirs)
            .field("bundles_dir", &self.bundles_dir)
            .field("platform", &self.platform)
            .finish_non_exhaustive()
    }
}

impl SkillLoader {
    /// Local skills only, this OS, no tool filtering, the process environment (and the
    /// runtime environments detected from it).
    pub fn new(skills_dir: impl Into<PathBuf>) -> Self {
        Self {
            skills_dir: skills_dir.into(),
            external_dirs: Vec::new(),
            bundles_dir: None,
            platform: Platform::current(),
            availability: Availability::unknown(),
            environments: Environments::detect(&|k| std::env::var(k).ok()),
            env: Arc::new(|k| std::env::var(k).ok()),
            agent_writes: AgentWrites::default(),
        }
    }

    pub fn load(&self) -> SkillCatalog {
        let catalog = SkillCatalog::load(
            &self.skills_dir,
            &self.external_dirs,
            self.platform,
            &self.availability,
            &self.environments,
            &*self.env,
        );
        match &self.bundles_dir {
            Some(dir) => catalog.with_bundles(dir),
            None => catalog,
        }
    }
}

/// `~` → home (`HOME` from `env`, else the OS home), `${VAR}` / `$VAR` → `env(VAR)`; unset
/// variables are left as written (so the path simply does not exist).
pub fn expand_dir(raw: &str, env: &dyn Fn(&str) -> Option<String>) -> PathBuf {
    let raw = raw.trim();
    let home = || {
        env("HOME")
            .map(PathBuf::from)
            .or_else(dirs::home_dir)
            .map(|p| p.to_string_lossy().into_owned())
    };
    let mut s = match raw.strip_prefix('~') {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => match home() {
            Some(h) => format!("{h}{rest}"),
            None => raw.to_string(),
        },
        _ => raw.to_string(),
    };
    let mut out = String::new();
    while let Some(pos) = s.find('$') {
        out.push_str(&s[..pos]);
        let rest = &s[pos + 1..];
        let (var, tail) = if let Some(inner) = rest.strip_prefix('{') {
            match inner.find('}') {
                Some(end) => (&inner[..end], &inner[end + 1..]),
                None => ("", rest),
            }
        } else {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            (&rest[..end], &rest[end..])
        };
        match env(var).filter(|_| !var.is_empty()) {
            Some(value) => out.push_str(&value),
            None => out.push_str(&s[pos..s.len() - tail.len()]),
        }
        s = tail.to_string();
    }
    out.push_str(&s);
    PathBuf::from(out)
}

fn cut(text: &str, max: usize) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= max {
        return text;
    }
    let mut out: String = text.chars().take(max.saturating_sub(3)).collect();
    out.push_str("...");
    out
}

#[cfg(test)]
#[path = "catalog_tests.rs"]
mod tests;
