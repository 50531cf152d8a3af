//! `stt.provider: local_command` — any CLI as the speech-to-text engine (spec-002c §3.8,
//! "Custom local CLI").
//!
//! The recording is written to a private temp directory as `input.wav`; the command template
//! (`stt.local_command.command`, else `HERMES_LOCAL_STT_COMMAND`) runs through the shell with
//! `{input_path}`, `{output_dir}`, `{language}` and `{model}` replaced by shell-quoted values
//! (`{{`/`}}` are literal braces). The transcript is the first `.txt` file (by path) the
//! command wrote under `{output_dir}` — Hermes's contract — or else its stdout.
//! Invariants: the command runs in its own process group and the whole group is killed when it
//! times out or the call is dropped; the temp directory is removed in every case; stdout and
//! stderr are read concurrently (a chatty stderr cannot block the command).

use crate::util::temp_dir::PrivateTempDir;
use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};

use super::{SttError, excerpt, wav_bytes};
use crate::util::process::{StdinMode, kill_group, spawn};

/// The timeout used when the config says 0.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);
const STDOUT_CAP: u64 = 1024 * 1024;
const STDERR_CAP: u64 = 64 * 1024;
const OUTPUT_EXCERPT: usize = 400;

/// A configured command.
#[derive(Debug, Clone)]
pub struct CommandTranscriber {
    template: String,
    timeout: Duration,
    language: String,
    model: String,
}

impl CommandTranscriber {
    /// `template` with placeholders; `language` and `model` fill `{language}` and `{model}`.
    pub fn new(template: &str, timeout: Duration, language: &str, model: &str) -> Self {
        Self {
            template: template.trim().to_string(),
            timeout: if timeout.is_zero() {
                DEFAULT_TIMEOUT
            } else {
                timeout
            },
            language: language.trim().to_string(),
            model: model.trim().to_string(),
        }
    }

    pub fn describe(&self) -> String {
        format!("local command `{}`", self.template)
    }

    /// Runs the command on `samples` and returns its transcript.
    pub async fn transcribe(&self, samples: &[i16]) -> Result<String, SttError> {
        let work = PrivateTempDir::create("hermes-stt").map_err(|source| SttError::Io {
            path: std::env::temp_dir(),
            source,
        })?;
        let input = work.path().join("input.wav");
        let output_dir = work.path().join("out");
        let wav = wav_bytes(samples)?;
        tokio::fs::write(&input, wav)
            .await
            .map_err(|source| SttError::Io {
                path: input.clone(),
                source,
            })?;
        tokio::fs::create_dir(&output_dir)
            .await
            .map_err(|source| SttError::Io {
                path: output_dir.clone(),
                source,
            })?;
        let command = render(
            &self.template,
            &[
                ("input_path", &input.to_string_lossy()),
                ("output_dir", &output_dir.to_string_lossy()),
                ("language", &self.language),
                ("model", &self.model),
            ],
        );
        let stdout = self.run(&command, work.path()).await?;
        match first_txt(&output_dir) {
            Some(path) => tokio::fs::read_to_string(&path)
                .await
                .map_err(|source| SttError::Io { path, source }),
            None => Ok(stdout),
        }
    }

    async fn run(&self, command: &str, cwd: &Path) -> Result<String, SttError> {
        let mut child =
            spawn(command, cwd, StdinMode::Null, &[]).map_err(|e| SttError::CommandSpawn {
                command: self.template.clone(),
                detail: e.to_string(),
            })?;
        let mut group = KillGroupOnDrop(child.id());
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let finished = async {
            let (out, err, status) = tokio::join!(
                read_capped(stdout, STDOUT_CAP),
                read_capped(stderr, STDERR_CAP),
                child.wait()
            );
            (out, err, status)
        };
        let Ok((stdout, stderr, status)) = tokio::time::timeout(self.timeout, finished).await
        else {
            group.kill_now();
            return Err(SttError::CommandTimeout {
                command: self.template.clone(),
                secs: self.timeout.as_secs(),
            });
        };
        group.0 = None; // exited by itself
        let status = status.map_err(|e| SttError::CommandSpawn {
            command: self.template.clone(),
            detail: e.to_string(),
        })?;
        if !status.success() {
            let shown = if stderr.trim().is_empty() {
                &stdout
            } else {
                &stderr
            };
            return Err(SttError::CommandFailed {
                command: self.template.clone(),
                status: describe_status(status),
                output: excerpt(shown, OUTPUT_EXCERPT),
            });
        }
        Ok(stdout)
    }
}

/// Replaces `{name}` placeholders by shell-quoted values; `{{` and `}}` are literal braces;
/// unknown `{…}` stays as written.
pub fn render(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 64);
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            out.push_str(&tail[..1]);
            rest = &tail[2..];
            continue;
        }
        if let Some(close) = tail.find('}').filter(|_| tail.starts_with('{')) {
            let name = &tail[1..close];
            if let Some((_, value)) = values.iter().find(|(k, _)| *k == name) {
                out.push_str(&quote(value));
                rest = &tail[close + 1..];
                continue;
            }
        }
        out.push_str(&tail[..1]);
        rest = &tail[1..];
    }
    out.push_str(rest);
    out
}

fn quote(value: &str) -> String {
    let clean: String = value.chars().filter(|&c| c != '\0').collect();
    match shlex::try_quote(&clean) {
        Ok(quoted) => quoted.into_owned(),
        Err(_) => format!("'{}'", clean.replace('\'', "'\\''")),
    }
}

/// The first `.txt` file under `dir`, by path.
fn first_txt(dir: &Path) -> Option<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&current) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            match entry.file_type() {
                Ok(t) if t.is_dir() => pending.push(path),
                Ok(t) if t.is_file() && path.extension().is_some_and(|e| e == "txt") => {
                    found.push(path);
                }
                _ => {}
            }
        }
    }
    found.sort();
    found.into_iter().next()
}

fn describe_status(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit code {code}"),
        (None, Some(signal)) => format!("killed by signal {signal}"),
        _ => status.to_string(),
    }
}

/// Reads up to `cap` bytes (lossy UTF-8), then drains the rest so the child never blocks.
async fn read_capped<R: AsyncRead + Unpin>(reader: Option<R>, cap: u64) -> String {
    let Some(reader) = reader else {
        return String::new();
    };
    let mut kept = Vec::new();
    let mut limited = reader.take(cap);
    let _ = limited.read_to_end(&mut kept).await;
    let _ = tokio::io::copy(&mut limited.into_inner(), &mut tokio::io::sink()).await;
    String::from_utf8_lossy(&kept).into_owned()
}

/// SIGKILLs the command's process group when dropped while armed.
struct KillGroupOnDrop(Option<u32>);

impl KillGroupOnDrop {
    fn kill_now(&mut self) {
        if let Some(pid) = self.0.take() {
            kill_group(pid);
        }
    }
}

impl Drop for KillGroupOnDrop {
    fn drop(&mut self) {
        self.kill_now();
    }
}

#[cfg(test)]
#[path = "command_tests.rs"]
mod tests;
