use super::*;

#[test]
fn wav_bytes_are_16k_mono_pcm16() {
    let bytes = wav_bytes(&[0, 1000, -1000, i16::MAX]).unwrap();
    assert_eq!(&bytes[..4], b"RIFF");
    assert_eq!(&bytes[8..16], b"WAVEfmt ");
    let reader = hound::WavReader::new(std::io::Cursor::new(&bytes)).unwrap();
    let spec = reader.spec();
    assert_eq!(
        (spec.channels, spec.sample_rate, spec.bits_per_sample),
        (1, 16_000, 16)
    );
    let samples: Vec<i16> = reader.into_samples().map(Result::unwrap).collect();
    assert_eq!(samples, [0, 1000, -1000, i16::MAX]);
}

#[test]
fn provider_names_round_trip() {
    for p in [
        SttProvider::Local,
        SttProvider::Groq,
        SttProvider::OpenAi,
        SttProvider::LocalCommand,
    ] {
        assert_eq!(SttProvider::parse(p.as_str()), Some(p));
    }
    assert_eq!(SttProvider::parse(" GROQ "), Some(SttProvider::Groq));
    assert_eq!(SttProvider::parse(""), Some(SttProvider::Local));
    assert_eq!(SttProvider::parse("mistral"), None);
}

#[test]
fn excerpt_flattens_and_cuts() {
    assert_eq!(excerpt("a\n  b\tc", 10), "a b c");
    assert_eq!(excerpt("abcdefghijkl", 5), "abcde…");
    assert_eq!(excerpt("ééééé", 3), "ééé…");
}

#[test]
fn transcript_filtered_runs_the_filter() {
    let t = |text: &str| Transcript {
        text: text.into(),
        provider: SttProvider::Local,
        elapsed: Duration::ZERO,
    };
    assert_eq!(
        t("Thanks for watching!").filtered(),
        Filtered::Hallucination
    );
    assert_eq!(
        t("open the file").filtered(),
        Filtered::Speech("open the file".into())
    );
}

#[test]
fn errors_name_what_to_fix() {
    let missing = SttError::ModelMissing {
        path: "/h/models/ggml-base.en.bin".into(),
        name: "base.en".into(),
    };
    let text = missing.to_string();
    assert!(text.contains("/h/models/ggml-base.en.bin"), "{text}");
    assert!(
        text.contains("hermes voice models download base.en"),
        "{text}"
    );
    assert!(
        SttError::NoLocalWhisper
            .to_string()
            .contains("--features whisper")
    );
}
