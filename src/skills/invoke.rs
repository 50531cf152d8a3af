//! Slash-command invocation of skills and bundles (spec-002a §3.2, §3.8, §3.9, §3.12;
//! reference-hermes §1.3).
//!
//! `/skill-name args` and `/bundle-name args` become one **user message** built here, in
//! Hermes's format (`[IMPORTANT: The user has invoked the "x" skill …]`, the body, the skill
//! directory, resolved config values, a setup note for missing environment variables, the
//! supporting files, then the user's instruction). The system prompt is never touched, so the
//! provider's prompt cache survives. On a slug collision the bundle wins. A bundle's missing
//! skills are skipped and listed in the message.
//!
//! Nothing here reads files except the supporting-file listing, and nothing prompts the user:
//! `missing_env` tells the TUI which variables to ask for.

use crate::skills::bundles::Bundle;
use crate::skills::catalog::SkillCatalog;
use crate::skills::skill::RequiredEnv;
use crate::skills::skill::Skill;
use crate::skills::skill::slugify;

const SKILL_DIR_NOTE: &str = "Resolve any relative paths in this skill (e.g. `scripts/foo.js`, \
    `templates/config.yaml`) against that directory, then run them with the terminal tool using \
    the absolute path.";
const INSTRUCTION_LEAD: &str =
    "The user has provided the following instruction alongside the skill invocation: ";

/// What an invocation may consult beyond the catalog.
pub struct InvocationContext<'a> {
    /// Environment lookup, for the missing-variable note.
    pub env: &'a dyn Fn(&str) -> Option<String>,
    /// `skills.config.<key>` from `config.yaml` (the key without the prefix).
    pub config: &'a dyn Fn(&str) -> Option<String>,
    /// How `HERMES_HOME` is shown in notes (`~/.hermes`).
    pub home_display: &'a str,
}

/// The user message for `/name args` (skill or bundle), or `None` when `name` is neither.
/// Config values show their declared defaults; no environment note is added.
pub fn skill_invocation(catalog: &SkillCatalog, name: &str, args: &str) -> Option<String> {
    skill_invocation_with(catalog, name, args, None)
}

/// `skill_invocation` with environment and config lookups.
pub fn skill_invocation_with(
    catalog: &SkillCatalog,
    name: &str,
    args: &str,
    ctx: Option<&InvocationContext<'_>>,
) -> Option<String> {
    if let Some(bundle) = catalog.bundle(name) {
        return Some(bundle_invocation(catalog, bundle, args, ctx));
    }
    let skill = catalog.get(name)?;
    let note = format!(
        "[IMPORTANT: The user has invoked the \"{}\" skill, indicating they want you to follow its \
         instructions. The full skill content is loaded below.]",
        skill.name
    );
    let mut message = skill_block(skill, &note, ctx);
    let args = args.trim();
    if !args.is_empty() {
        message.push_str("\n\n");
        message.push_str(INSTRUCTION_LEAD);
        message.push_str(args);
    }
    Some(message)
}

/// The user message for a bundle: a header (skills loaded, skills missing, the bundle's
/// instruction, the user's instruction) followed by one block per resolvable skill.
pub fn bundle_invocation(
    catalog: &SkillCatalog,
    bundle: &Bundle,
    args: &str,
    ctx: Option<&InvocationContext<'_>>,
) -> String {
    let mut loaded: Vec<&Skill> = Vec::new();
    let mut missing: Vec<&str> = Vec::new();
    for id in &bundle.skills {
        match catalog.get(id) {
            Some(skill) if !loaded.iter().any(|s| s.name == skill.name) => loaded.push(skill),
            Some(_) => {}
            None => missing.push(id),
        }
    }
    let names: Vec<&str> = loaded.iter().map(|s| s.name.as_str()).collect();
    let mut header = vec![
        format!(
            "[IMPORTANT: The user has invoked the \"{}\" skill bundle, loading {} skills together. \
             Treat every skill below as active guidance for this turn.]",
            bundle.name,
            loaded.len()
        ),
        String::new(),
        format!(
            "Skills loaded: {}",
            if names.is_empty() {
                "(none)".to_string()
            } else {
                names.join(", ")
            }
        ),
    ];
    if !missing.is_empty() {
        header.push(format!("Skills missing (skipped): {}", missing.join(", ")));
    }
    if let Some(instruction) = &bundle.instruction {
        header.push(String::new());
        header.push(format!("Bundle instruction: {instruction}"));
    }
    let args = args.trim();
    if !args.is_empty() {
        header.push(String::new());
        header.push(format!("User instruction: {args}"));
    }
    let mut parts = vec![header.join("\n")];
    for skill in loaded {
        let note = format!(
            "[Loaded as part of the \"{}\" skill bundle: skill \"{}\".]",
            bundle.name, skill.name
        );
        parts.push(skill_block(skill, &note, ctx));
    }
    parts.join("\n\n")
}

