//! The texts of a run, in Hermes's words: the prompt a job's session receives (the cron hint,
//! script output or error, `context_from` outputs, skills), whether a response is `[SILENT]`,
//! the wrapper around delivered text, the failure summary, and the output document.
//!
//! What it does not do: read files other than `context_from`'s latest output, or run
//! anything. Invariants: the hint and headings are byte-for-byte Hermes's, so models tuned on
//! Hermes behave the same.

use std::path::Path;

use super::Job;

pub const SILENT_MARKER: &str = "[SILENT]";
/// `context_from` output kept per job.
const CONTEXT_CHARS: usize = 8000;

const CRON_HINT: &str = "[IMPORTANT: You are running as a scheduled cron job. DELIVERY: Your \
final response will be automatically delivered to the user — do NOT use send_message or try to \
deliver the output yourself. Just produce your report/output as your final response and the \
system handles the rest. SILENT: If there is genuinely nothing new to report, respond with \
exactly \"[SILENT]\" (nothing else) to suppress delivery. Never combine [SILENT] with content — \
either report your findings normally, or say [SILENT] and nothing more.]\n\n";

/// The prompt before skills are loaded, and whether data was injected into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltPrompt {
    pub text: String,
    pub has_injected_data: bool,
}

/// Hermes's `_build_job_prompt` up to the skills: `script` is the pre-run script's result.
/// `None` when the script succeeded with no output (nothing to do: a silent run).
pub fn build(
    job: &Job,
    script: Option<&Result<String, String>>,
    output_dir: &Path,
) -> Option<BuiltPrompt> {
    let mut prompt = job.prompt().to_string();
    let mut injected = false;
    match script {
        Some(Ok(out)) if out.is_empty() => return None,
        Some(Ok(out)) => {
            prompt = format!(
                "## Script Output\nThe following data was collected by a pre-run script. Use it \
                 as context for your analysis.\n\n```\n{out}\n```\n\n{prompt}"
            );
            injected = true;
        }
        Some(Err(err)) => {
            prompt = format!(
                "## Script Error\nThe data-collection script failed. Report this to the \
                 user.\n\n```\n{err}\n```\n\n{prompt}"
            );
            injected = true;
        }
        None => {}
    }
    for source in job.context_from() {
        if source.is_empty() || !source.chars().all(|c| c.is_ascii_hexdigit()) {
            continue;
        }
        let Some(latest) = super::output::latest(output_dir, &source) else {
            continue;
        };
        let mut text = latest.trim().to_string();
        if text.chars().count() > CONTEXT_CHARS {
            text = text.chars().take(CONTEXT_CHARS).collect::<String>()
                + "\n\n[... output truncated ...]";
        }
        if text.is_empty() {
            continue;
        }
        prompt = format!(
            "## Output from job '{source}'\nThe following is the most recent output from a \
             preceding cron job. Use it as context for your analysis.\n\n```\n{text}\n```\n\n\
             {prompt}"
        );
        injected = true;
    }
    Some(BuiltPrompt {
        text: format!("{CRON_HINT}{prompt}"),
        has_injected_data: injected,
    })
}

/// A skill as loaded for a run: its name and `SKILL.md` content, or why it is missing.
pub type LoadedSkill = (String, Result<String, String>);

/// Hermes's skill assembly: each skill's content under its invocation line, a notice for
/// skills that could not be loaded, then the prompt as the instruction.
pub fn with_skills(prompt: &str, skills: &[LoadedSkill]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut skipped: Vec<&str> = Vec::new();
    for (name, loaded) in skills {
        match loaded {
            Ok(content) => {
                if !parts.is_empty() {
                    parts.push(String::new());
                }
                parts.push(format!(
                    "[IMPORTANT: The user has invoked the \"{name}\" skill, indicating they want \
                     you to follow its instructions. The full skill content is loaded below.]"
                ));
                parts.push(String::new());
                parts.push(content.trim().to_string());
            }
            Err(_) => skipped.push(name),
        }
    }
    if !skipped.is_empty() {
        let list = skipped.join(", ");
        parts.insert(
            0,
            format!(
                "[IMPORTANT: The following skill(s) were listed for this job but could not be \
                 found and were skipped: {list}. Start your response with a brief notice so the \
                 user is aware, e.g.: '⚠️ Skill(s) not found and skipped: {list}']"
            ),
        );
    }
    if !prompt.is_empty() {
        parts.push(String::new());
        parts.push(format!(
            "The user has provided the following instruction alongside the skill invocation: \
             {prompt}"
        ));
    }
    parts.join("\n")
}

/// Whether a response asks for no delivery: `[SILENT]`, `SILENT`, `NO_REPLY` or `NO REPLY`
/// as the whole answer, its first or last line, or `[SILENT]` as its start.
pub fn is_silent(response: &str) -> bool {
    let text = response.trim();
    if text.is_empty() {
        return false;
    }
    let marker = |line: &str| {
        let line = line.trim().trim_matches(|c| c == '*' || c == '`').trim();
        matches!(
            line.to_uppercase().as_str(),
            "[SILENT]" | "SILENT" | "NO_REPLY" | "NO REPLY"
        )
    };
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    marker(text)
        || lines.first().is_some_and(|l| marker(l))
        || lines.last().is_some_and(|l| marker(l))
        || text.to_uppercase().starts_with(SILENT_MARKER)
}

/// The delivered form of a response: wrapped unless `cron.wrap_response` is off.
pub fn wrap(job_name: &str, text: &str, wrap_response: bool) -> String {
    if !wrap_response {
        return text.to_string();
    }
    format!(
        "Cronjob Response: {job_name}\n-------------\n\n{text}\n\nNote: The agent cannot see \
         this message, and therefore cannot respond to it."
    )
}

/// What a failed run delivers (it always delivers).
pub fn failure_summary(job_name: &str, error: &str) -> String {
    let first = error
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or(error);
    let short: String = first.chars().take(300).collect();
    format!("⚠️ Cron '{job_name}' failed: {short}")
}

/// The output document of an agent run (`# Cron Job: …`), successful or failed.
pub fn agent_document(job: &Job, run_time: &str, response: &str, error: Option<&str>) -> String {
    let name = job.name();
    let head = format!(
        "# Cron Job: {name}{}\n\n**Job ID:** {}\n**Run Time:** {run_time}\n**Schedule:** {}\n\n\
         ## Prompt\n\n{}\n\n",
        if error.is_some() { " (FAILED)" } else { "" },
        job.id(),
        job.schedule_display(),
        job.prompt()
    );
    match error {
        Some(err) => format!("{head}## Error\n\n```\n{err}\n```\n"),
        None => format!("{head}## Response\n\n{response}\n"),
    }
}

/// The output document of a no-agent (script) run; `status` is e.g. `script failed`.
pub fn script_document(job: &Job, run_time: &str, status: Option<&str>, body: &str) -> String {
    let mut doc = format!(
        "# Cron Job: {}\n\n**Job ID:** {}\n**Run Time:** {run_time}\n**Mode:** no_agent (script)\n",
        job.name(),
        job.id()
    );
    match status {
        Some(status) => {
            doc.push_str(&format!("**Status:** {status}\n"));
            if !body.is_empty() {
                doc.push_str(&format!("\n{body}\n"));
            }
        }
        None => doc.push_str(&format!("\n---\n\n{body}\n")),
    }
    doc
}

#[cfg(test)]
#[path = "prompt_tests.rs"]
mod tests;
