//! Speech to text (spec-002c §3.3, §3.7, §3.8): turns a recording (16 kHz mono i16) into a
//! [`Transcript`] with one of four engines — local whisper (whisper-rs, behind the `whisper`
//! cargo feature), an OpenAI-compatible `/audio/transcriptions` endpoint (Groq, OpenAI), or
//! any CLI (`local_command`) — and filters whisper's hallucinations ([`filter`]).
//!
//! [`select`] builds a [`Transcriber`] from `stt:` config, `HERMES_HOME` and an env lookup,
//! falling back as Hermes does (local > local_command > groq > openai) when the configured
//! provider cannot run. Whisper runs on tokio's blocking pool, never on the caller's task.
//! Not here: capture, VAD, resampling from device rates, the `stt.enabled` switch (callers
//! decide), the CLI. Invariants: API keys live only in request headers, never in errors or
//! `Debug` output; an error names the model file, URL (without key), command or HTTP status.

pub mod api;
pub mod command;
pub mod filter;
pub mod models;
mod multipart;
pub mod select;
#[cfg(test)]
mod test_model;
pub mod whisper;

use std::path::PathBuf;
use std::time::Duration;
use std::time::Instant;

pub use filter::Filtered;
pub use select::{Selected, select};

/// Which engine made a transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SttProvider {
    Local,
    Groq,
    OpenAi,
    LocalCommand,
}

impl SttProvider {
    /// The `stt.provider` value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Local => "local",
            Self::Groq => "groq",
            Self::OpenAi => "openai",
            Self::LocalCommand => "local_command",
        }
    }

    /// Parses an `stt.provider` value (case-insensitive; empty means `local`).
    pub fn parse(value: &str) -> Option<Self> {
        match value.trim().to_ascii_lowercase().as_str() {
            "" | "local" => Some(Self::Local),
            "groq" => Some(Self::Groq),
            "openai" => Some(Self::OpenAi),
            "local_command" | "local-command" => Some(Self::LocalCommand),
            _ => None,
        }
    }
}

/// What an engine heard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transcript {
    /// The raw text, trimmed (not yet filtered: see [`Transcript::filtered`]).
    pub text: String,
    pub provider: SttProvider,
    /// How long transcription took (model loading included on the first local call).
    pub elapsed: Duration,
}

impl Transcript {
    /// The text through the hallucination filter: what the agent should receive.
    pub fn filtered(&self) -> Filtered {
        filter::filter(&self.text)
    }
}

/// Why speech could not be turned into text. Messages are for the user: each names what to fix.
#[derive(Debug, thiserror::Error)]
pub enum SttError {
    #[error(
        "this build has no local whisper; rebuild with `--features whisper` or set stt.provider \
         to groq, openai or local_command"
    )]
    NoLocalWhisper,
    #[error(
        "whisper model file {} not found: run `hermes voice models download {name}` (or set \
         stt.local.model to a ggml model file)",
        path.display()
    )]
    ModelMissing { path: PathBuf, name: String },
    #[error("{}: not a whisper ggml model ({detail})", path.display())]
    ModelInvalid { path: PathBuf, detail: String },
    #[error("whisper could not load {}: {detail}", path.display())]
    ModelLoad { path: PathBuf, detail: String },
    #[error("whisper failed on {}: {detail}", path.display())]
    Whisper { path: PathBuf, detail: String },
    #[error("stt.provider {provider} needs {vars} (in the environment or HERMES_HOME/.env)")]
    MissingKey {
        provider: &'static str,
        vars: &'static str,
    },
    #[error("{url} answered HTTP {status}: {body}")]
    Http {
        url: String,
        status: u16,
        body: String,
    },
    #[error("{url}: {detail}")]
    Transport { url: String, detail: String },
    #[error("{url} sent an unreadable transcription: {detail}")]
    BadResponse { url: String, detail: String },
    #[error(
        "stt.provider local_command has no command: set stt.local_command.command or \
         HERMES_LOCAL_STT_COMMAND"
    )]
    NoCommand,
    #[error("the speech-to-text command `{command}` could not start: {detail}")]
    CommandSpawn { command: String, detail: String },
    #[error("the speech-to-text command `{command}` failed ({status}): {output}")]
    CommandFailed {
        command: String,
        status: String,
        output: String,
    },
    #[error("the speech-to-text command `{command}` took longer than {secs} s and was killed")]
    CommandTimeout { command: String, secs: u64 },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("could not encode the recording as WAV: {0}")]
    Wav(String),
    #[error("unknown stt.provider `{0}` (use local, groq, openai or local_command)")]
    UnknownProvider(String),
    #[error("no speech-to-text provider is available: {0}")]
    NoProvider(String),
}

/// A ready speech-to-text engine. Cheap to clone (clones share the loaded whisper model and
/// the HTTP connection pool).
#[derive(Debug, Clone)]
pub enum Transcriber {
    #[cfg(feature = "whisper")]
    Local(whisper::LocalWhisper),
    Api(api::ApiTranscriber),
    Command(command::CommandTranscriber),
}

impl Transcriber {
    pub fn provider(&self) -> SttProvider {
        match self {
            #[cfg(feature = "whisper")]
            Self::Local(_) => SttProvider::Local,
            Self::Api(api) => api.provider(),
            Self::Command(_) => SttProvider::LocalCommand,
        }
    }

    /// One line for status displays: "local whisper (/home/u/.hermes/models/ggml-base.en.bin)".
    pub fn describe(&self) -> String {
        match self {
            #[cfg(feature = "whisper")]
            Self::Local(local) => format!("local whisper ({})", local.model_path().display()),
            Self::Api(api) => api.describe(),
            Self::Command(command) => command.describe(),
        }
    }

    /// Loads the local whisper model now (on the blocking pool) so the first recording does not
    /// wait for it. Other engines have nothing to load.
    pub async fn preload(&self) -> Result<(), SttError> {
        match self {
            #[cfg(feature = "whisper")]
            Self::Local(local) => local.preload().await,
            _ => Ok(()),
        }
    }

    /// Transcribes 16 kHz mono samples ([`crate::voice::SAMPLE_RATE`]).
    pub async fn transcribe(&self, samples: &[i16]) -> Result<Transcript, SttError> {
        let started = Instant::now();
        let text = match self {
            #[cfg(feature = "whisper")]
            Self::Local(local) => local.transcribe(samples).await?,
            Self::Api(api) => api.transcribe(samples).await?,
            Self::Command(command) => command.transcribe(samples).await?,
        };
        Ok(Transcript {
            text: text.trim().to_string(),
            provider: self.provider(),
            elapsed: started.elapsed(),
        })
    }
}

/// 16 kHz mono 16-bit PCM WAV bytes of `samples` (what the APIs and commands receive).
pub fn wav_bytes(samples: &[i16]) -> Result<Vec<u8>, SttError> {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: crate::voice::SAMPLE_RATE,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut bytes = Vec::with_capacity(44 + samples.len() * 2);
    let mut writer = hound::WavWriter::new(std::io::Cursor::new(&mut bytes), spec)
        .map_err(|e| SttError::Wav(e.to_string()))?;
    for &s in samples {
        writer
            .write_sample(s)
            .map_err(|e| SttError::Wav(e.to_string()))?;
    }
    writer
        .finalize()
        .map_err(|e| SttError::Wav(e.to_string()))?;
    Ok(bytes)
}

/// The first `max` characters of `text` on one line, for error messages.
pub(crate) fn excerpt(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        return flat;
    }
    let cut: String = flat.chars().take(max).collect();
    format!("{cut}…")
}

#[cfg(test)]
#[path = "mod_tests.rs"]
mod tests;
