//! [`WavSink`]: an [`AudioSink`] that collects clips instead of sounding them — in memory at
//! 16 kHz and optionally in a WAV file — with when each was queued and (would have) started.
//! Tests use it for ordering and latency without a device.
//!
//! Invariants: clips are resampled to 16 kHz and appended in `play` order; with
//! [`Pacing::RealTime`] they play on a virtual clock one after another, so `is_idle` and `stop`
//! behave like a device (stop keeps only what had sounded); nothing here touches a device.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::lock;
use crate::voice::audio::{AudioError, AudioSink, Clip};
use crate::voice::capture::Pacing;
use crate::voice::resample::to_rate;
use crate::voice::{SAMPLE_RATE, Samples};

/// One clip as a [`WavSink`] saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedClip {
    /// When `play` was called.
    pub queued_at: Instant,
    /// When it started (or would start) sounding: after the clips before it.
    pub started_at: Instant,
    /// Where it begins in [`WavSink::samples`].
    pub offset: usize,
    /// 16 kHz samples heard (less than the clip when `stop` cut it, 0 when it never started).
    pub len: usize,
}

#[derive(Debug, Default)]
struct WavState {
    samples: Samples,
    clips: Vec<PlayedClip>,
    stops: usize,
    /// When the last queued clip ends (real-time pacing).
    busy_until: Option<Instant>,
}

/// Clips appended to memory (16 kHz) and optionally rewritten to a WAV file after each change.
/// With [`Pacing::RealTime`] clips "play" on a virtual clock: one after another, each for its
/// duration, so `is_idle` and `stop` behave like a device; [`Pacing::Unpaced`] plays each clip
/// the instant it is queued.
#[derive(Debug)]
pub struct WavSink {
    pacing: Pacing,
    file: Option<PathBuf>,
    state: Mutex<WavState>,
}

impl WavSink {
    pub fn new(pacing: Pacing) -> Self {
        Self {
            pacing,
            file: None,
            state: Mutex::new(WavState::default()),
        }
    }

    /// Also keep `path` up to date as a 16 kHz mono WAV file of everything heard.
    pub fn with_file(mut self, path: &Path) -> Self {
        self.file = Some(path.to_path_buf());
        self
    }

    /// Everything heard so far, 16 kHz mono.
    pub fn samples(&self) -> Samples {
        lock(&self.state).samples.clone()
    }

    pub fn clips(&self) -> Vec<PlayedClip> {
        lock(&self.state).clips.clone()
    }

    /// How many times `stop` was called.
    pub fn stops(&self) -> usize {
        lock(&self.state).stops
    }

    fn save(&self, state: &WavState) -> Result<(), AudioError> {
        match &self.file {
            Some(path) => {
                crate::voice::wav::write(path, &Clip::new(state.samples.clone(), SAMPLE_RATE))
            }
            None => Ok(()),
        }
    }
}

impl AudioSink for WavSink {
    fn play(&self, clip: Clip) -> Result<(), AudioError> {
        let queued_at = Instant::now();
        let samples = to_rate(&clip.samples, clip.rate, SAMPLE_RATE)
            .map_err(|e| AudioError::Device(format!("cannot play the clip: {e}")))?;
        let mut state = lock(&self.state);
        let started_at = match self.pacing {
            Pacing::Unpaced => queued_at,
            Pacing::RealTime => {
                let start = state.busy_until.map_or(queued_at, |b| b.max(queued_at));
                let length = samples.len() as f64 / f64::from(SAMPLE_RATE);
                state.busy_until = Some(start + Duration::from_secs_f64(length));
                start
            }
        };
        let offset = state.samples.len();
        state.clips.push(PlayedClip {
            queued_at,
            started_at,
            offset,
            len: samples.len(),
        });
        state.samples.extend(samples);
        self.save(&state)
    }

    fn stop(&self) {
        let now = Instant::now();
        let mut state = lock(&self.state);
        state.stops += 1;
        state.busy_until = None;
        if self.pacing == Pacing::RealTime {
            // Keep what had sounded by now; the rest was never heard.
            for clip in state.clips.iter_mut() {
                let heard = now.saturating_duration_since(clip.started_at).as_secs_f64();
                clip.len = clip.len.min((heard * f64::from(SAMPLE_RATE)) as usize);
            }
            let end = state.clips.last().map_or(0, |c| c.offset + c.len);
            let mut kept = Samples::with_capacity(end);
            for clip in &state.clips {
                kept.extend_from_slice(&state.samples[clip.offset..clip.offset + clip.len]);
            }
            let mut offset = 0;
            for clip in state.clips.iter_mut() {
                clip.offset = offset;
                offset += clip.len;
            }
            state.samples = kept;
        }
        if let Err(e) = self.save(&state) {
            tracing::warn!("{e}");
        }
    }

    fn is_idle(&self) -> bool {
        lock(&self.state)
            .busy_until
            .is_none_or(|until| Instant::now() >= until)
    }
}
