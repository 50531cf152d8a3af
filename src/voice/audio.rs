//! The shared shapes of audio inside `voice/`: a [`Clip`] of mono samples at any rate, and the
//! [`AudioSink`] that plays clips (a rodio thread on a real device, a WAV file in tests).
//!
//! Invariants: `play` never blocks on the device (clips are queued to the sink's own thread);
//! `stop` silences at once and drops everything queued; a sink with no device reports it as
//! [`AudioError::NoDevice`], never panics.

/// Mono signed 16-bit samples at `rate` Hz (TTS providers speak at 22.05 or 24 kHz, beeps and
/// captures are at [`super::SAMPLE_RATE`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Clip {
    pub samples: Vec<i16>,
    pub rate: u32,
}

impl Clip {
    pub fn new(samples: Vec<i16>, rate: u32) -> Self {
        Self { samples, rate }
    }

    /// How long the clip plays.
    pub fn duration(&self) -> std::time::Duration {
        if self.rate == 0 {
            return std::time::Duration::ZERO;
        }
        std::time::Duration::from_secs_f64(self.samples.len() as f64 / f64::from(self.rate))
    }
}

/// What went wrong with an audio device or file.
#[derive(Debug, thiserror::Error)]
pub enum AudioError {
    /// No input or output device (or no audio backend). The text says how to fix it.
    #[error("No audio device found: {0}")]
    NoDevice(String),
    /// The device exists but refused the stream.
    #[error("the audio device failed: {0}")]
    Device(String),
    #[error("{path}: {detail}")]
    File { path: String, detail: String },
}

/// Plays clips in order on its own thread.
pub trait AudioSink: Send + Sync {
    /// Queue `clip` after whatever is queued; returns at once.
    fn play(&self, clip: Clip) -> Result<(), AudioError>;
    /// Silence now and forget everything queued.
    fn stop(&self);
    /// Nothing is playing or queued.
    fn is_idle(&self) -> bool;
}
