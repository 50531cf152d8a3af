use std::sync::Arc;

use super::*;
use crate::tools::ToolOutcome;
use crate::tools::test_support;

const ESPEAK_CONFIG: &str = "tts:\n  provider: espeak\n  providers:\n    espeak:\n      type: command\n      command: \"espeak-ng -w {output_path} -f {input_path}\"\n      output_format: wav\n      max_text_length: 40\n";

fn home_with(config: &str) -> (tempfile::TempDir, HermesHome) {
    let dir = tempfile::tempdir().unwrap();
    let home = HermesHome::from_base(dir.path().join("home"), None).unwrap();
    std::fs::create_dir_all(home.root()).unwrap();
    std::fs::write(home.config_path(), config).unwrap();
    (dir, home)
}

fn answer(out: &ToolOutput) -> serde_json::Value {
    assert_eq!(out.outcome, ToolOutcome::Ok, "{}", out.content);
    serde_json::from_str(&out.content).unwrap()
}

#[tokio::test]
async fn speaks_into_the_audio_cache_by_default() {
    let (dir, home) = home_with(ESPEAK_CONFIG);
    let tool = TextToSpeechTool::new(home.clone());
    let out = tool
        .call(
            json!({"text": "Hello from the agent."}),
            &test_support::ctx(dir.path()),
        )
        .await;
    let v = answer(&out);
    assert_eq!(v["success"], true);
    assert_eq!(v["provider"], "espeak");
    assert_eq!(v["sample_rate"], 22_050);
    let path = PathBuf::from(v["file_path"].as_str().unwrap());
    assert!(
        path.starts_with(home.audio_cache_dir()),
        "{}",
        path.display()
    );
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    assert!(name.starts_with("tts_") && name.ends_with(".wav"), "{name}");
    let clip = decode::read_wav(&path).unwrap();
    let seconds = v["duration_seconds"].as_f64().unwrap();
    assert!(seconds > 0.5, "{seconds}");
    assert!((clip.duration().as_secs_f64() - seconds).abs() < 0.01);
    assert!(v.get("note").is_none());
}

#[tokio::test]
async fn an_output_path_is_used_as_wav_and_long_text_is_cut() {
    let (dir, home) = home_with(ESPEAK_CONFIG);
    let tool = TextToSpeechTool::new(home);
    let long = "This text is much longer than the forty characters allowed here.";
    let out = tool
        .call(
            json!({"text": long, "output_path": "out/greeting.mp3"}),
            &test_support::ctx(dir.path()),
        )
        .await;
    let v = answer(&out);
    let expected = dir.path().join("out/greeting.wav");
    assert_eq!(v["file_path"], expected.display().to_string());
    assert!(expected.is_file());
    assert!(v["note"].as_str().unwrap().contains(".wav"), "{v}");

    let out = tool
        .call(
            json!({"text": long, "output_path": "cut.wav"}),
            &test_support::ctx(dir.path()),
        )
        .await;
    let v = answer(&out);
    assert!(
        v["note"].as_str().unwrap().contains("cut to 40 characters"),
        "{v}"
    );
}

#[tokio::test]
async fn an_explicit_path_needs_the_write_policy() {
    let (dir, home) = home_with(ESPEAK_CONFIG);
    let tool = TextToSpeechTool::new(home);
    let mut ctx = test_support::ctx(dir.path());
    ctx.policy = Arc::new(test_support::RefuseWrites);
    let out = tool
        .call(json!({"text": "Hello.", "output_path": "x.wav"}), &ctx)
        .await;
    assert_eq!(out.outcome, ToolOutcome::Denied, "{}", out.content);
    assert!(!dir.path().join("x.wav").exists());
}

#[tokio::test]
async fn errors_are_readable() {
    let (dir, home) = home_with("tts:\n  provider: edge\n");
    let tool = TextToSpeechTool::new(home);
    let ctx = test_support::ctx(dir.path());
    let out = tool.call(json!({"text": "Hello."}), &ctx).await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert!(out.content.contains("edge"), "{}", out.content);

    let out = tool.call(json!({"text": "   "}), &ctx).await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert!(out.content.contains("text is empty"), "{}", out.content);

    let out = tool.call(json!({"output_path": "a.wav"}), &ctx).await;
    assert_eq!(out.outcome, ToolOutcome::Error);

    let failing = "tts:\n  provider: broken\n  providers:\n    broken:\n      command: \"echo boom >&2; exit 4\"\n      output_format: wav\n";
    let (dir, home) = home_with(failing);
    let out = TextToSpeechTool::new(home)
        .call(json!({"text": "Hello."}), &test_support::ctx(dir.path()))
        .await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert!(
        out.content.contains("boom") && out.content.contains("code 4"),
        "{}",
        out.content
    );
}

#[test]
fn the_schema_asks_for_text() {
    let (_dir, home) = home_with("");
    let schema = TextToSpeechTool::new(home).schema();
    assert_eq!(schema.name, "text_to_speech");
    assert_eq!(schema.parameters["required"], json!(["text"]));
}
