use super::*;
use crate::voice::resample::tests::tone_hz;

/// `secs` of a 440 Hz sine at amplitude 0.5 on every channel, as `f64` in −1..1.
fn sine(rate: u32, channels: u16, secs: f64) -> Vec<f64> {
    let frames = (f64::from(rate) * secs) as usize;
    (0..frames)
        .flat_map(|i| {
            let x = 0.5 * (2.0 * std::f64::consts::PI * 440.0 * i as f64 / f64::from(rate)).sin();
            std::iter::repeat_n(x, usize::from(channels))
        })
        .collect()
}

/// Write `samples` with hound in the given layout.
fn write_with_hound(path: &Path, rate: u32, channels: u16, bits: u16, format: hound::SampleFormat) {
    let spec = hound::WavSpec {
        channels,
        sample_rate: rate,
        bits_per_sample: bits,
        sample_format: format,
    };
    let mut w = hound::WavWriter::create(path, spec).unwrap();
    for x in sine(rate, channels, 0.5) {
        match format {
            hound::SampleFormat::Float => w.write_sample(x as f32).unwrap(),
            hound::SampleFormat::Int => {
                let max = ((1i64 << (bits - 1)) - 1) as f64;
                w.write_sample((x * max).round() as i32).unwrap();
            }
        }
    }
    w.finalize().unwrap();
}

#[test]
fn any_pcm_or_float_layout_reads_as_16k_mono_with_pitch_and_level_kept() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (16_000, 1, 16, hound::SampleFormat::Int),
        (8_000, 1, 8, hound::SampleFormat::Int),
        (44_100, 2, 16, hound::SampleFormat::Int),
        (48_000, 2, 24, hound::SampleFormat::Int),
        (22_050, 1, 32, hound::SampleFormat::Int),
        (24_000, 3, 32, hound::SampleFormat::Float),
    ];
    for (rate, channels, bits, format) in cases {
        let path = dir
            .path()
            .join(format!("{rate}-{channels}-{bits}-{format:?}.wav"));
        write_with_hound(&path, rate, channels, bits, format);
        let samples = read_16k_mono(&path).unwrap();
        let what = format!("{rate} Hz, {channels} ch, {bits}-bit {format:?}");
        assert!(
            (samples.len() as i64 - 8000).abs() <= 80,
            "{what}: {} samples",
            samples.len()
        );
        let hz = tone_hz(&samples[400..7600], SAMPLE_RATE);
        assert!((hz - 440.0).abs() < 4.0, "{what}: {hz} Hz");
        let peak = samples[400..7600]
            .iter()
            .map(|s| s.unsigned_abs())
            .max()
            .unwrap();
        // 0.5 full scale; 8-bit quantisation and resampling ripple cost a little.
        assert!((15_800..=17_000).contains(&peak), "{what}: peak {peak}");
    }
}

#[test]
fn encode_writes_what_hound_reads_and_decode_round_trips() {
    let clip = Clip::new(vec![0, 1, -1, 32_767, -32_768, 1234], 22_050);
    let bytes = encode(&clip);
    assert_eq!(bytes.len(), 44 + 12);
    let mut reader = hound::WavReader::new(bytes.as_slice()).unwrap();
    let spec = reader.spec();
    assert_eq!(
        (spec.channels, spec.sample_rate, spec.bits_per_sample),
        (1, 22_050, 16)
    );
    let read: Vec<i16> = reader.samples::<i16>().map(Result::unwrap).collect();
    assert_eq!(read, clip.samples);
    assert_eq!(decode(&bytes).unwrap(), clip);
    assert!(
        decode(&encode(&Clip::new(vec![], 16_000)))
            .unwrap()
            .samples
            .is_empty()
    );
}

#[test]
fn write_then_read_keeps_the_clip() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("take.wav");
    let clip = Clip::new(
        (0..16_000)
            .map(|i| ((i % 100) * 300 - 15_000) as i16)
            .collect(),
        16_000,
    );
    write(&path, &clip).unwrap();
    assert_eq!(read_clip(&path).unwrap(), clip);
    assert_eq!(
        read_16k_mono(&path).unwrap(),
        clip.samples,
        "16 kHz passes through"
    );
}

#[test]
fn decode_downmixes_but_keeps_the_rate() {
    let spec = hound::WavSpec {
        channels: 2,
        sample_rate: 24_000,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut cursor = std::io::Cursor::new(Vec::new());
    let mut w = hound::WavWriter::new(&mut cursor, spec).unwrap();
    for (l, r) in [(1000i16, 3000i16), (-2000, -4000), (100, -100)] {
        w.write_sample(l).unwrap();
        w.write_sample(r).unwrap();
    }
    w.finalize().unwrap();
    let clip = decode(cursor.get_ref()).unwrap();
    assert_eq!(clip, Clip::new(vec![2000, -3000, 0], 24_000));
}

#[test]
fn corrupt_truncated_and_missing_files_are_errors_that_name_the_file() {
    let dir = tempfile::tempdir().unwrap();

    let garbage = dir.path().join("garbage.wav");
    std::fs::write(&garbage, b"this is not a wave file at all, not even close").unwrap();
    let err = read_16k_mono(&garbage).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("garbage.wav") && text.contains("not a readable WAV"),
        "{text}"
    );

    // A good header whose data chunk is cut short mid-sample.
    let mut bytes = encode(&Clip::new(vec![1000; 400], 16_000));
    bytes.truncate(44 + 301);
    let truncated = dir.path().join("truncated.wav");
    std::fs::write(&truncated, &bytes).unwrap();
    let text = read_16k_mono(&truncated).unwrap_err().to_string();
    assert!(text.contains("truncated.wav"), "{text}");

    let missing = dir.path().join("missing.wav");
    let text = read_clip(&missing).unwrap_err().to_string();
    assert!(
        text.contains("missing.wav") && text.contains("no such file"),
        "{text}"
    );

    let text = decode(b"RIFF").unwrap_err().to_string();
    assert!(text.contains("WAV data (4 bytes)"), "{text}");
    assert!(matches!(decode(&[]), Err(AudioError::File { .. })));

    let unwritable = dir.path().join("no-such-dir").join("x.wav");
    let text = write(&unwritable, &Clip::new(vec![1], 16_000))
        .unwrap_err()
        .to_string();
    assert!(
        text.contains("x.wav") && text.contains("cannot write"),
        "{text}"
    );
}
