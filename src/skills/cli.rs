//! `hermes skills list | show NAME | install PATH-OR-URL | remove NAME | reset NAME` as
//! functions that return the text to print (the binary wires them to clap).
//!
//! `install` copies a local skill directory (or a single markdown file, which becomes
//! `SKILL.md`) into `HERMES_HOME/skills/[<category>/]<name>/`. URLs are refused with a clear
//! error: this build never fetches anything. The install name is `--name`, else the
//! frontmatter `name`, else the directory/file name when it matches `^[a-z][a-z0-9_-]*$`;
//! otherwise the error points to `--name` (spec-002a §3.14.3). `remove` deletes local skills
//! only; external directories belong to someone else.
//!
//! Invariants: an existing skill is replaced only with `force`; copying skips dot-files and
//! symlinks, so an install never pulls in files from outside the source directory.

use std::fmt::Write as _;
use std::path::Path;
use std::path::PathBuf;

use crate::skills::SkillError;
use crate::skills::bundled::BundledBy;
use crate::skills::bundled::bundled_by;
use crate::skills::catalog::SkillCatalog;
use crate::skills::catalog::Visibility;
use crate::skills::manifest;
use crate::skills::skill::SkillOrigin;
use crate::skills::skill::is_valid_name;
use crate::skills::skill::parse_frontmatter;

/// Options of `hermes skills install`.
#[derive(Debug, Clone, Default)]
pub struct InstallOptions {
    /// `--name`: overrides the frontmatter name for the directory.
    pub name: Option<String>,
    /// `--category`: install under this category directory.
    pub category: Option<String>,
    /// `--force`: replace an existing local skill of the same name.
    pub force: bool,
}

/// Description column width when the terminal width is unknown.
pub const DEFAULT_DESCRIPTION_WIDTH: usize = 72;
/// Narrowest description column, however narrow the terminal.
const MIN_DESCRIPTION_WIDTH: usize = 20;

/// `list` with the description column fitted to a terminal of `columns` (unknown: 72 chars).
pub fn list(catalog: &SkillCatalog) -> String {
    list_for_width(catalog, None)
}

/// A table of the listed skills (one line each: descriptions are folded onto one line and cut
/// with `…`), then the skills kept out of the agent's index or not offered here with the
/// reason, then the load warnings.
pub fn list_for_width(catalog: &SkillCatalog, columns: Option<usize>) -> String {
    let skills = catalog.list();
    if skills.is_empty() && catalog.all().is_empty() {
        let mut out = "No skills installed.".to_string();
        append_warnings(catalog, &mut out);
        return out;
    }
    let sources = Sources::read(catalog.local_root());
    let width =
        |f: &dyn Fn(&crate::skills::Skill) -> usize| skills.iter().map(|s| f(s)).max().unwrap_or(0);
    let name_w = width(&|s| s.name.chars().count()).max(4);
    let cat_w = width(&|s| s.category.as_deref().unwrap_or("-").chars().count()).max(8);
    let description_w = columns.map_or(DEFAULT_DESCRIPTION_WIDTH, |c| {
        c.saturating_sub(name_w + cat_w + 8 + 6)
            .max(MIN_DESCRIPTION_WIDTH)
    });
    let mut out = format!(
        "{:name_w$}  {:cat_w$}  {:8}  DESCRIPTION\n",
        "NAME", "CATEGORY", "SOURCE"
    );
    for s in &skills {
        let _ = writeln!(
            out,
            "{:name_w$}  {:cat_w$}  {:8}  {}",
            s.name,
            s.category.as_deref().unwrap_or("-"),
            sources.of(s),
            one_line(&s.description, description_w)
        );
    }
    let _ = write!(out, "{} skill(s)", skills.len());
    let unindexed: Vec<(&crate::skills::Skill, Visibility)> = catalog
        .all()
        .into_iter()
        .filter(|(_, v)| *v != Visibility::Visible)
        .collect();
    let section = |out: &mut String, title: &str, wanted: &[Visibility]| {
        let mut first = true;
        for (skill, visibility) in &unindexed {
            if !wanted.contains(visibility) {
                continue;
            }
            if first {
                let _ = write!(out, "\n\n{title}");
                first = false;
            }
            let _ = write!(
                out,
                "\n  {}: {}",
                skill.name,
                catalog.reasons(skill).join("; ")
            );
        }
    };
    section(
        &mut out,
        "Listed, but not in the agent's skill index (load them with skill_view or /name):",
        &[Visibility::Unindexed],
    );
    section(
        &mut out,
        "Not offered here:",
        &[Visibility::HiddenEnvironment, Visibility::HiddenPlatform],
    );
    append_warnings(catalog, &mut out);
    out
}

/// Where each skill came from, as Hermes's `skills list` names it: `builtin` (either
/// program's bundled-skill manifest), `hub` (`.hub/lock.json`), `local`, or `external`.
struct Sources {
    builtin: std::collections::BTreeSet<String>,
    hub: std::collections::BTreeSet<String>,
}

