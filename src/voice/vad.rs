//! Hermes's two-phase voice-activity detector (spec-002c §3.5) on 16 kHz mono `i16`, fed in
//! chunks of any size, plus the level meter the TUI draws while recording (`● [▁▂▃▅▇▇▅▂]`).
//!
//! 1. **Speech confirmation.** A 20 ms frame is *voiced* when its RMS (0–32767) is above the
//!    threshold. Speech is confirmed once voiced frames add up to 0.3 s; a dip under the
//!    threshold shorter than 0.3 s (a gap between syllables) keeps the count, a longer one
//!    resets it. Hermes counts the wall time since the first voiced chunk instead; counting
//!    voiced time only is what its docs say ("exceeds the threshold for at least 0.3 s") and
//!    keeps a single click from confirming speech.
//! 2. **End detection.** After speech, `silence` of continuous silence stops the take. As in
//!    Hermes, a blip inside the silence (a cough, a door) does not restart the clock: only
//!    resumed speech that is itself confirmed (0.3 s voiced, dips under 0.3 s allowed) does.
//!
//! With no speech confirmed within `no_speech` (15 s) the take stops as `NoSpeech`; `max`
//! (`voice.max_recording_seconds`, 0 = no cap) stops it whatever happens.
//!
//! Invariants: time is counted in samples, never read from a clock, so the result depends only
//! on the audio, not on chunk sizes or how fast the device delivers; once stopped the detector
//! stays stopped and [`Vad::stopped_at`] says after which sample.

use std::time::Duration;

use super::SAMPLE_RATE;
use crate::config::VoiceConfig;

/// Samples per analysis frame: 20 ms at 16 kHz.
pub const FRAME: usize = (SAMPLE_RATE / 50) as usize;
/// Voiced time that confirms speech (Hermes `_min_speech_duration`).
pub const MIN_SPEECH: Duration = Duration::from_millis(300);
/// A dip at least this long resets a speech attempt (Hermes `_max_dip_tolerance`).
pub const MAX_DIP: Duration = Duration::from_millis(300);
/// Stop when no speech is confirmed this long after the start (Hermes `_max_wait`).
pub const NO_SPEECH_TIMEOUT: Duration = Duration::from_secs(15);

/// Level-meter glyphs, quietest first.
pub const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// The detector's knobs (`voice.silence_threshold`, `voice.silence_duration`,
/// `voice.max_recording_seconds`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VadSettings {
    /// RMS (0–32767) above which a frame is voiced.
    pub threshold: u32,
    /// Continuous silence after speech that ends the take.
    pub silence: Duration,
    /// Hard cap on the take; `None` = no cap.
    pub max: Option<Duration>,
    /// Give up when no speech is confirmed this long after the start.
    pub no_speech: Duration,
}

impl VadSettings {
    /// Read the `voice:` section. A silence duration that is negative, NaN or absurd falls back
    /// to Hermes's 3.0 s; `max_recording_seconds: 0` means no cap, as in Hermes.
    pub fn from_config(voice: &VoiceConfig) -> Self {
        let default_silence = Duration::from_secs(3);
        let silence = Duration::try_from_secs_f64(voice.silence_duration)
            .ok()
            .filter(|d| !d.is_zero() && *d < Duration::from_secs(3600))
            .unwrap_or(default_silence);
        let max = (voice.max_recording_seconds > 0)
            .then(|| Duration::from_secs(voice.max_recording_seconds));
        Self {
            threshold: voice.silence_threshold,
            silence,
            max,
            no_speech: NO_SPEECH_TIMEOUT,
        }
    }
}

impl Default for VadSettings {
    fn default() -> Self {
        Self::from_config(&VoiceConfig::default())
    }
}

/// Why the detector stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// Speech, then `silence` of silence.
    SilenceAfterSpeech,
    /// No speech within `no_speech`.
    NoSpeech,
    /// The `max` cap.
    MaxLength,
}

