//! Voice: push-to-talk capture, voice-activity detection, speech-to-text and streaming
//! text-to-speech (spec-002c §3–§4). Engine-side: frontends reach it only through protocol
//! messages, never by importing it.
//!
//! Audio inside this module is always 16 kHz mono signed 16-bit ([`SAMPLE_RATE`]) unless a
//! [`audio::Clip`] says otherwise; devices, files and providers convert at the edges. Device
//! handles (cpal, rodio) live on their own threads and never on an async task or the UI.

pub mod audio;
pub mod beep;
pub mod capture;
pub mod cli;
pub mod playback;
pub mod resample;
pub mod service;
pub mod stt;
pub mod tts;
pub mod vad;
pub mod wav;

/// The one sample rate audio has inside `voice/` (whisper's).
pub const SAMPLE_RATE: u32 = 16_000;

/// Mono 16-bit samples at [`SAMPLE_RATE`].
pub type Samples = Vec<i16>;