/// (command without `/`, description) for every bundle and listed skill, sorted by command,
/// for the TUI's completion. A skill whose slug a bundle (or an earlier skill) already uses
/// is left out, as dispatch would never reach it.
pub fn slash_names(catalog: &SkillCatalog) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for bundle in catalog.bundles() {
        let description = bundle
            .description
            .clone()
            .unwrap_or_else(|| format!("Skill bundle: {}", bundle.skills.join(", ")));
        out.push((bundle.slug.clone(), description));
    }
    for skill in catalog.list() {
        let slug = slugify(&skill.name);
        if slug.is_empty() || out.iter().any(|(s, _)| *s == slug) {
            continue;
        }
        let description = if skill.description.is_empty() {
            format!("Invoke the {} skill", skill.name)
        } else {
            skill.description.clone()
        };
        out.push((slug, description));
    }
    out.sort();
    out
}

/// The declared, non-optional variables of `skill` that `env` has no non-empty value for, in
/// declaration order. The TUI asks for these with a masked prompt when the skill is loaded
/// locally.
pub fn missing_env(skill: &Skill, env: &dyn Fn(&str) -> Option<String>) -> Vec<RequiredEnv> {
    skill
        .meta
        .required_env
        .iter()
        .filter(|r| !r.optional && env(&r.name).is_none_or(|v| v.trim().is_empty()))
        .cloned()
        .collect()
}

/// One skill rendered for a user message under `note`.
fn skill_block(skill: &Skill, note: &str, ctx: Option<&InvocationContext<'_>>) -> String {
    let dir = skill.dir.display().to_string();
    let home = ctx.map_or("~/.hermes", |c| c.home_display);
    let mut parts = vec![
        note.to_string(),
        String::new(),
        skill.body.trim().to_string(),
        String::new(),
        format!("[Skill directory: {dir}]"),
        SKILL_DIR_NOTE.to_string(),
    ];
    if !skill.meta.config.is_empty() {
        parts.push(String::new());
        parts.push(format!("[Skill config (from {home}/config.yaml):"));
        for setting in &skill.meta.config {
            let value = ctx
                .and_then(|c| (c.config)(&setting.key))
                .or_else(|| setting.default.clone())
                .filter(|v| !v.is_empty())
                .unwrap_or_else(|| "(not set)".to_string());
            parts.push(format!("  {} = {value}", setting.key));
        }
        parts.push("]".to_string());
    }
    if let Some(ctx) = ctx {
        let missing = missing_env(skill, ctx.env);
        if !missing.is_empty() {
            let names: Vec<String> = missing
                .iter()
                .map(|r| match &r.prompt {
                    Some(p) => format!("{} ({p})", r.name),
                    None => r.name.clone(),
                })
                .collect();
            parts.push(String::new());
            parts.push(format!(
                "[Skill setup note: Required environment variables are not set: {}. Continue with \
                 the skill and explain any reduced functionality; the user can add them to \
                 {home}/.env.]",
                names.join(", ")
            ));
        }
    }
    let files = skill.supporting_files();
    if !files.is_empty() {
        parts.push(String::new());
        parts.push(
            "[This skill has supporting files (paths relative to the skill directory above):]"
                .to_string(),
        );
        parts.extend(files.iter().map(|f| format!("- {f}")));
        parts.push(format!(
            "\nLoad any of these with skill_view(name=\"{}\", file_path=\"<path>\"), or run scripts \
             directly by absolute path.",
            skill.name
        ));
    }
    parts.join("\n")
}

#[cfg(test)]
#[path = "invoke_tests.rs"]
mod tests;