/// Where a take is after the latest chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VadStatus {
    /// No speech confirmed yet.
    Listening,
    /// Speech confirmed; waiting for the silence that ends it.
    Speaking,
    Stopped(StopReason),
}

/// RMS of `frame` on the 0–32767 scale (0 for an empty frame).
pub fn rms(frame: &[i16]) -> f64 {
    if frame.is_empty() {
        return 0.0;
    }
    let sum: f64 = frame.iter().map(|&s| f64::from(s) * f64::from(s)).sum();
    (sum / frame.len() as f64).sqrt()
}

/// Map an RMS to 0.0–1.0 for a meter, logarithmically: RMS 10 (-70 dBFS, a quiet room) and
/// below is 0, RMS 10 000 (-10 dBFS, loud speech close to the mic) and above is 1. The default
/// threshold (200) sits at 0.43, normal speech (1 000–3 000) at 0.67–0.83.
pub fn level_from_rms(rms: f64) -> f32 {
    if rms.is_nan() || rms <= 10.0 {
        return 0.0;
    }
    (((rms.log10() - 1.0) / 3.0).clamp(0.0, 1.0)) as f32
}

/// A 0.0–1.0 level as a bar index 0–7 (what `protocol::voice::VoiceEvent::Level` carries).
pub fn level_step(level: f32) -> u8 {
    let level = if level.is_nan() {
        0.0
    } else {
        level.clamp(0.0, 1.0)
    };
    (level * (BARS.len() - 1) as f32).round() as u8
}

/// The last `width` levels as bar glyphs, oldest first, padded on the left with the lowest bar
/// so the meter keeps its width from the first frame.
pub fn level_bars(levels: &[f32], width: usize) -> String {
    let start = levels.len().saturating_sub(width);
    let shown = &levels[start..];
    let mut out = String::with_capacity(width * 3);
    out.extend(std::iter::repeat_n(BARS[0], width - shown.len()));
    for &level in shown {
        out.push(BARS[usize::from(level_step(level)).min(BARS.len() - 1)]);
    }
    out
}

fn samples(d: Duration) -> usize {
    (d.as_secs_f64() * f64::from(SAMPLE_RATE)).round() as usize
}

/// A frame above or below the threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frame {
    Voiced,
    Quiet,
}

/// A run of voiced frames that may become confirmed speech (with dip tolerance).
#[derive(Debug, Default, Clone, Copy)]
struct Attempt {
    voiced: usize,
    dip: usize,
}

impl Attempt {
    /// Feed one frame; true when the attempt reaches `min` voiced samples.
    fn frame(&mut self, frame: Frame, min: usize, max_dip: usize) -> bool {
        if frame == Frame::Voiced {
            self.dip = 0;
            self.voiced += FRAME;
            return self.voiced >= min;
        }
        if self.voiced > 0 {
            self.dip += FRAME;
            if self.dip >= max_dip {
                *self = Self::default();
            }
        }
        false
    }
}

/// The detector. Feed it with [`push`](Self::push) until it says [`VadStatus::Stopped`].
#[derive(Debug, Clone)]
pub struct Vad {
    settings: VadSettings,
    min_speech: usize,
    max_dip: usize,
    silence_limit: usize,
    no_speech_limit: usize,
    max_limit: Option<usize>,
    /// Samples analysed (whole frames).
    pos: usize,
    /// The start of a frame not yet complete.
    partial: Vec<i16>,
    status: VadStatus,
    /// Speech was confirmed (stays true after the stop).
    spoke: bool,
    stopped_at: Option<usize>,
    /// Phase 1, or resumed speech inside the closing silence in phase 2.
    attempt: Attempt,
    /// Phase 2: samples since the closing silence began; `None` while speech goes on.
    silence: Option<usize>,
    last_rms: f64,
    peak_rms: f64,
    level: f32,
}

