//! Finding and reading skills on disk for `catalog`: which directories under a root hold a
//! skill (as Hermes's `iter_skill_index_files` walks them) and reading one `SKILL.md` into a
//! `Skill`.
//!
//! Not here: visibility, shadowing or the index (`catalog`). Invariant: reading never fails
//! for a readable file — frontmatter problems come back as warnings beside the skill.

use std::path::Path;
use std::path::PathBuf;

use crate::skills::catalog::SkillWarning;
use crate::skills::skill::Skill;
use crate::skills::skill::SkillOrigin;
use crate::skills::skill::first_prose_line;
use crate::skills::skill::read_frontmatter;

/// Deepest category nesting searched below a root.
const MAX_DEPTH: usize = 4;
/// A skill's own directories that never hold further skills (Hermes's `SKILL_SUPPORT_DIRS`).
const SKILL_SUPPORT_DIRS: [&str; 4] = ["references", "templates", "assets", "scripts"];
/// Directories Hermes never searches for skills (`EXCLUDED_SKILL_DIRS`, besides dot-dirs).
const EXCLUDED_DIRS: [&str; 4] = ["venv", "node_modules", "site-packages", "__pycache__"];

/// Every skill under `root`, in path order, with the warnings met on the way.
pub(crate) fn scan_root(
    root: &Path,
    origin: &SkillOrigin,
    out: &mut Vec<Skill>,
    warnings: &mut Vec<SkillWarning>,
) {
    let mut dirs = Vec::new();
    find_skill_dirs(root, 0, &mut dirs);
    dirs.sort();
    for dir in dirs {
        match load_skill(root, &dir, origin) {
            Ok((skill, problems)) => {
                warnings.extend(problems);
                out.push(skill);
            }
            Err(w) => warnings.push(w),
        }
    }
}

/// Every directory below `dir` (or `dir` itself, when it is not the root) holding `SKILL.md`.
/// Below a skill, its support directories are not searched but others are, as Hermes's
/// `iter_skill_index_files` does (an optional skill can be installed inside a bundled one:
/// `dogfood/adversarial-ux-test`).
pub(crate) fn find_skill_dirs(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let is_skill = depth > 0 && dir.join("SKILL.md").is_file();
    if is_skill {
        out.push(dir.to_path_buf());
    }
    if depth > MAX_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.')
            || EXCLUDED_DIRS.contains(&name.as_ref())
            || (is_skill && SKILL_SUPPORT_DIRS.contains(&name.as_ref()))
        {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            find_skill_dirs(&path, depth + 1, out);
        }
    }
}

/// Read and parse one skill directory found under `root`: the skill and the problems in its
/// frontmatter (it loads regardless), or why it could not be read at all.
pub(crate) fn load_skill(
    root: &Path,
    dir: &Path,
    origin: &SkillOrigin,
) -> Result<(Skill, Vec<SkillWarning>), SkillWarning> {
    let path = dir.join("SKILL.md");
    let raw = std::fs::read_to_string(&path).map_err(|e| SkillWarning {
        path: path.clone(),
        line: None,
        message: format!("skipped: cannot read: {e}"),
    })?;
    let read = read_frontmatter(&raw);
    let problems = read
        .problems
        .iter()
        .map(|p| SkillWarning {
            path: path.clone(),
            line: Some(p.line),
            message: p.message.clone(),
        })
        .collect();
    let (meta, body) = (read.meta, read.body);
    let dir_name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = meta
        .name
        .clone()
        .filter(|n| !n.trim().is_empty())
        .unwrap_or(dir_name);
    let description = meta
        .description
        .clone()
        .filter(|d| !d.trim().is_empty())
        .unwrap_or_else(|| first_prose_line(body));
    let category = dir
        .parent()
        .and_then(|p| p.strip_prefix(root).ok())
        .map(|rel| {
            rel.components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/")
        })
        .filter(|c| !c.is_empty())
        .or_else(|| meta.category.clone());
    let skill = Skill {
        name,
        description,
        category,
        dir: dir.to_path_buf(),
        origin: origin.clone(),
        body: body.to_string(),
        meta,
        raw,
    };
    Ok((skill, problems))
}
