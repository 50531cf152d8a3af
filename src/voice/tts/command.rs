//! `type: command` TTS providers (spec-002c §4.8): the text goes to a temporary UTF-8 file,
//! the user's command template is filled in ([`super::template`]) and run as `sh -c` in its
//! own process group, and the audio file it wrote is decoded to a [`Clip`].
//!
//! On timeout (default 120 s) or cancellation the whole process group is killed, not only the
//! shell; dropping the future kills it too. A non-zero exit, a missing or empty output file, or
//! a timeout is an error carrying the command's stderr/stdout. The temporary directory is
//! removed afterwards whatever happened. Not here: choosing the provider, caching.

use crate::util::temp_dir::PrivateTempDir;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::AsyncRead;
use tokio::io::AsyncReadExt;
use tokio_util::sync::CancellationToken;

use super::SynthError;
use super::decode;
use super::template;
use crate::voice::audio::Clip;

/// Output kept from each of stdout and stderr for error messages.
const OUTPUT_LIMIT: usize = 4096;

/// One configured command provider.
#[derive(Debug, Clone, PartialEq)]
pub struct CommandTts {
    /// The `tts.providers.<name>` key.
    pub name: String,
    pub command: String,
    /// `wav`, `mp3`, `ogg` or `flac` (lower case).
    pub format: String,
    pub timeout: Duration,
    pub voice: String,
    pub model: String,
    /// The resolved speed multiplier.
    pub speed: f64,
}

impl CommandTts {
    /// Run the command on `text` and decode what it wrote.
    pub async fn synthesize(
        &self,
        text: &str,
        cancel: &CancellationToken,
    ) -> Result<Clip, SynthError> {
        let dir =
            PrivateTempDir::create("hermes-tts").map_err(|e| self.io_error(&e.to_string()))?;
        let input = dir.path().join("input.txt");
        let output = dir.path().join(format!("speech.{}", self.format));
        tokio::fs::write(&input, text.as_bytes())
            .await
            .map_err(|e| self.io_error(&format!("{}: {e}", input.display())))?;
        let input_text = input.display().to_string();
        let output_text = output.display().to_string();
        let speed = speed_text(self.speed);
        let values = [
            ("input_path", input_text.as_str()),
            ("text_path", input_text.as_str()),
            ("output_path", output_text.as_str()),
            ("text", text),
            ("format", self.format.as_str()),
            ("voice", self.voice.as_str()),
            ("model", self.model.as_str()),
            ("speed", speed.as_str()),
        ];
        let rendered = template::render(&self.command, &values);
        self.run(&rendered, dir.path(), cancel).await?;
        let size = tokio::fs::metadata(&output).await.map(|m| m.len());
        if !matches!(size, Ok(n) if n > 0) {
            return Err(self.failure("it wrote no audio to {output_path}".into()));
        }
        let format = self.format.clone();
        let decoded =
            tokio::task::spawn_blocking(move || decode::decode_file(&output, &format)).await;
        match decoded {
            Ok(Ok(clip)) => Ok(clip),
            Ok(Err(err)) => Err(SynthError::Decode {
                provider: self.name.clone(),
                path: format!("its {} output", self.format),
                detail: err.to_string(),
            }),
            Err(e) => Err(self.io_error(&format!("decoding task failed: {e}"))),
        }
    }

    async fn run(
        &self,
        rendered: &str,
        cwd: &Path,
        cancel: &CancellationToken,
    ) -> Result<(), SynthError> {
        let mut child = tokio::process::Command::new("sh")
            .arg("-c")
            .arg(rendered)
            .current_dir(cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| self.failure(format!("cannot start sh: {e}")))?;
        let mut group = GroupGuard(child.id());
        let stdout = child.stdout.take().map(|r| tokio::spawn(read_capped(r)));
        let stderr = child.stderr.take().map(|r| tokio::spawn(read_capped(r)));
        let status = tokio::select! {
            status = child.wait() => Some(status),
            () = tokio::time::sleep(self.timeout) => None,
            () = cancel.cancelled() => {
                group.kill();
                return Err(SynthError::Cancelled);
            }
        };
        if status.is_none() {
            group.kill();
        }
        let _ = child.wait().await;
        // Reaped: the pid may be reused from here on, so never signal its group again.
        group.0 = None;
        let output = collect_output(stdout, stderr).await;
        match status {
            None => Err(SynthError::Timeout {
                provider: self.name.clone(),
                command: self.command.clone(),
                secs: self.timeout.as_secs(),
                output: if output.is_empty() {
                    String::new()
                } else {
                    format!(": {output}")
                },
            }),
            Some(Err(e)) => Err(self.failure(format!("waiting for it failed: {e}"))),
            Some(Ok(status)) if !status.success() => {
                let code = status
                    .code()
                    .map_or_else(|| "a signal".to_string(), |c| format!("code {c}"));
                let detail = if output.is_empty() {
                    format!("exited with {code}")
                } else {
                    format!("exited with {code}: {output}")
                };
                Err(self.failure(detail))
            }
            Some(Ok(_)) => Ok(()),
        }
    }

    fn failure(&self, detail: String) -> SynthError {
        SynthError::Command {
            provider: self.name.clone(),
            command: self.command.clone(),
            detail,
        }
    }

    fn io_error(&self, detail: &str) -> SynthError {
        self.failure(detail.to_string())
    }
}

/// `1.0` → `1.0`, `1.25` → `1.25` (as Python prints a float).
fn speed_text(speed: f64) -> String {
    if speed.fract() == 0.0 {
        format!("{speed:.1}")
    } else {
        speed.to_string()
    }
}

/// Kills the process group on drop unless disarmed (`.0 = None`) after the child was reaped.
struct GroupGuard(Option<u32>);

impl GroupGuard {
    fn kill(&mut self) {
        if let Some(pid) = self.0 {
            crate::util::process::kill_group(pid);
        }
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        self.kill();
    }
}

async fn read_capped<R: AsyncRead + Unpin>(mut reader: R) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut buf = [0u8; 4096];
    while let Ok(n) = reader.read(&mut buf).await {
        if n == 0 {
            break;
        }
        let room = OUTPUT_LIMIT.saturating_sub(kept.len());
        kept.extend_from_slice(&buf[..n.min(room)]);
    }
    kept
}

/// stderr then stdout, trimmed. A grandchild that left the group may hold a pipe open, so
/// the readers get a short grace period rather than an unbounded wait.
async fn collect_output(
    stdout: Option<tokio::task::JoinHandle<Vec<u8>>>,
    stderr: Option<tokio::task::JoinHandle<Vec<u8>>>,
) -> String {
    let mut parts = Vec::new();
    for handle in [stderr, stdout].into_iter().flatten() {
        let abort = handle.abort_handle();
        match tokio::time::timeout(Duration::from_secs(1), handle).await {
            Ok(Ok(bytes)) => {
                let text = String::from_utf8_lossy(&bytes).trim().to_string();
                if !text.is_empty() {
                    parts.push(text);
                }
            }
            _ => abort.abort(),
        }
    }
    parts.join("\n")
}

#[cfg(test)]
#[path = "command_tests.rs"]
mod tests;
