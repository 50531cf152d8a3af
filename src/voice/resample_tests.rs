use super::*;

/// Sign changes per second of `samples` at `rate`, halved: the frequency of a pure tone.
pub(crate) fn tone_hz(samples: &[i16], rate: u32) -> f64 {
    let crossings = samples
        .windows(2)
        .filter(|w| (w[0] < 0) != (w[1] < 0))
        .count();
    crossings as f64 / 2.0 / (samples.len() as f64 / f64::from(rate))
}

/// `secs` of a `hz` sine at `rate`, interleaved over `channels` identical channels.
fn sine_f32(hz: f64, rate: u32, channels: usize, secs: f64, amp: f32) -> Vec<f32> {
    let n = (f64::from(rate) * secs) as usize;
    (0..n)
        .flat_map(|i| {
            let x = (2.0 * std::f64::consts::PI * hz * i as f64 / f64::from(rate)).sin() as f32;
            std::iter::repeat_n(x * amp, channels)
        })
        .collect()
}

fn max_abs_diff(a: &[i16], b: &[i16]) -> i32 {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| (i32::from(x) - i32::from(y)).abs())
        .max()
        .unwrap_or(0)
}

/// The lag (in 16 kHz samples, −1.5..1.5) that best fits `out` to an ideal `hz` sine of peak
/// `amp`, and the RMS error at that lag, away from the edges.
fn best_fit(out: &[i16], hz: f64, amp: f64) -> (f64, f64) {
    let range = 200..out.len() - 200;
    (-150..=150)
        .map(|k| {
            let lag = f64::from(k) / 100.0;
            let sq: f64 = range
                .clone()
                .map(|i| {
                    let t = (i as f64 - lag) / f64::from(SAMPLE_RATE);
                    let ideal = amp * 32768.0 * (2.0 * std::f64::consts::PI * hz * t).sin();
                    (ideal - f64::from(out[i])).powi(2)
                })
                .sum();
            (lag, (sq / range.len() as f64).sqrt())
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap()
}

fn stream_all(input: &[f32], from: u32, channels: u16, chunk: usize) -> Samples {
    let mut r = StreamResampler::new(from, channels).unwrap();
    let mut out = Samples::new();
    for c in input.chunks(chunk * usize::from(channels)) {
        out.extend(r.push(c).unwrap());
    }
    out.extend(r.finish().unwrap());
    out
}

#[test]
fn a_48k_stereo_tone_comes_out_at_16k_mono_with_its_length_and_pitch() {
    let input = sine_f32(1000.0, 48_000, 2, 1.0, 0.5);
    let out = stream_all(&input, 48_000, 2, 480);
    assert_eq!(out.len(), 16_000, "1 s at 16 kHz");
    let hz = tone_hz(&out[200..out.len() - 200], SAMPLE_RATE);
    assert!((hz - 1000.0).abs() < 5.0, "{hz} Hz");
    // The level survives: a 0.5 sine is ~16384 peak.
    let peak = out[200..].iter().map(|s| s.unsigned_abs()).max().unwrap();
    assert!((15_500..=17_200).contains(&peak), "peak {peak}");
}

#[test]
fn odd_rates_and_channel_counts_keep_length_within_one_percent() {
    for (rate, channels) in [
        (44_100, 1),
        (22_050, 1),
        (24_000, 2),
        (8_000, 1),
        (96_000, 6),
    ] {
        let input = sine_f32(440.0, rate, channels, 0.75, 0.3);
        let out = stream_all(&input, rate, channels as u16, 333);
        let want = 12_000.0;
        assert!(
            (out.len() as f64 - want).abs() <= want * 0.01,
            "{rate} Hz × {channels}: {} samples",
            out.len()
        );
        let hz = tone_hz(&out[300..out.len() - 300], SAMPLE_RATE);
        assert!((hz - 440.0).abs() < 5.0, "{rate} Hz × {channels}: {hz} Hz");
    }
}

#[test]
fn chunk_size_does_not_change_the_stream_and_matches_the_one_shot() {
    let input = sine_f32(700.0, 44_100, 1, 0.5, 0.4);
    let whole = stream_all(&input, 44_100, 1, input.len());
    let tiny = stream_all(&input, 44_100, 1, 7);
    let odd = stream_all(&input, 44_100, 1, 1500);
    assert_eq!(whole, tiny);
    assert_eq!(whole, odd);

    // Against the ideal, the same tone sampled directly at 16 kHz: same level, and lined up
    // to within a sample (rubato reports its delay in whole output frames).
    let (lag, rms_err) = best_fit(&whole, 700.0, 0.4);
    assert!(lag.abs() <= 1.05, "lag {lag} samples");
    assert!(rms_err < 40.0, "rms error {rms_err} of a 13107 peak");

    let i16_input: Vec<i16> = input.iter().map(|&x| f32_to_i16(x)).collect();
    let one_shot = to_rate(&i16_input, 44_100, SAMPLE_RATE).unwrap();
    assert_eq!(one_shot.len(), whole.len());
    // i16 instead of f32 input: rounding only.
    assert!(
        max_abs_diff(&one_shot, &whole) <= 2,
        "{}",
        max_abs_diff(&one_shot, &whole)
    );
}

#[test]
fn sixteen_khz_mono_passes_through_unchanged() {
    let input: Vec<i16> = (0..1000).map(|i| (i * 37 % 2000 - 1000) as i16).collect();
    let mut r = StreamResampler::new(SAMPLE_RATE, 1).unwrap();
    let mut out = r.push(&input[..400]).unwrap();
    out.extend(r.push(&input[400..]).unwrap());
    out.extend(r.finish().unwrap());
    assert_eq!(out, input);
    assert_eq!(to_rate(&input, 16_000, 16_000).unwrap(), input);
}

#[test]
fn sample_formats_convert_to_the_same_level() {
    let f = [0.5f32, -0.5, 0.5, -0.5];
    let i = [16_384i16, -16_384, 16_384, -16_384];
    let u = [49_152u16, 16_384, 49_152, 16_384];
    let a = downmix(&f, 2);
    assert_eq!(a, vec![0.0, 0.0], "opposite channels cancel");
    assert_eq!(downmix(&f, 1), downmix(&i, 1));
    assert_eq!(downmix(&f, 1), downmix(&u, 1));
    assert_eq!(f32_to_i16(2.0), 32_767);
    assert_eq!(f32_to_i16(-2.0), -32_768);
    assert_eq!(f32_to_i16(f32::NAN), 0);
}

#[test]
fn upsampling_a_clip_keeps_pitch_and_length() {
    let tone: Vec<i16> = sine_f32(660.0, 16_000, 1, 0.5, 0.3)
        .into_iter()
        .map(f32_to_i16)
        .collect();
    let up = to_rate(&tone, 16_000, 44_100).unwrap();
    assert_eq!(up.len(), 22_050);
    let hz = tone_hz(&up[500..up.len() - 500], 44_100);
    assert!((hz - 660.0).abs() < 5.0, "{hz}");
}

#[test]
fn zero_rates_and_channels_are_errors() {
    assert_eq!(
        StreamResampler::new(0, 1).unwrap_err(),
        ResampleError::Rate(0)
    );
    assert_eq!(
        StreamResampler::new(48_000, 0).unwrap_err(),
        ResampleError::NoChannels
    );
    assert!(to_rate(&[1, 2, 3], 16_000, 0).is_err());
    assert_eq!(output_len(10, 0, 16_000), 0);
}
