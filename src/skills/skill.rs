//! One skill and its metadata (spec-002a §3.4–3.9): platforms, runtime environments,
//! conditional activation, required environment variables, config settings, names and slugs. The frontmatter parser
//! lives in `frontmatter` and is re-exported here.
//!
//! Nothing here touches the filesystem except `Skill::supporting_files` and
//! `Environments::detect`. Invariant: a valid
//! skill name matches `^[a-z0-9][a-z0-9._-]*$` and is at most 64 characters, so it is always a
//! single safe path component.

use std::collections::BTreeSet;
use std::path::Path;
use std::path::PathBuf;

pub use crate::skills::frontmatter::Frontmatter;
pub use crate::skills::frontmatter::FrontmatterError;
pub use crate::skills::frontmatter::key_line;
pub use crate::skills::frontmatter::parse_frontmatter;
pub use crate::skills::frontmatter::read_frontmatter;
pub use crate::skills::frontmatter::split_frontmatter;
pub use crate::skills::frontmatter::validate_skill_md;

/// Longest skill or category name (as Hermes).
pub const MAX_NAME_LEN: usize = 64;
/// Longest frontmatter description accepted by `validate_skill_md` (as Hermes).
pub const MAX_DESCRIPTION_LEN: usize = 1024;
/// Supporting-file directories of a skill (spec §3.10).
pub const SUPPORT_DIRS: [&str; 5] = ["references", "templates", "scripts", "examples", "assets"];

/// An operating system a skill may be restricted to (`platforms:`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Platform {
    Linux,
    Macos,
    Windows,
    Other,
}

impl Platform {
    /// The platform hermes is running on.
    pub fn current() -> Self {
        match std::env::consts::OS {
            "linux" => Self::Linux,
            "macos" => Self::Macos,
            "windows" => Self::Windows,
            _ => Self::Other,
        }
    }

    /// A `platforms:` value (`macos`/`darwin`, `linux`, `windows`/`win32`), case-insensitive.
    pub fn parse(value: &str) -> Option<Self> {
        match value.trim().to_ascii_lowercase().as_str() {
            "linux" => Some(Self::Linux),
            "macos" | "darwin" | "osx" | "mac" => Some(Self::Macos),
            "windows" | "win32" | "win" => Some(Self::Windows),
            _ => None,
        }
    }

    /// Python's `sys.platform` on this platform, which Hermes matches `platforms:` against.
    fn sys_platform(self) -> &'static str {
        match self {
            Self::Linux => "linux",
            Self::Macos => "darwin",
            Self::Windows => "win32",
            Self::Other => std::env::consts::OS,
        }
    }

    /// Whether one lower-cased `platforms:` entry admits this platform, as Hermes decides it
    /// (`skill_matches_platform_list`): `macos` means `darwin`, `windows` means `win32`, and
    /// the entry matches when `sys.platform` starts with it (so `win` and `lin` match too).
    /// hermes also accepts `osx` and `mac` for macOS, which Hermes would not.
    pub fn admits(self, entry: &str) -> bool {
        let mapped = match entry.trim() {
            "macos" | "osx" | "mac" => "darwin",
            "windows" => "win32",
            other => other,
        };
        self.sys_platform().starts_with(mapped)
    }
}

/// The runtime environments `environments:` can name (Hermes's `_KNOWN_ENVIRONMENTS`) that
/// are active here. An offer-time filter: a skill for an inactive environment is left out of
/// listings and the index but still loads when asked for by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Environments {
    active: BTreeSet<String>,
}

