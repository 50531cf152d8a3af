//! Text-to-speech (spec-002c §3.6, §4): providers behind one [`Synthesizer`] (OpenAI-compatible
//! `/audio/speech` and ElevenLabs, both streamed; the Microsoft Edge read-aloud websocket, see
//! [`edge`]; `type: command` providers such as espeak-ng or piper), the incremental
//! [`SentenceSplitter`], the [`Speaker`] pipeline that speaks a reply while it is still being
//! written, and the WAV [`AudioCache`] under `HERMES_HOME/audio_cache/`.
//!
//! Not here: playing audio (an [`crate::voice::audio::AudioSink`] does) and resampling (a
//! [`crate::voice::audio::Clip`] carries its own rate; the sink converts).
//!
//! Invariants: text is cut to the provider's `max_text_length` before any provider call; API
//! keys are never logged or put in errors; every failure is a typed [`SynthError`] naming the
//! provider and the URL or command involved.

pub mod cache;
pub mod clean;
pub mod command;
pub mod decode;
pub mod edge;
pub mod fallback;
mod http;
pub mod limits;
pub mod provider;
pub mod sentences;
pub mod speaker;
mod template;

pub use cache::AudioCache;
pub use provider::AudioStream;
pub use provider::Synthesizer;
pub use sentences::SentenceSplitter;
pub use speaker::Speaker;
pub use speaker::SpeakerOptions;
pub use speaker::SpeechEvent;
pub use speaker::StopHandle;

/// Why speech could not be synthesised. Messages name the provider and what was contacted;
/// they never contain API keys.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SynthError {
    #[error(
        "{provider} text-to-speech needs an API key: set {env_var} in HERMES_HOME/.env (default ~/.hermes/.env)"
    )]
    MissingKey {
        provider: String,
        env_var: &'static str,
    },
    #[error(
        "unknown tts.provider `{0}`: use openai, elevenlabs, edge, or the name of a tts.providers entry with type: command"
    )]
    UnknownProvider(String),
    /// The provider cannot work here; the text says what to use instead.
    #[error("{0}")]
    Unavailable(String),
    #[error("{provider}: {detail}")]
    Config { provider: String, detail: String },
    #[error("{provider}: cannot reach {url}: {detail}")]
    Connect {
        provider: String,
        url: String,
        detail: String,
    },
    #[error("{provider}: {url} answered HTTP {status}: {body}")]
    Status {
        provider: String,
        url: String,
        status: u16,
        body: String,
    },
    #[error("{provider}: the audio stream from {url} failed: {detail}")]
    Stream {
        provider: String,
        url: String,
        detail: String,
    },
    #[error("{provider}: command `{command}` failed: {detail}")]
    Command {
        provider: String,
        command: String,
        detail: String,
    },
    #[error(
        "{provider}: command `{command}` did not finish within {secs} s and was killed{output}"
    )]
    Timeout {
        provider: String,
        command: String,
        secs: u64,
        /// The command's output so far, prefixed with `: `, or empty.
        output: String,
    },
    #[error("{provider}: cannot read the audio in {path}: {detail}")]
    Decode {
        provider: String,
        path: String,
        detail: String,
    },
    #[error("{path}: {detail}")]
    Io { path: String, detail: String },
    /// The audio sink refused a clip (no device, device failure).
    #[error("playback: {0}")]
    Playback(String),
    #[error("speech was stopped")]
    Cancelled,
}
