use super::*;
use crate::voice::stt::test_model::tiny_header;

fn home() -> (tempfile::TempDir, HermesHome) {
    let dir = tempfile::tempdir().unwrap();
    let home = HermesHome::from_base(dir.path(), None).unwrap();
    (dir, home)
}

#[test]
fn a_name_resolves_under_hermes_home_models() {
    let (_dir, home) = home();
    let loc = resolve_model("base.en", &home);
    assert_eq!(loc.path, home.root().join("models/ggml-base.en.bin"));
    assert_eq!(loc.name, "base.en");
    assert_eq!(
        resolve_model("  ", &home).path,
        home.root().join("models/ggml-base.en.bin")
    );
    assert_eq!(
        resolve_model("turbo", &home).path,
        home.root().join("models/ggml-large-v3-turbo.bin")
    );
}

#[test]
fn a_path_is_used_as_is_with_tilde_expanded() {
    let (_dir, home) = home();
    let loc = resolve_model("/opt/models/ggml-small.bin", &home);
    assert_eq!(loc.path, PathBuf::from("/opt/models/ggml-small.bin"));
    assert_eq!(loc.name, "small");
    assert_eq!(
        resolve_model("custom.bin", &home).path,
        PathBuf::from("custom.bin")
    );
    let user_home = dirs::home_dir().unwrap();
    assert_eq!(
        resolve_model("~/m/ggml-tiny.en.bin", &home).path,
        user_home.join("m/ggml-tiny.en.bin")
    );
}

#[test]
fn a_missing_model_says_how_to_download_it() {
    let (_dir, home) = home();
    let loc = resolve_model("small.en", &home);
    let err = check_model_file(&loc).unwrap_err();
    assert!(matches!(err, SttError::ModelMissing { .. }), "{err:?}");
    let text = err.to_string();
    assert!(
        text.contains("hermes voice models download small.en"),
        "{text}"
    );
    assert!(text.contains("ggml-small.en.bin"), "{text}");
}

#[test]
fn a_file_without_the_ggml_magic_is_rejected() {
    let (dir, home) = home();
    let path = dir.path().join("bad.bin");
    std::fs::write(&path, b"<html>not found</html>").unwrap();
    let loc = resolve_model(path.to_str().unwrap(), &home);
    let err = check_model_file(&loc).unwrap_err();
    assert!(matches!(err, SttError::ModelInvalid { .. }), "{err:?}");
    std::fs::write(&path, b"lm").unwrap();
    assert!(matches!(
        check_model_file(&loc),
        Err(SttError::ModelInvalid { .. })
    ));
    std::fs::write(&path, tiny_header()).unwrap();
    check_model_file(&loc).unwrap();
}

#[test]
fn threads_are_between_one_and_four() {
    assert!((1..=4).contains(&thread_count()));
}

#[test]
fn a_real_header_passes_and_garbage_after_the_magic_does_not() {
    let (dir, home) = home();
    let path = dir.path().join("ggml-x.bin");
    let loc = resolve_model(path.to_str().unwrap(), &home);
    std::fs::write(&path, tiny_header()).unwrap();
    check_model_file(&loc).unwrap();

    let mut garbage = GGML_MAGIC.to_vec();
    garbage.extend_from_slice(&[7u8; 64]);
    std::fs::write(&path, garbage).unwrap();
    let err = check_model_file(&loc).unwrap_err();
    assert!(
        err.to_string()
            .contains("header field n_vocab is 117901063"),
        "{err}"
    );

    let mut bad_mels = tiny_header();
    bad_mels[40..44].copy_from_slice(&0i32.to_le_bytes());
    std::fs::write(&path, bad_mels).unwrap();
    let err = check_model_file(&loc).unwrap_err();
    assert!(err.to_string().contains("n_mels is 0"), "{err}");

    std::fs::write(&path, &tiny_header()[..20]).unwrap();
    let err = check_model_file(&loc).unwrap_err();
    assert!(err.to_string().contains("ends inside the header"), "{err}");
}

#[cfg(feature = "whisper")]
#[tokio::test]
async fn a_garbage_model_is_an_error_not_a_crash() {
    let (dir, home) = home();
    let path = dir.path().join("ggml-broken.bin");
    let mut bytes = GGML_MAGIC.to_vec();
    bytes.extend_from_slice(&[7u8; 64]);
    std::fs::write(&path, bytes).unwrap();
    let engine = LocalWhisper::new(resolve_model(path.to_str().unwrap(), &home), "en");
    let err = engine.transcribe(&[0i16; 16_000]).await.unwrap_err();
    assert!(matches!(err, SttError::ModelInvalid { .. }), "{err:?}");
    assert!(err.to_string().contains("ggml-broken.bin"), "{err}");
}

#[cfg(feature = "whisper")]
#[tokio::test]
async fn no_samples_is_an_empty_transcript_without_loading() {
    let (_dir, home) = home();
    let engine = LocalWhisper::new(resolve_model("tiny.en", &home), "en");
    assert_eq!(engine.transcribe(&[]).await.unwrap(), "");
    let err = engine.preload().await.unwrap_err();
    assert!(matches!(err, SttError::ModelMissing { .. }), "{err:?}");
}