impl Environments {
    /// The environments Hermes knows; any other tag never hides a skill.
    pub const KNOWN: [&'static str; 3] = ["kanban", "docker", "s6"];

    /// Exactly these active (tests).
    pub fn active(names: &[&str]) -> Self {
        Self {
            active: names.iter().map(ToString::to_string).collect(),
        }
    }

    /// Detected as Hermes does: `kanban` when a kanban task or board is set in `env` (hermes
    /// has no kanban toolset), `docker` inside a container, `s6` under s6-overlay.
    pub fn detect(env: &dyn Fn(&str) -> Option<String>) -> Self {
        let set = |k: &str| env(k).is_some_and(|v| !v.is_empty());
        let mut active = BTreeSet::new();
        if set("HERMES_KANBAN_TASK") || set("HERMES_KANBAN_BOARD") {
            active.insert("kanban".to_string());
        }
        if in_container(set("KUBERNETES_SERVICE_HOST")) {
            active.insert("docker".to_string());
        }
        if Path::new("/run/s6").is_dir() || Path::new("/package/admin/s6-overlay").is_dir() {
            active.insert("s6".to_string());
        }
        Self { active }
    }

    /// `skill_matches_environment`: no tags, any active tag, or any tag Hermes does not know.
    pub fn admit(&self, tags: &[String]) -> bool {
        let tags: Vec<&str> = tags
            .iter()
            .map(|t| t.trim())
            .filter(|t| !t.is_empty())
            .collect();
        tags.is_empty()
            || tags
                .iter()
                .any(|t| !Self::KNOWN.contains(t) || self.active.contains(*t))
    }
}

/// `hermes_constants.is_container`: Docker/Podman marker files, Kubernetes, or a container
/// runtime named in the init process's cgroup or our mount table.
fn in_container(kubernetes: bool) -> bool {
    if kubernetes || Path::new("/.dockerenv").exists() || Path::new("/run/.containerenv").exists() {
        return true;
    }
    let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
    let cgroup = read("/proc/1/cgroup");
    let markers = [
        "docker",
        "podman",
        "/lxc/",
        "kubepods",
        "containerd",
        "crio",
    ];
    if markers.iter().any(|m| cgroup.contains(m)) {
        return true;
    }
    let mounts = read("/proc/self/mountinfo");
    ["kubepods", "containerd", "crio"]
        .iter()
        .any(|m| mounts.contains(m))
}

/// Which tools and toolsets are enabled this session, for conditional activation (§3.7).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Availability {
    tools: BTreeSet<String>,
    toolsets: BTreeSet<String>,
    known: bool,
}

impl Availability {
    pub fn new(tools: &[&str], toolsets: &[&str]) -> Self {
        Self {
            tools: tools.iter().map(ToString::to_string).collect(),
            toolsets: toolsets.iter().map(ToString::to_string).collect(),
            known: true,
        }
    }

    /// Nothing is known about the tools: every conditional skill is shown (Hermes's behaviour
    /// when no filtering information is passed).
    pub fn unknown() -> Self {
        Self::default()
    }

    pub fn has_tool(&self, name: &str) -> bool {
        self.tools.contains(name)
    }

    pub fn has_toolset(&self, name: &str) -> bool {
        self.toolsets.contains(name)
    }
}

/// `metadata.hermes` conditional-activation lists (§3.7).
///
/// Semantics (Hermes's `_skill_should_show`): a `fallback_for_*` skill is hidden when **any**
/// listed tool/toolset is available; a `requires_*` skill is shown only when **all** listed
/// tools/toolsets are available. Empty lists impose nothing. As in Hermes they decide only
/// whether the skill appears in the system prompt's skill index; the skill is still listed,
/// loadable with `skill_view` and invocable as `/name`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Conditions {
    pub fallback_for_toolsets: Vec<String>,
    pub fallback_for_tools: Vec<String>,
    pub requires_toolsets: Vec<String>,
    pub requires_tools: Vec<String>,
}

impl Conditions {
    pub fn is_empty(&self) -> bool {
        self.fallback_for_toolsets.is_empty()
            && self.fallback_for_tools.is_empty()
            && self.requires_toolsets.is_empty()
            && self.requires_tools.is_empty()
    }

    /// Whether a skill with these conditions is in the index given `available`.
    pub fn allows(&self, available: &Availability) -> bool {
        self.unmet(available).is_empty()
    }

    /// One phrase per condition that keeps the skill out of the index (`needs toolset
    /// \`files\``); empty when it is in, or when nothing is known about the tools.
    pub fn unmet(&self, available: &Availability) -> Vec<String> {
        if !available.known {
            return Vec::new();
        }
        let mut out = Vec::new();
        for t in &self.fallback_for_toolsets {
            if available.has_toolset(t) {
                out.push(format!("stands in for toolset `{t}`, which is available"));
            }
        }
        for t in &self.fallback_for_tools {
            if available.has_tool(t) {
                out.push(format!("stands in for tool `{t}`, which is available"));
            }
        }
        for t in &self.requires_toolsets {
            if !available.has_toolset(t) {
                out.push(format!(
                    "needs toolset `{t}`, which this session does not have"
                ));
            }
        }
        for t in &self.requires_tools {
            if !available.has_tool(t) {
                out.push(format!(
                    "needs tool `{t}`, which this session does not have"
                ));
            }
        }
        out
    }
}

/// A declared environment variable (`required_environment_variables`, §3.8).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequiredEnv {
    pub name: String,
    /// Label for the masked prompt (defaults to the name).
    pub prompt: Option<String>,
    pub help: Option<String>,
    pub required_for: Option<String>,
    /// `optional: true`: never counted as missing.
    pub optional: bool,
}