impl Sources {
    fn read(skills_dir: &Path) -> Self {
        let mut builtin = std::collections::BTreeSet::new();
        for file in [manifest::HERMES_MANIFEST, manifest::PYTHON_MANIFEST] {
            builtin.extend(manifest::read_or_empty(&skills_dir.join(file)).into_keys());
        }
        let hub = std::fs::read_to_string(skills_dir.join(".hub/lock.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|v| v.get("installed")?.as_object().cloned())
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        Self { builtin, hub }
    }

    fn of(&self, skill: &crate::skills::Skill) -> &'static str {
        match skill.origin {
            SkillOrigin::External(_) => "external",
            SkillOrigin::Local if self.hub.contains(&skill.name) => "hub",
            SkillOrigin::Local if self.builtin.contains(&skill.name) => "builtin",
            SkillOrigin::Local => "local",
        }
    }
}

/// `text` on one line (whitespace runs, newlines included, become one space), cut to `max`
/// characters with `…`.
fn one_line(text: &str, max: usize) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= max {
        return text;
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.truncate(out.trim_end().len());
    out.push('…');
    out
}

/// A skill's location, status and full `SKILL.md`.
pub fn show(catalog: &SkillCatalog, name: &str) -> Result<String, SkillError> {
    let Some((skill, visibility)) = catalog.lookup(name) else {
        // An unreadable or broken SKILL.md is not in the catalog, but its warning names it.
        let problem = catalog.warnings().iter().find(|w| {
            w.path
                .parent()
                .and_then(|dir| dir.file_name())
                .is_some_and(|dir| dir == name)
        });
        return Err(match problem {
            Some(w) => SkillError::Unloadable {
                name: name.to_string(),
                problem: w.to_string(),
            },
            None => SkillError::NotInstalled(name.to_string()),
        });
    };
    let reasons = catalog.reasons(skill).join("; ");
    let status = match visibility {
        Visibility::Visible if reasons.is_empty() => "available".to_string(),
        Visibility::Visible => format!("available ({reasons})"),
        Visibility::Unindexed => {
            format!("available, but not in the agent's skill index ({reasons})")
        }
        Visibility::HiddenEnvironment => {
            format!("not offered here ({reasons}); loads when asked for by name")
        }
        Visibility::HiddenPlatform => format!("hidden (not for this platform): {reasons}"),
    };
    let mut out = format!(
        "{} — {}\nPath: {}\nStatus: {status}\n",
        skill.name,
        one_line(&skill.description, usize::MAX),
        skill.skill_md().display()
    );
    let meta = &skill.meta;
    let fields = [
        ("Version", meta.version.clone()),
        ("Author", meta.author.clone()),
        ("License", meta.license.clone()),
        ("Tags", Some(meta.tags.join(", ")).filter(|t| !t.is_empty())),
        (
            "Related",
            Some(meta.related_skills.join(", ")).filter(|t| !t.is_empty()),
        ),
        (
            "Commands",
            Some(meta.commands.join(", ")).filter(|t| !t.is_empty()),
        ),
    ];
    for (label, value) in fields {
        if let Some(value) = value {
            let _ = writeln!(out, "{label}: {value}");
        }
    }
    let files = skill.supporting_files();
    if !files.is_empty() {
        let _ = writeln!(out, "Files: {}", files.join(", "));
    }
    if !meta.required_env.is_empty() {
        let names: Vec<String> = meta
            .required_env
            .iter()
            .map(|r| {
                if r.optional {
                    format!("{} (optional)", r.name)
                } else {
                    r.name.clone()
                }
            })
            .collect();
        let _ = writeln!(out, "Environment: {}", names.join(", "));
    }
    out.push('\n');
    out.push_str(&skill.raw);
    Ok(out)
}

/// Install a local skill directory or markdown file.
pub fn install(
    catalog: &SkillCatalog,
    source: &str,
    options: &InstallOptions,
) -> Result<String, SkillError> {
    let source = source.trim();
    if source.contains("://") || source.starts_with("git@") {
        return Err(SkillError::NetworkInstallUnsupported(source.to_string()));
    }
    let path = PathBuf::from(source);
    if !path.exists() {
        return Err(SkillError::Install(format!(
            "{source}: no such file or directory (hub identifiers are not supported in this build; give a local path)"
        )));
    }
    // A path to `…/SKILL.md` installs its directory.
    let (dir, file) = if path.is_dir() {
        (Some(path.clone()), path.join("SKILL.md"))
    } else if path.file_name().is_some_and(|n| n == "SKILL.md") {
        (path.parent().map(Path::to_path_buf), path.clone())
    } else {
        (None, path)
    };
    let text = std::fs::read_to_string(&file).map_err(|e| SkillError::io(&file, e))?;
    let (meta, body) = parse_frontmatter(&text).map_err(|e| SkillError::Frontmatter {
        line: e.line,
        message: format!("{}: {}", file.display(), e.message),
    })?;
    if body.trim().is_empty() {
        return Err(SkillError::Install(format!(
            "{}: SKILL.md has no instructions after the frontmatter",
            file.display()
        )));
    }
    let fallback = match &dir {
        Some(d) => d
            .canonicalize()
            .ok()
            .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned())),
        None => file.file_stem().map(|n| n.to_string_lossy().into_owned()),
    };
    let name = options
        .name
        .clone()
        .or(meta.name)
        .or(fallback.filter(|n| n.starts_with(|c: char| c.is_ascii_lowercase())))
        .filter(|n| is_valid_name(n))
        .ok_or_else(|| {
            SkillError::Install(format!(
                "cannot derive a valid skill name for {source}; pass one with --name (lowercase letters, digits, '-', '_')"
            ))
        })?;
    let mut dest = catalog.local_root().to_path_buf();
    if let Some(c) = options
        .category
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
    {
        if !is_valid_name(c) {
            return Err(SkillError::InvalidName {
                what: "category",
                value: c.to_string(),
            });
        }
        dest.push(c);
    }
    dest.push(&name);
    let existing = catalog
        .lookup(&name)
        .filter(|(s, _)| s.origin == SkillOrigin::Local)
        .map(|(s, _)| s.dir.clone())
        .or_else(|| dest.exists().then(|| dest.clone()));
    if let Some(old) = existing {
        if !options.force {
            return Err(SkillError::Install(format!(
                "a skill named '{name}' is already installed at {}; use --force to replace it",
                old.display()
            )));
        }
        std::fs::remove_dir_all(&old).map_err(|e| SkillError::io(&old, e))?;
    }
    std::fs::create_dir_all(&dest).map_err(|e| SkillError::io(&dest, e))?;
    let copied = match &dir {
        Some(d) => copy_dir(d, &dest)?,
        None => {
            let target = dest.join("SKILL.md");
            std::fs::write(&target, &text).map_err(|e| SkillError::io(&target, e))?;
            1
        }
    };
    Ok(format!(
        "Installed skill '{name}' at {} ({copied} file(s)).",
        dest.display()
    ))
}

