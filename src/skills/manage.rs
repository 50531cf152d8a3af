//! The file operations behind `skill_manage` (spec-002a §3.13, §3.11): create, edit, patch,
//! delete, write_file, remove_file.
//!
//! New skills are written under the local root (`HERMES_HOME/skills/[<category>/]<name>/`);
//! existing skills are changed **where they are found**, local or external (§3.11: external
//! dirs are not a write-protection boundary). `create` and `edit` require a valid frontmatter
//! (`validate_skill_md`) whose `name` matches; `patch` replaces an exact string once (or every
//! occurrence with `ReplaceMode::All`) and refuses a result whose frontmatter no longer parses.
//! Supporting files live under `references/`, `templates/`, `scripts/`, `examples/` or
//! `assets/`.
//!
//! Invariants: nothing is written or deleted outside a known skills root — paths with `..`,
//! absolute paths and symlinked skill directories are refused, and resolved targets are
//! checked to stay inside the skill directory; files are replaced atomically (temp + rename).

use std::path::Component;
use std::path::Path;
use std::path::PathBuf;

use crate::skills::SkillError;
use crate::skills::catalog::SkillCatalog;
use crate::skills::skill::SUPPORT_DIRS;
use crate::skills::skill::is_valid_name;
use crate::skills::skill::parse_frontmatter;
use crate::skills::skill::validate_skill_md;

/// Largest `SKILL.md` the agent may write (characters).
pub const MAX_SKILL_CHARS: usize = 100_000;
/// Largest supporting file the agent may write (bytes).
pub const MAX_FILE_BYTES: usize = 1_048_576;

/// How many occurrences a patch replaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplaceMode {
    /// `old_string` must occur exactly once.
    ExactlyOnce,
    All,
}

/// Create a new skill under the local root.
pub fn create(
    catalog: &SkillCatalog,
    name: &str,
    content: &str,
    category: Option<&str>,
) -> Result<String, SkillError> {
    check_name("skill name", name)?;
    let category = category.map(str::trim).filter(|c| !c.is_empty());
    if let Some(c) = category {
        check_name("category", c)?;
    }
    check_content(name, content)?;
    if let Some(dir) = locate(catalog, name) {
        return Err(SkillError::AlreadyExists {
            name: name.to_string(),
            path: dir,
        });
    }
    let mut dir = catalog.local_root().to_path_buf();
    if let Some(c) = category {
        dir.push(c);
    }
    dir.push(name);
    if dir.exists() {
        return Err(SkillError::AlreadyExists {
            name: name.to_string(),
            path: dir,
        });
    }
    std::fs::create_dir_all(&dir).map_err(|e| SkillError::io(&dir, e))?;
    let path = dir.join("SKILL.md");
    write_atomic(&path, content.as_bytes())?;
    Ok(format!("Created skill '{name}' at {}.", path.display()))
}

/// Replace a skill's whole `SKILL.md`.
pub fn edit(catalog: &SkillCatalog, name: &str, content: &str) -> Result<String, SkillError> {
    let dir = existing(catalog, name)?;
    let current = catalog
        .lookup(name)
        .map(|(s, _)| s.name.clone())
        .unwrap_or_else(|| dir_name(&dir));
    check_content(&current, content)?;
    let path = dir.join("SKILL.md");
    write_atomic(&path, content.as_bytes())?;
    Ok(format!("Rewrote {}.", path.display()))
}

/// Replace `old` with `new` in `SKILL.md` or in the supporting file `file_path`.
pub fn patch(
    catalog: &SkillCatalog,
    name: &str,
    old: &str,
    new: &str,
    file_path: Option<&str>,
    mode: ReplaceMode,
) -> Result<String, SkillError> {
    let dir = existing(catalog, name)?;
    let (path, is_skill_md) = match file_path.map(str::trim).filter(|p| !p.is_empty()) {
        None => (dir.join("SKILL.md"), true),
        Some(p) if is_skill_md_path(p, &dir) => (dir.join("SKILL.md"), true),
        Some(p) => (support_target(&dir, p)?, false),
    };
    let content = std::fs::read_to_string(&path).map_err(|e| SkillError::io(&path, e))?;
    let edit = crate::util::patch_plan::plan(&content, old, new, mode == ReplaceMode::All)
        .map_err(|e| SkillError::Patch(format!("{}: {e}", path.display())))?;
    if is_skill_md {
        if edit.new_content.chars().count() > MAX_SKILL_CHARS {
            return Err(too_large());
        }
        parse_frontmatter(&edit.new_content).map_err(|e| {
            SkillError::Patch(format!(
                "the patched SKILL.md would have broken frontmatter (line {}): {}; nothing was written",
                e.line, e.message
            ))
        })?;
    }
    write_atomic(&path, edit.new_content.as_bytes())?;
    Ok(format!("Patched {}: {}", path.display(), edit.summary))
}