/// A non-secret setting declared under `metadata.hermes.config` (§3.9), stored in
/// `config.yaml` under `skills.config.<key>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigSetting {
    pub key: String,
    pub description: Option<String>,
    pub default: Option<String>,
    pub prompt: Option<String>,
}

/// The frontmatter fields hermes understands (those Hermes 0.19 acts on). Unknown keys are
/// ignored, as Hermes ignores them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkillMeta {
    pub name: Option<String>,
    pub description: Option<String>,
    pub version: Option<String>,
    /// A list of authors is joined with ", ".
    pub author: Option<String>,
    pub license: Option<String>,
    /// Lower-cased `platforms:` values; empty = every platform.
    pub platforms: Vec<String>,
    /// Lower-cased `environments:` tags (see `Environments`); empty = everywhere.
    pub environments: Vec<String>,
    /// `metadata.hermes.tags`, else the top-level `tags`.
    pub tags: Vec<String>,
    /// `metadata.hermes.related_skills`, else the top-level `related_skills`.
    pub related_skills: Vec<String>,
    pub category: Option<String>,
    pub conditions: Conditions,
    /// `required_environment_variables`, `setup.collect_secrets` and
    /// `prerequisites.env_vars`, merged as Hermes merges them.
    pub required_env: Vec<RequiredEnv>,
    /// `prerequisites.commands`: advisory, as in Hermes (nothing is checked).
    pub commands: Vec<String>,
    pub config: Vec<ConfigSetting>,
}

impl SkillMeta {
    /// Whether the skill may load on `platform` (no `platforms:` = everywhere).
    pub fn supports(&self, platform: Platform) -> bool {
        self.platforms.is_empty() || self.platforms.iter().any(|p| platform.admits(p))
    }
}

/// Where a skill was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkillOrigin {
    /// `HERMES_HOME/skills/`.
    Local,
    /// A `skills.external_dirs` entry (the root is given).
    External(PathBuf),
}

/// A discovered, parsed skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skill {
    /// Frontmatter `name`, else the directory name.
    pub name: String,
    /// Frontmatter `description`, else the first prose line of the body.
    pub description: String,
    /// Directory path between the root and the skill directory (`devops`, `a/b`), else the
    /// frontmatter `metadata.hermes.category`.
    pub category: Option<String>,
    /// The skill directory (holds `SKILL.md`).
    pub dir: PathBuf,
    pub origin: SkillOrigin,
    pub meta: SkillMeta,
    /// The whole `SKILL.md` text.
    pub raw: String,
    /// The markdown after the frontmatter.
    pub body: String,
}

impl Skill {
    pub fn skill_md(&self) -> PathBuf {
        self.dir.join("SKILL.md")
    }

    /// Supporting files (relative, `/`-separated, sorted) under the §3.10 directories.
    /// Symlinks are not followed.
    pub fn supporting_files(&self) -> Vec<String> {
        let mut out = Vec::new();
        for sub in SUPPORT_DIRS {
            collect_files(&self.dir.join(sub), sub, &mut out, 0);
        }
        out.sort();
        out
    }
}

fn collect_files(dir: &Path, rel: &str, out: &mut Vec<String>, depth: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel = format!("{rel}/{name}");
        if kind.is_file() {
            out.push(rel);
        } else if kind.is_dir() && depth < 4 {
            collect_files(&entry.path(), &rel, out, depth + 1);
        }
    }
}

/// A skill or category name: `^[a-z0-9][a-z0-9._-]*$`, at most 64 chars.
pub fn is_valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    first_ok
        && name.len() <= MAX_NAME_LEN
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c))
}

/// A name as a slash-command slug (`Backend Dev` → `backend-dev`): lower-cased, spaces to
/// hyphens, characters other than letters, digits, `_` and `-` dropped, runs of hyphens
/// collapsed, hyphens trimmed.
pub fn slugify(name: &str) -> String {
    let mut out = String::new();
    for c in name.to_lowercase().chars() {
        let c = if c == ' ' { '-' } else { c };
        if !(c.is_alphanumeric() || c == '_' || c == '-') || (c == '-' && out.ends_with('-')) {
            continue;
        }
        out.push(c);
    }
    out.trim_matches('-').to_string()
}

/// The first prose line of a markdown body (headings and `---` rules skipped), cut to 80
/// characters.
pub fn first_prose_line(body: &str) -> String {
    let line = body
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#') && *l != "---")
        .unwrap_or("");
    line.chars().take(80).collect()
}

#[cfg(test)]
#[path = "skill_tests.rs"]
mod tests;
