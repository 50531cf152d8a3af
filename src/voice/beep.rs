//! The recording cues (spec-002c §3.4): one 880 Hz beep when a take starts, two 660 Hz beeps
//! when it ends, as 16 kHz [`Clip`]s for an [`super::audio::AudioSink`]. Synthesised, no assets.
//!
//! Each tone has 10 ms linear fades at both ends: a sine cut off mid-swing clicks. Volume is
//! Hermes's default `beep_volume` (0.3 of full scale). Not here: whether to beep
//! (`voice.beep_enabled` is the caller's), playing them.

use std::time::Duration;

use super::SAMPLE_RATE;
use super::audio::Clip;

/// The start beep's pitch (Hermes: A5).
pub const START_HZ: f64 = 880.0;
pub const START_LEN: Duration = Duration::from_millis(120);
/// The stop beeps' pitch.
pub const STOP_HZ: f64 = 660.0;
pub const STOP_LEN: Duration = Duration::from_millis(100);
/// Silence between the two stop beeps (Hermes: 60 ms).
pub const STOP_GAP: Duration = Duration::from_millis(60);
/// Peak amplitude as a fraction of full scale (Hermes's default `voice.beep_volume`).
pub const VOLUME: f64 = 0.3;
const FADE: Duration = Duration::from_millis(10);

fn samples(d: Duration) -> usize {
    (d.as_secs_f64() * f64::from(SAMPLE_RATE)).round() as usize
}

/// A sine of `hz` lasting `len` at `volume` (0–1) with fades in and out, 16 kHz.
pub fn tone(hz: f64, len: Duration, volume: f64) -> Vec<i16> {
    let n = samples(len);
    let fade = samples(FADE).min(n / 4).max(1);
    let peak = volume.clamp(0.0, 1.0) * f64::from(i16::MAX);
    (0..n)
        .map(|i| {
            let t = i as f64 / f64::from(SAMPLE_RATE);
            let edge = i.min(n - 1 - i);
            let envelope = (edge as f64 / fade as f64).min(1.0);
            (peak * envelope * (2.0 * std::f64::consts::PI * hz * t).sin()).round() as i16
        })
        .collect()
}

/// The beep that says "recording".
pub fn start_beep() -> Clip {
    Clip::new(tone(START_HZ, START_LEN, VOLUME), SAMPLE_RATE)
}

/// The two beeps that say "recording stopped".
pub fn stop_beeps() -> Clip {
    let beep = tone(STOP_HZ, STOP_LEN, VOLUME);
    let mut samples = beep.clone();
    samples.extend(std::iter::repeat_n(0, self::samples(STOP_GAP)));
    samples.extend(beep);
    Clip::new(samples, SAMPLE_RATE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::voice::resample::tests::tone_hz;

    #[test]
    fn the_start_beep_is_120_ms_of_880_hz() {
        let clip = start_beep();
        assert_eq!(clip.rate, SAMPLE_RATE);
        assert_eq!(clip.samples.len(), 1920);
        assert_eq!(clip.duration(), START_LEN);
        let hz = tone_hz(&clip.samples, SAMPLE_RATE);
        assert!((hz - 880.0).abs() < 10.0, "{hz}");
        let peak = clip.samples.iter().map(|s| s.unsigned_abs()).max().unwrap();
        assert!((9_600..=9_831).contains(&peak), "0.3 of full scale: {peak}");
    }

    #[test]
    fn the_stop_beeps_are_two_660_hz_tones_with_a_gap() {
        let clip = stop_beeps();
        assert_eq!(clip.samples.len(), 1600 + 960 + 1600);
        let (first, rest) = clip.samples.split_at(1600);
        let (gap, second) = rest.split_at(960);
        assert!(gap.iter().all(|&s| s == 0));
        assert_eq!(first, second);
        let hz = tone_hz(first, SAMPLE_RATE);
        assert!((hz - 660.0).abs() < 10.0, "{hz}");
    }

    #[test]
    fn tones_fade_in_and_out_so_they_do_not_click() {
        let t = tone(880.0, Duration::from_millis(120), 0.3);
        assert_eq!(t[0], 0);
        assert!(t[t.len() - 1].unsigned_abs() < 100, "{}", t[t.len() - 1]);
        // The first 5 ms stay well under the full level; the middle reaches it.
        let early = t[..80].iter().map(|s| s.unsigned_abs()).max().unwrap();
        let middle = t[800..1100].iter().map(|s| s.unsigned_abs()).max().unwrap();
        assert!(early < middle / 2 + 200, "early {early}, middle {middle}");
        // No sample-to-sample jump bigger than a full-level sine's steepest step.
        let max_step = t
            .windows(2)
            .map(|w| (i32::from(w[0]) - i32::from(w[1])).abs())
            .max()
            .unwrap();
        let sine_step = (0.3 * 32767.0 * 2.0 * std::f64::consts::PI * 880.0 / 16_000.0) as i32;
        assert!(max_step <= sine_step + 2, "{max_step} > {sine_step}");
        assert!(tone(440.0, Duration::ZERO, 0.3).is_empty());
    }
}