/// Delete a whole skill directory.
pub fn delete(catalog: &SkillCatalog, name: &str) -> Result<String, SkillError> {
    let dir = existing(catalog, name)?;
    std::fs::remove_dir_all(&dir).map_err(|e| SkillError::io(&dir, e))?;
    Ok(format!("Deleted skill '{name}' ({}).", dir.display()))
}

/// Add or replace a supporting file.
pub fn write_file(
    catalog: &SkillCatalog,
    name: &str,
    file_path: &str,
    file_content: &str,
) -> Result<String, SkillError> {
    let dir = existing(catalog, name)?;
    if is_skill_md_path(file_path, &dir) {
        return Err(SkillError::InvalidPath(
            "SKILL.md is changed with action 'edit' or 'patch', not write_file".to_string(),
        ));
    }
    if file_content.len() > MAX_FILE_BYTES {
        return Err(SkillError::TooLarge(format!(
            "file_content is {} bytes (limit {MAX_FILE_BYTES})",
            file_content.len()
        )));
    }
    let target = support_target(&dir, file_path)?;
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent).map_err(|e| SkillError::io(parent, e))?;
    }
    write_atomic(&target, file_content.as_bytes())?;
    Ok(format!(
        "Wrote {} ({} bytes).",
        target.display(),
        file_content.len()
    ))
}

/// Delete a supporting file (and directories it leaves empty, up to the skill directory).
pub fn remove_file(
    catalog: &SkillCatalog,
    name: &str,
    file_path: &str,
) -> Result<String, SkillError> {
    let dir = existing(catalog, name)?;
    let target = support_target(&dir, file_path)?;
    if !target.is_file() {
        return Err(SkillError::InvalidPath(format!(
            "'{file_path}' is not a file of skill '{name}'"
        )));
    }
    std::fs::remove_file(&target).map_err(|e| SkillError::io(&target, e))?;
    let mut parent = target.parent();
    while let Some(p) = parent.filter(|p| *p != dir) {
        if std::fs::remove_dir(p).is_err() {
            break; // not empty
        }
        parent = p.parent();
    }
    Ok(format!("Removed {}.", target.display()))
}

/// The directory of the skill `name` in any root (hidden and malformed skills included),
/// local first.
pub fn locate(catalog: &SkillCatalog, name: &str) -> Option<PathBuf> {
    if let Some((skill, _)) = catalog.lookup(name) {
        return Some(skill.dir.clone());
    }
    // A malformed skill is not in the catalog but may be exactly what needs fixing.
    let roots = std::iter::once(catalog.local_root())
        .chain(catalog.external_roots().iter().map(PathBuf::as_path));
    for root in roots {
        let mut dirs = Vec::new();
        crate::skills::catalog::find_skill_dirs(root, 0, &mut dirs);
        dirs.sort();
        if let Some(d) = dirs
            .into_iter()
            .find(|d| d.file_name().is_some_and(|n| n == name))
        {
            return Some(d);
        }
    }
    None
}

/// `name`'s directory, checked to be a real directory strictly inside a known root.
fn existing(catalog: &SkillCatalog, name: &str) -> Result<PathBuf, SkillError> {
    let dir = locate(catalog, name).ok_or_else(|| SkillError::NotFound(name.to_string()))?;
    let meta = std::fs::symlink_metadata(&dir).map_err(|e| SkillError::io(&dir, e))?;
    if meta.file_type().is_symlink() {
        return Err(SkillError::InvalidPath(format!(
            "refusing to modify {}: the skill directory is a symlink",
            dir.display()
        )));
    }
    let resolved = dir.canonicalize().map_err(|e| SkillError::io(&dir, e))?;
    let roots = std::iter::once(catalog.local_root())
        .chain(catalog.external_roots().iter().map(PathBuf::as_path));
    for root in roots {
        if let Ok(root) = root.canonicalize()
            && resolved != root
            && resolved.starts_with(&root)
        {
            return Ok(dir);
        }
    }
    Err(SkillError::InvalidPath(format!(
        "refusing to modify {}: it is not inside a skills directory",
        dir.display()
    )))
}