impl Vad {
    pub fn new(settings: VadSettings) -> Self {
        Self {
            settings,
            min_speech: samples(MIN_SPEECH),
            max_dip: samples(MAX_DIP),
            silence_limit: samples(settings.silence).max(FRAME),
            no_speech_limit: samples(settings.no_speech),
            max_limit: settings.max.map(samples),
            pos: 0,
            partial: Vec::with_capacity(FRAME),
            status: VadStatus::Listening,
            spoke: false,
            stopped_at: None,
            attempt: Attempt::default(),
            silence: None,
            last_rms: 0.0,
            peak_rms: 0.0,
            level: 0.0,
        }
    }

    pub fn settings(&self) -> VadSettings {
        self.settings
    }

    /// Analyse the next chunk. After a stop, further audio is ignored.
    pub fn push(&mut self, chunk: &[i16]) -> VadStatus {
        let mut rest = chunk;
        while !rest.is_empty() && !matches!(self.status, VadStatus::Stopped(_)) {
            let take = (FRAME - self.partial.len()).min(rest.len());
            self.partial.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.partial.len() == FRAME {
                let frame_rms = rms(&self.partial);
                self.partial.clear();
                self.frame(frame_rms);
            }
        }
        self.status
    }

    fn frame(&mut self, frame_rms: f64) {
        self.pos += FRAME;
        self.last_rms = frame_rms;
        self.peak_rms = self.peak_rms.max(frame_rms);
        // Fast attack, ~100 ms release: bars fall smoothly between syllables.
        self.level = level_from_rms(frame_rms).max(self.level * 0.8);
        let frame = if frame_rms > f64::from(self.settings.threshold) {
            Frame::Voiced
        } else {
            Frame::Quiet
        };
        let mut stop = None;
        match self.status {
            VadStatus::Listening => {
                if self.attempt.frame(frame, self.min_speech, self.max_dip) {
                    self.status = VadStatus::Speaking;
                    self.spoke = true;
                    self.attempt = Attempt::default();
                } else if self.pos >= self.no_speech_limit {
                    stop = Some(StopReason::NoSpeech);
                }
            }
            VadStatus::Speaking => match self.silence {
                None if frame == Frame::Voiced => {}
                None => {
                    self.silence = Some(FRAME);
                    self.attempt = Attempt::default();
                }
                Some(run) => {
                    if self.attempt.frame(frame, self.min_speech, self.max_dip) {
                        self.silence = None;
                        self.attempt = Attempt::default();
                    } else {
                        let run = run + FRAME;
                        self.silence = Some(run);
                        if run >= self.silence_limit {
                            stop = Some(StopReason::SilenceAfterSpeech);
                        }
                    }
                }
            },
            VadStatus::Stopped(_) => return,
        }
        if stop.is_none() && self.max_limit.is_some_and(|max| self.pos >= max) {
            stop = Some(StopReason::MaxLength);
        }
        if let Some(reason) = stop {
            self.status = VadStatus::Stopped(reason);
            self.stopped_at = Some(self.pos);
        }
    }

    pub fn status(&self) -> VadStatus {
        self.status
    }

    /// Speech was confirmed at some point of the take.
    pub fn heard_speech(&self) -> bool {
        self.spoke
    }

    /// The sample count after which the take stopped (the end of the deciding frame).
    pub fn stopped_at(&self) -> Option<usize> {
        self.stopped_at
    }

    /// Audio analysed so far.
    pub fn elapsed(&self) -> Duration {
        Duration::from_secs_f64(self.pos as f64 / f64::from(SAMPLE_RATE))
    }

    /// The latest frame's RMS (0–32767).
    pub fn rms(&self) -> f64 {
        self.last_rms
    }

    /// The loudest frame so far.
    pub fn peak_rms(&self) -> f64 {
        self.peak_rms
    }

    /// 0.0–1.0 for a level meter: the recent RMS on a log scale, falling back smoothly.
    pub fn level(&self) -> f32 {
        self.level
    }
}

#[cfg(test)]
#[path = "vad_tests.rs"]
mod tests;
