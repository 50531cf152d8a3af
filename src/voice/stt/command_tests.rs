use super::*;

fn engine(template: &str) -> CommandTranscriber {
    CommandTranscriber::new(template, Duration::from_secs(20), "en", "base.en")
}

#[test]
fn placeholders_are_shell_quoted_and_braces_escaped() {
    let out = render(
        "run {input_path} --lang {language} {{x}} {unknown} }",
        &[("input_path", "/tmp/my dir/a'b.wav"), ("language", "en")],
    );
    assert_eq!(
        shlex::split(&out).unwrap(),
        [
            "run",
            "/tmp/my dir/a'b.wav",
            "--lang",
            "en",
            "{x}",
            "{unknown}",
            "}"
        ]
    );
    assert!(
        out.starts_with("run ") && out.ends_with(" {x} {unknown} }"),
        "{out}"
    );
    assert_eq!(render("{model}", &[("model", "base.en")]), "base.en");
    assert_eq!(render("{{{model}}}", &[("model", "m")]), "{m}");
    assert_eq!(render("é {model} ü", &[("model", "x y")]), "é 'x y' ü");
}

#[tokio::test]
async fn stdout_is_the_transcript() {
    let text = engine("printf 'hello from the command'")
        .transcribe(&[0; 1600])
        .await
        .unwrap();
    assert_eq!(text, "hello from the command");
}

#[tokio::test]
async fn the_command_reads_the_wav_at_input_path() {
    // 44-byte header + 2 bytes per sample.
    let text = engine("wc -c < {input_path}")
        .transcribe(&[0; 1600])
        .await
        .unwrap();
    assert_eq!(text.trim(), (44 + 3200).to_string());
    let head = engine("head -c 4 {input_path}")
        .transcribe(&[1; 10])
        .await
        .unwrap();
    assert_eq!(head, "RIFF");
}

#[tokio::test]
async fn a_txt_under_output_dir_wins_over_stdout() {
    let text = engine(
        "mkdir -p {output_dir}/deep && printf 'from file {language} {model}' > \
         {output_dir}/deep/transcript.txt && echo noise",
    )
    .transcribe(&[0; 160])
    .await
    .unwrap();
    assert_eq!(text, "from file en base.en");
}

#[tokio::test]
async fn a_failing_command_reports_its_status_and_stderr() {
    let err = engine("echo 'model not found: xyz' >&2; exit 3")
        .transcribe(&[0; 160])
        .await
        .unwrap_err();
    let SttError::CommandFailed { status, output, .. } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(status, "exit code 3");
    assert_eq!(output, "model not found: xyz");
    let text = err.to_string();
    assert!(
        text.contains("(exit code 3): model not found: xyz"),
        "{text}"
    );
}

#[tokio::test]
async fn a_slow_command_is_killed_with_its_children() {
    let marker = std::env::temp_dir().join(format!("hermes-stt-kill-{}", std::process::id()));
    let _ = std::fs::remove_file(&marker);
    let template = format!(
        "(sleep 2; touch {}) & sleep 30",
        shlex::try_quote(marker.to_str().unwrap()).unwrap()
    );
    let engine = CommandTranscriber::new(&template, Duration::from_millis(300), "en", "m");
    let started = std::time::Instant::now();
    let err = engine.transcribe(&[0; 160]).await.unwrap_err();
    assert!(matches!(err, SttError::CommandTimeout { .. }), "{err:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert!(
        !marker.exists(),
        "the background child survived the timeout"
    );
}

#[tokio::test]
async fn the_temp_directory_is_removed() {
    let dir = engine("dirname {input_path}")
        .transcribe(&[0; 160])
        .await
        .unwrap();
    let dir = std::path::PathBuf::from(dir.trim());
    assert!(dir.starts_with(std::env::temp_dir()), "{}", dir.display());
    assert!(!dir.exists(), "{} left behind", dir.display());
}

#[test]
fn zero_timeout_means_the_default() {
    let e = CommandTranscriber::new("true", Duration::ZERO, "en", "m");
    assert_eq!(e.timeout, DEFAULT_TIMEOUT);
}