/// A validated supporting-file path inside `dir`.
pub(crate) fn support_target(dir: &Path, file_path: &str) -> Result<PathBuf, SkillError> {
    let rel = checked_relative(file_path)?;
    let first = rel
        .components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .unwrap_or_default();
    if !SUPPORT_DIRS.contains(&first.as_str()) || rel.components().count() < 2 {
        return Err(SkillError::InvalidPath(format!(
            "file_path must be a file under one of {}; got '{file_path}'",
            SUPPORT_DIRS.join(", ")
        )));
    }
    let target = dir.join(&rel);
    // A symlinked directory inside the skill must not lead outside it.
    let mut probe = target.parent().map(Path::to_path_buf);
    while let Some(p) = probe {
        if p.exists() {
            let (Ok(real), Ok(base)) = (p.canonicalize(), dir.canonicalize()) else {
                break;
            };
            if !real.starts_with(&base) {
                return Err(SkillError::InvalidPath(format!(
                    "'{file_path}' resolves outside the skill directory"
                )));
            }
            break;
        }
        probe = p.parent().map(Path::to_path_buf);
    }
    Ok(target)
}

/// `path` as a relative path of normal components, or a path-traversal error.
pub(crate) fn checked_relative(path: &str) -> Result<PathBuf, SkillError> {
    let p = Path::new(path.trim());
    if path.trim().is_empty() {
        return Err(SkillError::InvalidPath("file_path is required".to_string()));
    }
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            _ => {
                return Err(SkillError::InvalidPath(format!(
                    "'{path}' is not allowed: paths must be relative to the skill directory and may not contain '..'"
                )));
            }
        }
    }
    if out.as_os_str().is_empty() {
        return Err(SkillError::InvalidPath("file_path is required".to_string()));
    }
    Ok(out)
}

pub(crate) fn is_skill_md_path(file_path: &str, dir: &Path) -> bool {
    let p = Path::new(file_path.trim());
    let parts: Vec<_> = p.components().collect();
    match parts.as_slice() {
        [Component::Normal(f)] => *f == "SKILL.md",
        [Component::Normal(d), Component::Normal(f)] => {
            *f == "SKILL.md" && dir.file_name().is_some_and(|n| n == *d)
        }
        _ => false,
    }
}

fn check_name(what: &'static str, value: &str) -> Result<(), SkillError> {
    if is_valid_name(value) {
        Ok(())
    } else {
        Err(SkillError::InvalidName {
            what,
            value: value.to_string(),
        })
    }
}

fn check_content(name: &str, content: &str) -> Result<(), SkillError> {
    if content.chars().count() > MAX_SKILL_CHARS {
        return Err(too_large());
    }
    let meta = validate_skill_md(content).map_err(|e| SkillError::Frontmatter {
        line: e.line,
        message: e.message,
    })?;
    let declared = meta.name.unwrap_or_default();
    if declared != name {
        return Err(SkillError::Frontmatter {
            line: crate::skills::skill::key_line(content, "name"),
            message: format!(
                "frontmatter name '{declared}' does not match the skill name '{name}' (to rename, create a new skill and delete the old one)"
            ),
        });
    }
    Ok(())
}

fn too_large() -> SkillError {
    SkillError::TooLarge(format!(
        "SKILL.md would exceed {MAX_SKILL_CHARS} characters; move detail into references/ files"
    ))
}

fn dir_name(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Write `bytes` to `path` through a temporary sibling and a rename.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), SkillError> {
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{file_name}.tmp.{}", std::process::id()));
    std::fs::write(&tmp, bytes).map_err(|e| SkillError::io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        SkillError::io(path, e)
    })
}

#[cfg(test)]
#[path = "manage_tests.rs"]
mod tests;
