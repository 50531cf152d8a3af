use std::time::Duration;

use super::*;

fn scripts() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    std::fs::create_dir_all(&scripts).unwrap();
    (dir, scripts)
}

#[test]
fn scripts_outside_the_scripts_directory_are_refused() {
    let (_dir, scripts) = scripts();
    assert!(resolve_script(&scripts, "check.sh").is_ok());
    for bad in ["../evil.sh", "/etc/passwd", "sub/../../x.py"] {
        let err = resolve_script(&scripts, bad).unwrap_err().to_string();
        assert!(
            err.starts_with("Blocked: script path resolves outside the scripts directory"),
            "{bad}: {err}"
        );
    }
}

#[tokio::test]
async fn a_script_runs_with_secrets_removed_and_its_output_redacted() {
    let (_dir, scripts) = scripts();
    std::fs::write(scripts.join("env.sh"), "echo \"key=${OPENAI_API_KEY:-none}\"\necho sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789\n").unwrap();
    // SAFETY: tests in this module do not read this variable concurrently.
    unsafe { std::env::set_var("OPENAI_API_KEY", "sk-test-secret-value") };
    let out = run_script(&scripts, "env.sh", None, Duration::from_secs(10))
        .await
        .unwrap();
    assert!(out.starts_with("key=none"), "{out}");
    assert!(
        !out.contains("abcdefghijklmnopqrstuvwxyz0123456789"),
        "{out}"
    );
}

#[tokio::test]
async fn failures_and_timeouts_say_what_happened() {
    let (_dir, scripts) = scripts();
    std::fs::write(
        scripts.join("fail.sh"),
        "echo partial\necho broken >&2\nexit 3\n",
    )
    .unwrap();
    let err = run_script(&scripts, "fail.sh", None, Duration::from_secs(10))
        .await
        .unwrap_err();
    assert_eq!(
        err,
        "Script exited with code 3\nstderr:\nbroken\nstdout:\npartial"
    );
    std::fs::write(scripts.join("slow.sh"), "sleep 30\n").unwrap();
    let started = std::time::Instant::now();
    let err = run_script(&scripts, "slow.sh", None, Duration::from_millis(300))
        .await
        .unwrap_err();
    assert!(err.starts_with("Script timed out after 0s"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(5));
    let err = run_script(&scripts, "missing.py", None, Duration::from_secs(1))
        .await
        .unwrap_err();
    assert!(err.starts_with("Script not found:"), "{err}");
}

#[tokio::test]
async fn python_scripts_run_with_python3() {
    let (_dir, scripts) = scripts();
    std::fs::write(
        scripts.join("gate.py"),
        "print('data')\nprint('{\"wakeAgent\": false}')\n",
    )
    .unwrap();
    let out = run_script(&scripts, "gate.py", None, Duration::from_secs(10))
        .await
        .unwrap();
    assert!(!wakes_agent(&out));
    assert!(wakes_agent("data\n{\"wakeAgent\": true}"));
    assert!(wakes_agent("not json"));
}
