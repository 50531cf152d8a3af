//! The `text_to_speech` tool (spec-002c §4.9): the agent turns text into an audio file with the
//! configured `tts:` provider and gets back the file's path and duration.
//!
//! The tool reads `config.yaml` and `.env` from `HERMES_HOME` at each call, so `/config` edits
//! and newly entered keys apply without a restart. It writes 16-bit mono WAV: to `output_path`
//! when given (a different extension becomes `.wav`; the write is checked with the
//! `CommandPolicy` like `write_file`), else to `HERMES_HOME/audio_cache/tts_<UTC time>.wav`.
//! It does not play the audio (the voice service speaks replies) and never logs keys.

use std::path::Path;
use std::path::PathBuf;

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::json;

use crate::config::EnvLookup;
use crate::config::HermesHome;
use crate::model::ToolSchema;
use crate::safety::CommandVerdict;
use crate::tools::Concurrency;
use crate::tools::Tool;
use crate::tools::ToolContext;
use crate::tools::ToolOutput;
use crate::tools::args;
use crate::util::paths::resolve_path;
use crate::voice::tts::SynthError;
use crate::voice::tts::Synthesizer;
use crate::voice::tts::decode;

#[derive(Debug, Deserialize)]
struct SpeechArgs {
    text: String,
    #[serde(default)]
    output_path: Option<String>,
}

pub struct TextToSpeechTool {
    home: HermesHome,
}

impl TextToSpeechTool {
    pub fn new(home: HermesHome) -> Self {
        Self { home }
    }

    /// The configured provider, from the current config and `.env`.
    fn synthesizer(home: &HermesHome) -> Result<Synthesizer, SynthError> {
        let config = crate::config::load(home).config;
        let env = match EnvLookup::load(home) {
            Ok((env, _warnings)) => env,
            // An unreadable .env: the process environment alone.
            Err(_) => EnvLookup::new(
                std::sync::Arc::new(|k| std::env::var(k).ok()),
                Default::default(),
            ),
        };
        Synthesizer::from_config(&config.tts, &env)
    }
}

/// `tts_20250102_030405_ab12cd.wav` in `dir` (UTC time plus a random suffix).
fn default_path(dir: &Path) -> PathBuf {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0));
    let (year, month, day) = crate::util::time::civil_from_days(now.div_euclid(86_400));
    let secs = now.rem_euclid(86_400);
    let suffix = &uuid::Uuid::new_v4().simple().to_string()[..6];
    dir.join(format!(
        "tts_{year:04}{month:02}{day:02}_{:02}{:02}{:02}_{suffix}.wav",
        secs / 3600,
        (secs % 3600) / 60,
        secs % 60
    ))
}

#[async_trait]
impl Tool for TextToSpeechTool {
    fn name(&self) -> &'static str {
        "text_to_speech"
    }

    fn toolset(&self) -> &'static str {
        "tts"
    }

    fn schema(&self) -> ToolSchema {
        ToolSchema {
            name: self.name().to_string(),
            description: "Convert text to speech with the configured voice (tts.provider) and save it as a WAV audio file. \
                Use when the user asks for audio or a voice message. Returns the file path and the duration. \
                Long text is cut to the provider's limit."
                .to_string(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "text": {"type": "string", "description": "The text to speak (plain text, no markdown)."},
                    "output_path": {"type": "string", "description": "Where to save the .wav file (relative to the working directory). Default: a new file in HERMES_HOME/audio_cache/."}
                },
                "required": ["text"]
            }),
        }
    }

    fn concurrency(&self) -> Concurrency {
        Concurrency::Sequential
    }

    fn preview(&self, args: &serde_json::Value) -> String {
        args::preview_text(args::str_field(args, "text"), 60)
    }

    async fn call(&self, args: serde_json::Value, ctx: &ToolContext) -> ToolOutput {
        let args: SpeechArgs = match args::parse(self.name(), args) {
            Ok(a) => a,
            Err(e) => return e,
        };
        let text = args.text.trim();
        if text.is_empty() {
            return ToolOutput::error("text is empty: nothing to speak");
        }
        let requested = args
            .output_path
            .as_deref()
            .map(str::trim)
            .filter(|p| !p.is_empty());
        let (path, renamed) = match requested {
            Some(p) => {
                let asked = resolve_path(&ctx.cwd, p);
                let is_wav = asked
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("wav"));
                if is_wav {
                    (asked, false)
                } else {
                    (asked.with_extension("wav"), true)
                }
            }
            None => (default_path(&self.home.audio_cache_dir()), false),
        };
        if requested.is_some() {
            let verdict = tokio::select! {
                v = ctx.policy.check_write(self.name(), &path) => v,
                () = ctx.cancel.cancelled() => return ToolOutput::cancelled("cancelled before speaking"),
            };
            if let CommandVerdict::Deny { reason } = verdict {
                return ToolOutput::denied(reason);
            }
        }
        let home = self.home.clone();
        let synth = match tokio::task::spawn_blocking(move || Self::synthesizer(&home)).await {
            Ok(Ok(s)) => s,
            Ok(Err(e)) => return ToolOutput::error(format!("text_to_speech: {e}")),
            Err(e) => return ToolOutput::error(format!("text_to_speech: {e}")),
        };
        let truncated = text.chars().count() > synth.max_text_length();
        let clip = match synth.synthesize(text, &ctx.cancel).await {
            Ok(clip) => clip,
            Err(SynthError::Cancelled) => return ToolOutput::cancelled("speech was cancelled"),
            Err(e) => return ToolOutput::error(format!("text_to_speech: {e}")),
        };
        if clip.samples.is_empty() {
            return ToolOutput::error(format!(
                "text_to_speech: {} returned no audio",
                synth.provider()
            ));
        }
        let duration = clip.duration();
        let rate = clip.rate;
        let target = path.clone();
        let written = tokio::task::spawn_blocking(move || {
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)?;
            }
            decode::write_wav(&target, &clip)
        })
        .await;
        match written {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                return ToolOutput::error(format!("cannot write {}: {e}", path.display()));
            }
            Err(e) => return ToolOutput::error(format!("cannot write {}: {e}", path.display())),
        }
        let mut answer = json!({
            "success": true,
            "file_path": path.display().to_string(),
            "duration_seconds": (duration.as_secs_f64() * 100.0).round() / 100.0,
            "format": "wav",
            "sample_rate": rate,
            "provider": synth.provider(),
        });
        if truncated {
            answer["note"] = json!(format!(
                "the text was cut to {} characters (the provider's limit)",
                synth.max_text_length()
            ));
        }
        if renamed {
            answer["note"] = json!("saved as .wav: text_to_speech writes WAV audio");
        }
        ToolOutput::ok(answer.to_string())
    }
}

#[cfg(test)]
#[path = "text_to_speech_tests.rs"]
mod tests;
