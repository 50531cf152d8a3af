//! `hermes skills list | show NAME | install PATH-OR-URL | remove NAME` as functions that
//! return the text to print (the binary wires them to clap).
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
use crate::skills::bundled::read_manifest;
use crate::skills::catalog::SkillCatalog;
use crate::skills::catalog::Visibility;
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

/// A table of the visible skills plus a count of hidden ones and the load warnings.
pub fn list(catalog: &SkillCatalog) -> String {
    let skills = catalog.list();
    if skills.is_empty() {
        let mut out = "No skills installed.".to_string();
        append_warnings(catalog, &mut out);
        return out;
    }
    let width =
        |f: &dyn Fn(&crate::skills::Skill) -> usize| skills.iter().map(|s| f(s)).max().unwrap_or(0);
    let name_w = width(&|s| s.name.chars().count()).max(4);
    let cat_w = width(&|s| s.category.as_deref().unwrap_or("-").chars().count()).max(8);
    let mut out = format!(
        "{:name_w$}  {:cat_w$}  {:8}  DESCRIPTION\n",
        "NAME", "CATEGORY", "SOURCE"
    );
    for s in &skills {
        let source = match s.origin {
            SkillOrigin::Local => "local",
            SkillOrigin::External(_) => "external",
        };
        let _ = writeln!(
            out,
            "{:name_w$}  {:cat_w$}  {source:8}  {}",
            s.name,
            s.category.as_deref().unwrap_or("-"),
            s.description
        );
    }
    let _ = write!(out, "{} skill(s)", skills.len());
    let hidden = catalog.all().len() - skills.len();
    if hidden > 0 {
        let _ = write!(
            out,
            " ({hidden} hidden on this platform or by tool conditions)"
        );
    }
    append_warnings(catalog, &mut out);
    out
}

/// A skill's location, status and full `SKILL.md`.
pub fn show(catalog: &SkillCatalog, name: &str) -> Result<String, SkillError> {
    let (skill, visibility) = catalog
        .lookup(name)
        .ok_or_else(|| SkillError::NotFound(name.to_string()))?;
    let status = match visibility {
        Visibility::Visible => "available",
        Visibility::HiddenPlatform => "hidden (not for this platform)",
        Visibility::HiddenByConditions => "hidden (its tool conditions are not met)",
    };
    let mut out = format!(
        "{} — {}\nPath: {}\nStatus: {status}\n",
        skill.name,
        skill.description,
        skill.skill_md().display()
    );
    let files = skill.supporting_files();
    if !files.is_empty() {
        let _ = writeln!(out, "Files: {}", files.join(", "));
    }
    if !skill.meta.required_env.is_empty() {
        let names: Vec<&str> = skill
            .meta
            .required_env
            .iter()
            .map(|r| r.name.as_str())
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
    if read_manifest(catalog.local_root()).contains_key(&skill.name) {
        let _ = write!(
            out,
            " It is a bundled skill and will not be re-added by sync; `hermes skills reset {} --restore` brings it back.",
            skill.name
        );
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
