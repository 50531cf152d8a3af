//! Skill bundles (spec-002a §3.12): `HERMES_HOME/skill-bundles/<slug>.yaml` files that group
//! several skills under one slash command.
//!
//! ```yaml
//! name: backend-dev            # optional; defaults to the file stem; slugged for the command
//! description: Backend work    # optional
//! skills: [github-code-review, test-driven-development]   # required, non-empty
//! instruction: |               # optional; placed before the loaded skills
//!   Always start by writing failing tests.
//! ```
//!
//! Loading never fails: an unreadable or invalid bundle (including an empty `skills` list)
//! becomes a warning naming the file and line. A bundle installs nothing; the message it
//! produces is built in `invoke`. Invariant: slugs are unique (first file in sorted order
//! wins, with a warning).

use std::path::Path;
use std::path::PathBuf;

use serde::Deserialize;

use crate::skills::catalog::SkillWarning;
use crate::skills::skill::slugify;

/// A parsed bundle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bundle {
    /// Display name (`name:` or the file stem).
    pub name: String,
    /// The slash command without `/` (`Backend Dev` → `backend-dev`).
    pub slug: String,
    pub description: Option<String>,
    /// Skill names or paths relative to the skills directory, in order.
    pub skills: Vec<String>,
    pub instruction: Option<String>,
    pub path: PathBuf,
}

#[derive(Debug, Deserialize)]
struct RawBundle {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    skills: Option<Vec<String>>,
    #[serde(default)]
    instruction: Option<String>,
}

/// Parse one bundle file's text; `stem` is the file name without extension.
pub fn parse_bundle(text: &str, stem: &str, path: &Path) -> Result<Bundle, SkillWarning> {
    let warn = |line: Option<usize>, message: String| SkillWarning {
        path: path.to_path_buf(),
        line,
        message,
    };
    let raw: RawBundle = serde_norway::from_str(text).map_err(|e| {
        warn(
            Some(e.location().map_or(1, |l| l.line())),
            format!("skipped: invalid bundle YAML: {e}"),
        )
    })?;
    let skills: Vec<String> = raw
        .skills
        .unwrap_or_default()
        .into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if skills.is_empty() {
        return Err(warn(
            None,
            "skipped: a bundle needs a non-empty 'skills' list".to_string(),
        ));
    }
    let name = raw
        .name
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| stem.to_string());
    let slug = slugify(&name);
    if slug.is_empty() {
        return Err(warn(
            None,
            format!("skipped: bundle name '{name}' has no usable slash-command characters"),
        ));
    }
    let clean = |s: Option<String>| s.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    Ok(Bundle {
        name,
        slug,
        description: clean(raw.description),
        skills,
        instruction: clean(raw.instruction),
        path: path.to_path_buf(),
    })
}

/// Every bundle in `dir` (`*.yaml`, `*.yml`), sorted by file name. A missing directory
/// yields nothing.
pub fn load_bundles(dir: &Path) -> (Vec<Bundle>, Vec<SkillWarning>) {
    let mut bundles: Vec<Bundle> = Vec::new();
    let mut warnings = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (bundles, warnings);
    };
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
        .collect();
    paths.sort();
    for path in paths {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let parsed = std::fs::read_to_string(&path)
            .map_err(|e| SkillWarning {
                path: path.clone(),
                line: None,
                message: format!("cannot read: {e}"),
            })
            .and_then(|text| parse_bundle(&text, &stem, &path));
        match parsed {
            Ok(bundle) => {
                if let Some(first) = bundles.iter().find(|b| b.slug == bundle.slug) {
                    warnings.push(SkillWarning {
                        path: path.clone(),
                        line: None,
                        message: format!(
                            "bundle /{} is already defined by {}; this one is ignored",
                            bundle.slug,
                            first.path.display()
                        ),
                    });
                } else {
                    bundles.push(bundle);
                }
            }
            Err(w) => warnings.push(w),
        }
    }
    (bundles, warnings)
}

#[cfg(test)]
#[path = "bundles_tests.rs"]
mod tests;
