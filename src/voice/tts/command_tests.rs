use std::time::Instant;

use super::*;

fn provider(command: &str, format: &str, timeout: u64) -> CommandTts {
    CommandTts {
        name: "test-cmd".into(),
        command: command.into(),
        format: format.into(),
        timeout: Duration::from_secs(timeout),
        voice: "en-us".into(),
        model: "m1".into(),
        speed: 1.0,
    }
}

#[tokio::test]
async fn espeak_ng_writes_a_wav_that_is_decoded() {
    let tts = provider("espeak-ng -w {output_path} -f {input_path}", "wav", 30);
    let clip = tts
        .synthesize(
            "Hello from the command provider.",
            &CancellationToken::new(),
        )
        .await
        .unwrap();
    assert_eq!(clip.rate, 22_050);
    assert!(
        clip.duration() > Duration::from_millis(500),
        "{:?}",
        clip.duration()
    );
    assert!(clip.samples.iter().any(|&s| s.unsigned_abs() > 1000));
}

#[tokio::test]
async fn placeholders_reach_the_command_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let seen = dir.path().join("seen.txt");
    let text = "it's \"$HOME\" `id`";
    let command = format!(
        "printf '%s|%s|%s|%s|%s|' {{text}} \"{{voice}}\" '{{model}}' {{speed}} {{format}} > '{}'; \
         cat {{text_path}} >> '{}'; espeak-ng -w {{output_path}} -f {{input_path}}",
        seen.display(),
        seen.display()
    );
    let tts = provider(&command, "wav", 30);
    tts.synthesize(text, &CancellationToken::new())
        .await
        .unwrap();
    let got = std::fs::read_to_string(&seen).unwrap();
    assert_eq!(got, format!("{text}|en-us|m1|1.0|wav|{text}"));
}

#[tokio::test]
async fn a_failing_command_reports_its_exit_code_and_stderr() {
    let tts = provider("echo 'no voice here' >&2; exit 3", "wav", 30);
    let err = tts
        .synthesize("Some text.", &CancellationToken::new())
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, SynthError::Command { .. }), "{err:?}");
    assert!(text.contains("test-cmd"), "{text}");
    assert!(text.contains("code 3"), "{text}");
    assert!(text.contains("no voice here"), "{text}");
}

#[tokio::test]
async fn no_output_file_is_an_error() {
    let tts = provider("true", "wav", 30);
    let err = tts
        .synthesize("Some text.", &CancellationToken::new())
        .await
        .unwrap_err();
    assert!(err.to_string().contains("wrote no audio"), "{err}");
}

#[tokio::test]
async fn undecodable_output_is_a_decode_error() {
    let tts = provider("echo garbage > {output_path}", "mp3", 30);
    let err = tts
        .synthesize("Some text.", &CancellationToken::new())
        .await
        .unwrap_err();
    assert!(matches!(err, SynthError::Decode { .. }), "{err:?}");
}

/// Whether `pid` is still a live (non-zombie) process.
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !state.starts_with('Z') && !state.starts_with('X')
        }
        Err(_) => false,
    }
}

#[tokio::test]
async fn timeout_kills_the_whole_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    let command = format!(
        "sleep 30 & echo $! > '{}'; echo started; wait",
        pid_file.display()
    );
    let tts = provider(&command, "wav", 1);
    let started = Instant::now();
    let err = tts
        .synthesize("Some text.", &CancellationToken::new())
        .await
        .unwrap_err();
    let took = started.elapsed();
    assert!(took < Duration::from_secs(5), "took {took:?}");
    assert!(took >= Duration::from_secs(1), "took {took:?}");
    match &err {
        SynthError::Timeout { secs, output, .. } => {
            assert_eq!(*secs, 1);
            assert!(output.contains("started"), "{output}");
        }
        other => panic!("expected a timeout, got {other:?}"),
    }
    assert!(err.to_string().contains("was killed"), "{err}");
    let grandchild: u32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // SIGKILL is delivered asynchronously; give the kernel a moment.
    let deadline = Instant::now() + Duration::from_secs(2);
    while alive(grandchild) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        !alive(grandchild),
        "the background sleep {grandchild} survived"
    );
}

#[tokio::test]
async fn cancellation_kills_at_once() {
    let tts = provider("sleep 30", "wav", 120);
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        trigger.cancel();
    });
    let started = Instant::now();
    let err = tts.synthesize("Some text.", &cancel).await.unwrap_err();
    assert_eq!(err, SynthError::Cancelled);
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[test]
fn speed_prints_like_python() {
    assert_eq!(speed_text(1.0), "1.0");
    assert_eq!(speed_text(2.0), "2.0");
    assert_eq!(speed_text(1.25), "1.25");
}
