//! Test helpers for the skills module: writing skill trees into temp directories and loading
//! catalogs with a fixed platform and environment (never the real home or process env).

use std::path::Path;
use std::path::PathBuf;

use crate::skills::SkillCatalog;
use crate::skills::skill::Availability;
use crate::skills::skill::Environments;
use crate::skills::skill::Platform;

/// Write `text` to `root/rel`, creating directories.
pub fn write(root: &Path, rel: &str, text: &str) -> PathBuf {
    assert!(
        Path::new(rel).is_relative(),
        "test paths stay inside the temp dir: {rel}"
    );
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

/// A SKILL.md with `name`, `description`, extra frontmatter lines and a body.
pub fn skill_md(name: &str, description: &str, extra: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n{extra}---\n\n{body}\n")
}

/// Write a simple skill at `root/rel/SKILL.md`.
pub fn add_skill(root: &Path, rel: &str, name: &str, description: &str) -> PathBuf {
    write(
        root,
        &format!("{rel}/SKILL.md"),
        &skill_md(
            name,
            description,
            "",
            &format!("# {name}\n\nDo the {name} thing."),
        ),
    )
}

pub fn no_env(_: &str) -> Option<String> {
    None
}

/// Local + external roots on Linux with no tool filtering and no runtime environment active.
pub fn load(root: &Path, external: &[PathBuf]) -> SkillCatalog {
    SkillCatalog::load(
        root,
        external,
        Platform::Linux,
        &Availability::unknown(),
        &Environments::default(),
        &no_env,
    )
}
