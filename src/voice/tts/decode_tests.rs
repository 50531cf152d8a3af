use super::*;

fn tone(rate: u32, samples: usize) -> Clip {
    let data = (0..samples)
        .map(|i| ((i as f32 * 0.05).sin() * 12_000.0) as i16)
        .collect();
    Clip::new(data, rate)
}

#[test]
fn wav_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.wav");
    let clip = tone(24_000, 4800);
    write_wav(&path, &clip).unwrap();
    let back = read_wav(&path).unwrap();
    assert_eq!(back, clip);
    assert_eq!(decode_file(&path, "WAV").unwrap(), clip);
}

#[test]
fn stereo_24_bit_wav_is_averaged_to_mono() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stereo.wav");
    let spec = hound::WavSpec {
        channels: 2,
        sample_rate: 22_050,
        bits_per_sample: 24,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(&path, spec).unwrap();
    // Left half scale, right silent: the mono mix is a quarter scale.
    for _ in 0..100 {
        w.write_sample(1 << 22).unwrap();
        w.write_sample(0).unwrap();
    }
    w.finalize().unwrap();
    let clip = read_wav(&path).unwrap();
    assert_eq!(clip.rate, 22_050);
    assert_eq!(clip.samples.len(), 100);
    assert!(
        clip.samples.iter().all(|&s| (s - 8192).abs() <= 1),
        "{:?}",
        &clip.samples[..4]
    );
}

#[test]
fn float_wav_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.wav");
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: 16_000,
        bits_per_sample: 32,
        sample_format: hound::SampleFormat::Float,
    };
    let mut w = hound::WavWriter::create(&path, spec).unwrap();
    for v in [0.5f32, -0.5, 2.0] {
        w.write_sample(v).unwrap();
    }
    w.finalize().unwrap();
    let clip = read_wav(&path).unwrap();
    assert_eq!(clip.samples, vec![16_384, -16_384, i16::MAX]);
}

/// sox (a test package) converts a WAV to `ext`; the symphonia decoder must read it back.
fn sox_round_trip(ext: &str) {
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("in.wav");
    let out = dir.path().join(format!("out.{ext}"));
    write_wav(&wav, &tone(24_000, 24_000)).unwrap();
    let status = std::process::Command::new("sox")
        .arg(&wav)
        .arg(&out)
        .status()
        .expect("sox is installed by scripts/test.sh");
    assert!(status.success());
    let clip = decode_file(&out, ext).unwrap();
    assert_eq!(clip.rate, 24_000);
    let len = clip.samples.len() as i64;
    assert!((len - 24_000).abs() < 2_400, "{ext}: {len} samples");
    let peak = clip.samples.iter().map(|s| s.unsigned_abs()).max().unwrap();
    assert!(peak > 8_000, "{ext}: the tone survived (peak {peak})");
}

#[test]
fn flac_is_decoded() {
    sox_round_trip("flac");
}

#[test]
fn ogg_vorbis_is_decoded() {
    sox_round_trip("ogg");
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.mp3");
    std::fs::write(&path, b"this is not audio").unwrap();
    assert!(decode_file(&path, "mp3").is_err());
    assert!(decode_file(&path, "wav").is_err());
    let err = decode_file(&path, "aiff").unwrap_err().to_string();
    assert!(err.contains("unsupported output_format `aiff`"), "{err}");
    assert!(decode_bytes(Vec::new()).is_err());
}

#[test]
fn pcm_bytes_are_little_endian() {
    assert_eq!(
        pcm_s16le(&[0x01, 0x00, 0xff, 0xff, 0x00, 0x80, 0x7f]),
        vec![1, -1, i16::MIN]
    );
}