/// Delete a local skill.
pub fn remove(catalog: &SkillCatalog, name: &str) -> Result<String, SkillError> {
    let (skill, _) = catalog
        .lookup(name)
        .ok_or_else(|| SkillError::NotFound(name.to_string()))?;
    if let SkillOrigin::External(root) = &skill.origin {
        return Err(SkillError::Install(format!(
            "'{name}' lives in the external skills directory {}; remove it there",
            root.display()
        )));
    }
    let dir = skill.dir.clone();
    let inside = match (dir.canonicalize(), catalog.local_root().canonicalize()) {
        (Ok(d), Ok(r)) => d != r && d.starts_with(&r),
        _ => false,
    };
    if !inside {
        return Err(SkillError::InvalidPath(format!(
            "refusing to remove {}: not inside {}",
            dir.display(),
            catalog.local_root().display()
        )));
    }
    std::fs::remove_dir_all(&dir).map_err(|e| SkillError::io(&dir, e))?;
    let mut out = format!("Removed skill '{}' ({}).", skill.name, dir.display());
    match bundled_by(catalog.local_root(), &skill.name) {
        Some(BundledBy::Hermes) => {
            let _ = write!(
                out,
                " It is a bundled skill: its sync record stays, so it is not re-added; `hermes skills reset {} --restore` brings it back.",
                skill.name
            );
        }
        Some(BundledBy::PythonHermes) => {
            let _ = write!(
                out,
                " It is one of Python Hermes's bundled skills: its manifest keeps the record, so neither program re-adds it."
            );
        }
        None => {}
    }
    Ok(out)
}

fn append_warnings(catalog: &SkillCatalog, out: &mut String) {
    for w in catalog.warnings() {
        let _ = write!(out, "\nwarning: {w}");
    }
}

/// Copy regular files and directories (no dot-entries, no symlinks); returns the file count.
fn copy_dir(from: &Path, to: &Path) -> Result<usize, SkillError> {
    let mut count = 0;
    let entries = std::fs::read_dir(from).map_err(|e| SkillError::io(from, e))?;
    for entry in entries.flatten() {
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        let (src, dst) = (entry.path(), to.join(&name));
        match entry.file_type() {
            Ok(t) if t.is_dir() => {
                std::fs::create_dir_all(&dst).map_err(|e| SkillError::io(&dst, e))?;
                count += copy_dir(&src, &dst)?;
            }
            Ok(t) if t.is_file() => {
                std::fs::copy(&src, &dst).map_err(|e| SkillError::io(&dst, e))?;
                count += 1;
            }
            _ => {}
        }
    }
    Ok(count)
}

#[cfg(test)]
#[path = "cli_tests.rs"]
mod tests;
