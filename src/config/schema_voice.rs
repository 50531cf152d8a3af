//! The voice sections of `config.yaml` — `voice:`, `stt:` and `tts:` — with Hermes's key names
//! and defaults (spec-002c §3.8, §4.3, §4.8). Plain data; `voice/` interprets it.
//!
//! `max_text_length` is kept raw: Hermes accepts only positive integers and falls back to the
//! provider's default for anything else, so a bad value must not fail the whole section.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde::Serialize;

/// `voice:` — push-to-talk and voice mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct VoiceConfig {
    /// The key chord that starts and stops a recording (`ctrl+b`, `f8`, `alt+v`, …).
    pub record_key: String,
    /// A recording stops after this many seconds whatever happens.
    pub max_recording_seconds: u64,
    /// Turn text-to-speech on with voice mode.
    pub auto_tts: bool,
    /// Turn voice mode on at start.
    pub auto_enable: bool,
    /// Send the transcript at once (off: it waits in the composer).
    pub auto_send: bool,
    /// 880 Hz start beep, two 660 Hz stop beeps.
    pub beep_enabled: bool,
    /// RMS (0–32767) above which a frame counts as speech.
    pub silence_threshold: u32,
    /// Seconds of silence after speech that end a recording.
    pub silence_duration: f64,
}

impl Default for VoiceConfig {
    fn default() -> Self {
        Self {
            record_key: "ctrl+b".into(),
            max_recording_seconds: 120,
            auto_tts: false,
            auto_enable: false,
            auto_send: true,
            beep_enabled: true,
            silence_threshold: 200,
            silence_duration: 3.0,
        }
    }
}

/// `stt:` — speech to text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SttConfig {
    pub enabled: bool,
    /// `local` (whisper), `groq`, `openai` or `local_command`.
    pub provider: String,
    pub local: SttLocalConfig,
    pub openai: SttApiConfig,
    pub groq: SttApiConfig,
    pub local_command: SttCommandConfig,
}

impl Default for SttConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            provider: "local".into(),
            local: SttLocalConfig::default(),
            openai: SttApiConfig {
                model: "whisper-1".into(),
                base_url: "https://api.openai.com/v1".into(),
            },
            groq: SttApiConfig {
                model: "whisper-large-v3-turbo".into(),
                base_url: "https://api.groq.com/openai/v1".into(),
            },
            local_command: SttCommandConfig::default(),
        }
    }
}

/// `stt.local`: the whisper model, by name (`base.en` → `HERMES_HOME/models/ggml-base.en.bin`)
/// or as a path to a ggml file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SttLocalConfig {
    pub model: String,
    /// Spoken language (`en`, `auto`, …).
    pub language: String,
}

impl Default for SttLocalConfig {
    fn default() -> Self {
        Self {
            model: "base.en".into(),
            language: "en".into(),
        }
    }
}

/// An OpenAI-compatible `/audio/transcriptions` endpoint.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SttApiConfig {
    pub model: String,
    pub base_url: String,
}

/// `stt.local_command`: any CLI; `{input_path}` is the WAV file, the transcript is its stdout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SttCommandConfig {
    pub command: String,
    pub timeout: u64,
}

impl Default for SttCommandConfig {
    fn default() -> Self {
        Self {
            command: String::new(),
            timeout: 120,
        }
    }
}

/// `tts:` — text to speech.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TtsConfig {
    /// `edge`, `openai`, `elevenlabs`, or the name of a `providers:` entry.
    pub provider: String,
    /// Global speed multiplier; a provider's own `speed` wins.
    pub speed: f64,
    pub edge: TtsEdgeConfig,
    pub openai: TtsOpenAiConfig,
    pub elevenlabs: TtsElevenLabsConfig,
    /// Command providers (`type: command`), by name.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub providers: BTreeMap<String, TtsCommandConfig>,
}

impl Default for TtsConfig {
    fn default() -> Self {
        Self {
            provider: "edge".into(),
            speed: 1.0,
            edge: TtsEdgeConfig::default(),
            openai: TtsOpenAiConfig::default(),
            elevenlabs: TtsElevenLabsConfig::default(),
            providers: BTreeMap::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TtsEdgeConfig {
    pub voice: String,
    /// 0 means "use `tts.speed`".
    pub speed: f64,
    pub max_text_length: serde_norway::Value,
}

impl Default for TtsEdgeConfig {
    fn default() -> Self {
        Self {
            voice: "en-US-AriaNeural".into(),
            speed: 0.0,
            max_text_length: serde_norway::Value::Null,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TtsOpenAiConfig {
    pub model: String,
    pub voice: String,
    pub base_url: String,
    /// 0 means "use `tts.speed`".
    pub speed: f64,
    pub max_text_length: serde_norway::Value,
}

impl Default for TtsOpenAiConfig {
    fn default() -> Self {
        Self {
            model: "gpt-4o-mini-tts".into(),
            voice: "alloy".into(),
            base_url: "https://api.openai.com/v1".into(),
            speed: 0.0,
            max_text_length: serde_norway::Value::Null,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TtsElevenLabsConfig {
    pub voice_id: String,
    pub model_id: String,
    pub base_url: String,
    pub max_text_length: serde_norway::Value,
}

impl Default for TtsElevenLabsConfig {
    fn default() -> Self {
        Self {
            voice_id: "pNInz6obpgDQGcFmaJgB".into(),
            model_id: "eleven_multilingual_v2".into(),
            base_url: "https://api.elevenlabs.io".into(),
            max_text_length: serde_norway::Value::Null,
        }
    }
}

/// `tts.providers.<name>` with `type: command`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TtsCommandConfig {
    #[serde(rename = "type")]
    pub kind: String,
    /// Shell command with `{input_path}`/`{text_path}`, `{output_path}`, `{text}`, `{format}`,
    /// `{voice}`, `{model}`, `{speed}` placeholders (shell-escaped).
    pub command: String,
    /// `mp3`, `wav`, `ogg` or `flac`.
    pub output_format: String,
    /// Seconds before the process tree is killed.
    pub timeout: u64,
    pub voice: String,
    pub model: String,
    /// 0 means "use `tts.speed`".
    pub speed: f64,
    pub max_text_length: serde_norway::Value,
}

impl Default for TtsCommandConfig {
    fn default() -> Self {
        Self {
            kind: "command".into(),
            command: String::new(),
            output_format: "mp3".into(),
            timeout: 120,
            voice: String::new(),
            model: String::new(),
            speed: 0.0,
            max_text_length: serde_norway::Value::Null,
        }
    }
}
