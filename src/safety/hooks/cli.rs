//! `hermes hooks list | test | revoke | doctor` as library functions returning the text to
//! print (main.rs owns the clap wiring and the printing).
//!
//! `list` and `doctor` never fail: problems are part of their report. `test` fires the hooks
//! of one event with a synthetic payload *regardless of consent* (it is an explicit user
//! action, as in Hermes); `doctor` runs a hook only when it is already allowlisted, so a
//! freshly pulled config is never executed before the user reviewed it. Neither `test` nor
//! `doctor` records consent. `revoke` edits the allowlist; running sessions keep the consent
//! they already have until they restart.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::command;
use super::config::{HookSpec, parse_hooks};
use super::consent::{ConsentEntry, ConsentError, ConsentStore, format_iso, parse_iso};
use super::event::HookEvent;
use super::exec::{self, HookResponse, RunOutcome, RunStatus};
use super::synthetic::Synthetic;
use crate::config::home::HermesHome;
use crate::config::schema::Config;

/// How much of a hook's output `test` quotes.
const SHOW_LIMIT: usize = 400;

/// Why a `hermes hooks` command could not do its job.
#[derive(Debug, thiserror::Error)]
pub enum HooksCliError {
    /// `source` names the event and suggests or lists the valid ones.
    #[error("{source}")]
    UnknownEvent {
        #[source]
        source: super::EventNameError,
        valid: String,
    },
    #[error("cannot read payload file {path}: {source}")]
    PayloadRead {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("payload file {path} is not valid JSON: {source}")]
    PayloadJson {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error("payload file {path} must contain a JSON object")]
    PayloadNotObject { path: PathBuf },
    #[error(transparent)]
    Consent(#[from] ConsentError),
}

/// Configured hooks by event, with matcher, timeout, consent status and config warnings.
pub async fn list(home: &HermesHome, config: &Config) -> String {
    let (specs, warnings) = parse_hooks(&config.hooks);
    let store = ConsentStore::load_from(home);
    let cwd = session_cwd(home);
    let mut out = String::new();
    if specs.is_empty() {
        let _ = writeln!(
            out,
            "No shell hooks configured in {}.",
            home.config_path().display()
        );
    } else {
        let _ = writeln!(out, "Configured shell hooks ({} total):", specs.len());
        for event in HookEvent::ALL {
            let group: Vec<&HookSpec> = specs.iter().filter(|s| s.event == event).collect();
            if group.is_empty() {
                continue;
            }
            let _ = writeln!(out, "\n  [{event}]");
            for spec in group {
                let entry = store.entry(spec.event, &spec.command);
                let status = if entry.is_some() {
                    "✓ allowed"
                } else {
                    "✗ not allowlisted"
                };
                let _ = writeln!(
                    out,
                    "    - {}{} (timeout={}, {status})",
                    spec.command,
                    matcher_part(spec),
                    seconds(spec.timeout.as_secs_f64())
                );
                if let Some(entry) = entry {
                    if let Some(at) = &entry.approved_at {
                        let _ = writeln!(out, "      approved_at: {at}");
                    }
                    if let Drift::Changed { was, now } = drift(&entry, &spec.command, &cwd) {
                        let _ = writeln!(
                            out,
                            "      ⚠ script modified since approval (was {was}, now {now}): \
                             run `hermes hooks doctor`"
                        );
                    }
                }
            }
        }
    }
    write_warnings(&mut out, &warnings);
    out
}

/// Fires every hook for `event` (matching `for_tool` on tool events) with a synthetic payload,
/// merged with `payload_file`'s object, and reports what each one did.
pub async fn test(
    home: &HermesHome,
    config: &Config,
    event: &str,
    for_tool: Option<&str>,
    payload_file: Option<&Path>,
) -> Result<String, HooksCliError> {
    let event = HookEvent::parse(event).map_err(|source| HooksCliError::UnknownEvent {
        source,
        valid: HookEvent::valid_list(),
    })?;
    let mut synthetic = Synthetic::for_event(event);
    if let Some(tool) = for_tool.filter(|_| event.is_tool_event()) {
        synthetic.tool_name = Some(tool.to_owned());
    }
    if let Some(path) = payload_file {
        synthetic.merge(read_payload_file(path)?);
    }
    let (specs, warnings) = parse_hooks(&config.hooks);
    let store = ConsentStore::load_from(home);
    let cwd = session_cwd(home);
    let tool = synthetic.tool_name.clone().unwrap_or_default();
    let selected: Vec<&HookSpec> = specs
        .iter()
        .filter(|s| s.event == event && (!event.is_tool_event() || s.matches_tool(&tool)))
        .collect();
    let mut out = String::new();
    if selected.is_empty() {
        let _ = write!(out, "No shell hooks configured for {event}");
        if event.is_tool_event() {
            let _ = write!(out, " matching tool `{tool}`");
        }
        out.push_str(".\n");
    } else {
        let _ = writeln!(out, "Firing {} hook(s) for {event}:", selected.len());
    }
    for spec in selected {
        let consent = if store.is_allowed(spec.event, &spec.command) {
            ""
        } else {
            "  (not allowlisted: fired for this test only)"
        };
        let _ = writeln!(out, "\n  → {}{consent}", spec.command);
        let outcome = exec::run(spec, &synthetic.payload(event, &cwd), &cwd).await;
        describe_run(&mut out, spec, &outcome);
    }
    write_warnings(&mut out, &warnings);
    Ok(out)
}

/// Removes every allowlist entry for `command`.
pub fn revoke(home: &HermesHome, command: &str) -> Result<String, HooksCliError> {
    let mut store = ConsentStore::load_from(home);
    let removed = store.revoke(command)?;
    Ok(if removed == 0 {
        format!("No allowlist entry found for: {command}\n")
    } else {
        format!(
            "Removed {removed} allowlist entr{} for: {command}\nRunning sessions keep the \
             consent they already have until they restart.\n",
            if removed == 1 { "y" } else { "ies" }
        )
    })
}

/// Checks each hook: program present and executable, consent, script drift since consent, and
/// (allowlisted hooks only) a smoke run on a synthetic payload.
pub async fn doctor(home: &HermesHome, config: &Config) -> String {
    let (specs, warnings) = parse_hooks(&config.hooks);
    let store = ConsentStore::load_from(home);
    let cwd = session_cwd(home);
    let mut out = String::new();
    let mut problems = warnings.len();
    write_warnings(&mut out, &warnings);
    if specs.is_empty() {
        out.push_str("No shell hooks configured: nothing to check.\n");
        return out;
    }
    let _ = writeln!(out, "Checking {} configured shell hook(s)...", specs.len());
    for spec in &specs {
        let _ = writeln!(
            out,
            "\n  [{}] {}{}",
            spec.event,
            spec.command,
            matcher_part(spec)
        );
        problems += doctor_one(&mut out, spec, &store, &cwd).await;
    }
    out.push('\n');
    if problems == 0 {
        out.push_str("All shell hooks look healthy.\n");
    } else {
        let _ = writeln!(out, "{problems} issue(s) found.");
    }
    out
}

async fn doctor_one(out: &mut String, spec: &HookSpec, store: &ConsentStore, cwd: &Path) -> usize {
    let mut problems = 0;
    let runnable = match command::program_path(&spec.command, cwd) {
        Ok(path) if command::is_executable(&path) => {
            let _ = writeln!(
                out,
                "      ✓ program {} exists and is executable",
                path.display()
            );
            true
        }
        Ok(path) if path.exists() => {
            problems += bad(
                out,
                format!("program {} is not executable (chmod +x)", path.display()),
            );
            false
        }
        Ok(path) => {
            problems += bad(out, format!("program {} not found", path.display()));
            false
        }
        Err(cause) => {
            problems += bad(out, format!("program not found: {cause}"));
            false
        }
    };
    let script = command::script_path(&spec.command, cwd);
    let program = command::program_path(&spec.command, cwd).ok();
    if let Some(script) = script.filter(|s| Some(s) != program.as_ref())
        && !script.is_file()
    {
        problems += bad(out, format!("script {} not found", script.display()));
    }
    let entry = store.entry(spec.event, &spec.command);
    let Some(entry) = entry else {
        problems += bad(
            out,
            "not allowlisted: it will not run until you consent (interactive prompt, or \
             --accept-hooks / HERMES_ACCEPT_HOOKS=1 / hooks_auto_accept: true)"
                .to_owned(),
        );
        let _ = writeln!(
            out,
            "      ℹ smoke test skipped: approve the hook first, then re-run doctor"
        );
        return problems;
    };
    let approved = entry.approved_at.as_deref().unwrap_or("?");
    let _ = writeln!(out, "      ✓ allowlisted (approved {approved})");
    match drift(&entry, &spec.command, cwd) {
        Drift::Changed { was, now } => {
            problems += 1;
            let _ = writeln!(
                out,
                "      ⚠ script modified since approval (was {was}, now {now}): review it, then \
                 `hermes hooks revoke` and re-approve"
            );
        }
        Drift::Unchanged => {
            let _ = writeln!(out, "      ✓ script unchanged since approval");
        }
        Drift::Unknown => {}
    }
    if !runnable {
        return problems;
    }
    let outcome = exec::run(
        spec,
        &Synthetic::for_event(spec.event).payload(spec.event, cwd),
        cwd,
    )
    .await;
    let elapsed = seconds(outcome.elapsed.as_secs_f64());
    let stdout = outcome.stdout.trim();
    match &outcome.status {
        RunStatus::TimedOut => {
            problems += bad(
                out,
                format!(
                    "timed out on a synthetic payload (timeout={})",
                    seconds(spec.timeout.as_secs_f64())
                ),
            )
        }
        RunStatus::SpawnFailed(cause) => problems += bad(out, format!("failed to run: {cause}")),
        RunStatus::Exited(code) => {
            let exit = code.map_or_else(|| "signal".to_owned(), |c| c.to_string());
            if *code != Some(0) {
                problems += bad(
                    out,
                    format!("exited with {exit} on a synthetic payload ({elapsed})"),
                );
            }
            if stdout.is_empty() {
                let _ = writeln!(
                    out,
                    "      ✓ ran with empty stdout (exit={exit}, {elapsed}): observer-only"
                );
            } else if serde_json::from_str::<Value>(stdout).is_ok() {
                let _ = writeln!(out, "      ✓ printed valid JSON (exit={exit}, {elapsed})");
            } else {
                problems += bad(
                    out,
                    format!(
                        "stdout is not valid JSON (exit={exit}, {elapsed}): {}",
                        clip(stdout, 120)
                    ),
                );
            }
        }
    }
    problems
}

enum Drift {
    Changed { was: String, now: String },
    Unchanged,
    Unknown,
}

/// Whether the script changed since consent, by mtime.
fn drift(entry: &ConsentEntry, command: &str, cwd: &Path) -> Drift {
    let now = command::script_path(command, cwd)
        .and_then(|p| command::mtime(&p))
        .map(format_iso);
    let (Some(was), Some(now)) = (entry.script_mtime_at_approval.clone(), now) else {
        return Drift::Unknown;
    };
    match (parse_iso(&was), parse_iso(&now)) {
        (Some(a), Some(b)) if b > a => Drift::Changed { was, now },
        (Some(a), Some(b)) if a == b => Drift::Unchanged,
        _ => Drift::Unknown,
    }
}

/// Writes a `✗` line; counts as one problem.
fn bad(out: &mut String, line: String) -> usize {
    let _ = writeln!(out, "      ✗ {line}");
    1
}

fn describe_run(out: &mut String, spec: &HookSpec, outcome: &RunOutcome) {
    let elapsed = seconds(outcome.elapsed.as_secs_f64());
    match &outcome.status {
        RunStatus::SpawnFailed(cause) => {
            let _ = writeln!(out, "      ✗ failed to run: {cause}");
            return;
        }
        RunStatus::TimedOut => {
            let _ = writeln!(out, "      ✗ timed out after {elapsed} (killed)");
            return;
        }
        RunStatus::Exited(code) => {
            let exit = code.map_or_else(|| "signal".to_owned(), |c| c.to_string());
            let _ = writeln!(out, "      exit={exit}  elapsed={elapsed}");
        }
    }
    for (name, text) in [("stdout", &outcome.stdout), ("stderr", &outcome.stderr)] {
        let text = text.trim();
        if !text.is_empty() {
            let _ = writeln!(out, "      {name}: {}", clip(text, SHOW_LIMIT));
        }
    }
    let parsed = match exec::parse_response(spec.event, &outcome.stdout) {
        Ok(HookResponse::Block(message)) => format!("block: {message}"),
        Ok(HookResponse::Context(context)) => format!("context: {}", clip(&context, SHOW_LIMIT)),
        Ok(HookResponse::Nothing) => "nothing (the hook contributes nothing)".to_owned(),
        Err(problem) => format!("invalid: {problem}"),
    };
    let _ = writeln!(out, "      parsed: {parsed}");
}

fn read_payload_file(path: &Path) -> Result<Map<String, Value>, HooksCliError> {
    let text = std::fs::read_to_string(path).map_err(|source| HooksCliError::PayloadRead {
        path: path.to_path_buf(),
        source,
    })?;
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(HooksCliError::PayloadNotObject {
            path: path.to_path_buf(),
        }),
        Err(source) => Err(HooksCliError::PayloadJson {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Where `test`/`doctor` run hooks: the current directory, else the hermes home.
fn session_cwd(home: &HermesHome) -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| home.root().to_path_buf())
}

fn write_warnings(out: &mut String, warnings: &[String]) {
    if warnings.is_empty() {
        return;
    }
    out.push_str("\nConfig warnings:\n");
    for warning in warnings {
        let _ = writeln!(out, "  ⚠ {warning}");
    }
}

fn matcher_part(spec: &HookSpec) -> String {
    spec.matcher_pattern()
        .map(|m| format!(" matcher={m:?}"))
        .unwrap_or_default()
}

fn seconds(secs: f64) -> String {
    if secs.fract() == 0.0 {
        format!("{secs:.0}s")
    } else {
        format!("{secs:.2}s")
    }
}

fn clip(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
#[path = "cli_tests.rs"]
mod tests;
