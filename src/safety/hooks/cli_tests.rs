use std::time::{Duration, SystemTime};

use serde_json::json;

use super::super::test_support::{script, yaml};
use super::*;

struct Fixture {
    dir: tempfile::TempDir,
    home: HermesHome,
}

impl Fixture {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let home = HermesHome::from_base(dir.path().join("home"), None).unwrap();
        Self { dir, home }
    }
    fn path(&self) -> &Path {
        self.dir.path()
    }
    fn config(&self, hooks: &str) -> Config {
        Config {
            hooks: yaml(hooks),
            ..Config::default()
        }
    }
    fn allow(&self, event: HookEvent, command: &Path) {
        ConsentStore::load_from(&self.home)
            .allow(event, &command.display().to_string())
            .unwrap();
    }
}

#[tokio::test]
async fn list_without_hooks_says_so() {
    let f = Fixture::new();
    let out = list(&f.home, &Config::default()).await;
    assert!(out.starts_with("No shell hooks configured in "), "{out}");
    assert!(out.contains("config.yaml"), "{out}");
}

#[tokio::test]
async fn list_shows_hooks_by_event_with_consent_and_warnings() {
    let f = Fixture::new();
    let guard = script(f.path(), "guard.sh", "exit 0");
    let ctx = script(f.path(), "ctx.sh", "exit 0");
    f.allow(HookEvent::PreToolCall, &guard);
    let config = f.config(&format!(
        "pre_llm_call:\n  - command: {}\npre_tool_call:\n  - matcher: \"terminal|patch\"\n    command: {}\n    timeout: 5\npre_tool_cal:\n  - command: x\n",
        ctx.display(),
        guard.display()
    ));
    let out = list(&f.home, &config).await;
    assert!(out.contains("Configured shell hooks (2 total):"), "{out}");
    // Catalogue order: pre_tool_call before pre_llm_call.
    let tool_at = out.find("[pre_tool_call]").unwrap();
    let llm_at = out.find("[pre_llm_call]").unwrap();
    assert!(tool_at < llm_at, "{out}");
    assert!(
        out.contains(&format!(
            "- {} matcher=\"terminal|patch\" (timeout=5s, ✓ allowed)",
            guard.display()
        )),
        "{out}"
    );
    assert!(out.contains("approved_at: "), "{out}");
    assert!(
        out.contains(&format!(
            "- {} (timeout=60s, ✗ not allowlisted)",
            ctx.display()
        )),
        "{out}"
    );
    assert!(out.contains("Config warnings:"), "{out}");
    assert!(out.contains("did you mean `pre_tool_call`?"), "{out}");
    assert!(!out.contains("modified since approval"), "{out}");
}

#[tokio::test]
async fn list_flags_a_script_modified_since_consent() {
    let f = Fixture::new();
    let guard = script(f.path(), "guard.sh", "exit 0");
    f.allow(HookEvent::PreToolCall, &guard);
    touch_later(&guard);
    let config = f.config(&format!(
        "pre_tool_call:\n  - command: {}\n",
        guard.display()
    ));
    let out = list(&f.home, &config).await;
    assert!(out.contains("⚠ script modified since approval"), "{out}");
}

#[tokio::test]
async fn test_rejects_an_unknown_event_listing_the_valid_ones() {
    let f = Fixture::new();
    let err = test(&f.home, &Config::default(), "pre_tool_cal", None, None)
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("did you mean `pre_tool_call`?"), "{text}");
    assert!(
        text.contains("valid: pre_tool_call, post_tool_call, pre_llm_call"),
        "{text}"
    );
}

#[tokio::test]
async fn test_fires_hooks_without_consent_and_shows_the_parsed_response() {
    let f = Fixture::new();
    let block = script(
        f.path(),
        "block.sh",
        r#"cat > /dev/null; echo '{"decision": "block", "reason": "Forbidden"}'; echo note >&2"#,
    );
    let garbage = script(f.path(), "garbage.sh", "echo 'not json'; exit 2");
    let config = f.config(&format!(
        "pre_tool_call:\n  - command: {}\n  - command: {}\n",
        block.display(),
        garbage.display()
    ));
    let out = test(&f.home, &config, "pre_tool_call", None, None)
        .await
        .unwrap();
    assert!(out.contains("Firing 2 hook(s) for pre_tool_call:"), "{out}");
    assert!(
        out.contains("not allowlisted: fired for this test only"),
        "{out}"
    );
    assert!(out.contains("exit=0"), "{out}");
    assert!(out.contains("stderr: note"), "{out}");
    assert!(out.contains("parsed: block: Forbidden"), "{out}");
    assert!(out.contains("exit=2"), "{out}");
    assert!(out.contains("parsed: invalid: \"not json\""), "{out}");
    // `test` never records consent.
    assert!(ConsentStore::load_from(&f.home).entries().is_empty());
}

#[tokio::test]
async fn test_reports_a_timeout() {
    let f = Fixture::new();
    let slow = script(f.path(), "slow.sh", "sleep 5");
    let config = f.config(&format!(
        "on_session_start:\n  - command: {}\n    timeout: 1\n",
        slow.display()
    ));
    let out = test(&f.home, &config, "on_session_start", None, None)
        .await
        .unwrap();
    assert!(out.contains("✗ timed out after"), "{out}");
}

#[tokio::test]
async fn test_filters_by_tool_and_merges_the_payload_file() {
    let f = Fixture::new();
    let record = f.path().join("stdin.json");
    let hook = script(f.path(), "rec.sh", &format!("cat > '{}'", record.display()));
    let config = f.config(&format!(
        "post_tool_call:\n  - matcher: write_file\n    command: {}\n",
        hook.display()
    ));
    let out = test(&f.home, &config, "post_tool_call", Some("terminal"), None)
        .await
        .unwrap();
    assert!(
        out.contains("No shell hooks configured for post_tool_call matching tool `terminal`."),
        "{out}"
    );
    assert!(!record.exists());

    let payload = f.path().join("payload.json");
    std::fs::write(
        &payload,
        r#"{"args": {"path": "a.txt"}, "session_id": "mine", "result": "ok", "custom": 1}"#,
    )
    .unwrap();
    let out = test(
        &f.home,
        &config,
        "post_tool_call",
        Some("write_file"),
        Some(&payload),
    )
    .await
    .unwrap();
    assert!(out.contains("Firing 1 hook(s)"), "{out}");
    let sent: Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(sent["hook_event_name"], "post_tool_call");
    assert_eq!(sent["tool_name"], "write_file");
    assert_eq!(sent["tool_input"], json!({"path": "a.txt"}));
    assert_eq!(sent["session_id"], "mine");
    assert_eq!(sent["extra"]["result"], "ok");
    assert_eq!(sent["extra"]["custom"], 1);
    assert_eq!(sent["extra"]["task_id"], "test-task");
}

#[tokio::test]
async fn test_rejects_bad_payload_files() {
    let f = Fixture::new();
    let config = Config::default();
    let missing = f.path().join("missing.json");
    let err = test(&f.home, &config, "pre_llm_call", None, Some(&missing))
        .await
        .unwrap_err();
    assert!(matches!(err, HooksCliError::PayloadRead { .. }), "{err}");
    let list = f.path().join("list.json");
    std::fs::write(&list, "[1]").unwrap();
    let err = test(&f.home, &config, "pre_llm_call", None, Some(&list))
        .await
        .unwrap_err();
    assert!(
        matches!(err, HooksCliError::PayloadNotObject { .. }),
        "{err}"
    );
    std::fs::write(&list, "{oops").unwrap();
    let err = test(&f.home, &config, "pre_llm_call", None, Some(&list))
        .await
        .unwrap_err();
    assert!(matches!(err, HooksCliError::PayloadJson { .. }), "{err}");
}

#[test]
fn revoke_reports_how_many_entries_went() {
    let f = Fixture::new();
    let hook = f.path().join("hook.sh");
    f.allow(HookEvent::PreToolCall, &hook);
    f.allow(HookEvent::PostToolCall, &hook);
    let command = hook.display().to_string();
    let out = revoke(&f.home, &command).unwrap();
    assert!(
        out.starts_with(&format!("Removed 2 allowlist entries for: {command}")),
        "{out}"
    );
    let out = revoke(&f.home, &command).unwrap();
    assert_eq!(out, format!("No allowlist entry found for: {command}\n"));
    f.allow(HookEvent::PreToolCall, &hook);
    assert!(
        revoke(&f.home, &command)
            .unwrap()
            .starts_with("Removed 1 allowlist entry for")
    );
}

#[tokio::test]
async fn doctor_without_hooks_has_nothing_to_check() {
    let f = Fixture::new();
    let out = doctor(&f.home, &Config::default()).await;
    assert_eq!(out, "No shell hooks configured: nothing to check.\n");
}

#[tokio::test]
async fn doctor_checks_each_hook() {
    let f = Fixture::new();
    let d = f.path();
    let marker = d.join("unapproved-ran");
    let good = script(d, "good.sh", r#"echo '{"context": "hi"}'"#);
    let quiet = script(d, "quiet.sh", "exit 0");
    let garbage = script(d, "garbage.sh", "echo 'not json'");
    let unapproved = script(d, "unapproved.sh", &format!("touch '{}'", marker.display()));
    let noexec = script(d, "noexec.sh", "exit 0");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&noexec, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let missing = d.join("missing.sh");
    for hook in [&good, &quiet, &garbage, &noexec, &missing] {
        f.allow(HookEvent::PreLlmCall, hook);
    }
    let config = f.config(&format!(
        "pre_llm_call:\n{}",
        [&good, &quiet, &garbage, &unapproved, &noexec, &missing]
            .iter()
            .map(|p| format!("  - command: {}\n", p.display()))
            .collect::<String>()
    ));
    let out = doctor(&f.home, &config).await;
    let section = |hook: &Path| -> String {
        let start = out.find(&format!("] {}", hook.display())).unwrap();
        let rest = &out[start..];
        let end = rest[1..].find("\n  [").map_or(rest.len(), |i| i + 1);
        rest[..end].to_owned()
    };
    let s = section(&good);
    assert!(s.contains("exists and is executable"), "{s}");
    assert!(s.contains("✓ allowlisted (approved "), "{s}");
    assert!(s.contains("✓ script unchanged since approval"), "{s}");
    assert!(s.contains("✓ printed valid JSON (exit=0"), "{s}");
    assert!(section(&quiet).contains("✓ ran with empty stdout"), "{out}");
    assert!(
        section(&garbage).contains("✗ stdout is not valid JSON"),
        "{out}"
    );
    let s = section(&unapproved);
    assert!(s.contains("✗ not allowlisted"), "{s}");
    assert!(s.contains("smoke test skipped"), "{s}");
    assert!(
        !marker.exists(),
        "doctor ran a hook that was not allowlisted"
    );
    assert!(
        section(&noexec).contains("is not executable (chmod +x)"),
        "{out}"
    );
    assert!(section(&missing).contains("not found"), "{out}");
    assert!(out.trim_end().ends_with("issue(s) found."), "{out}");
}

#[tokio::test]
async fn doctor_flags_drift_and_reports_healthy_hooks() {
    let f = Fixture::new();
    let hook = script(f.path(), "hook.sh", "exit 0");
    f.allow(HookEvent::OnSessionEnd, &hook);
    let config = f.config(&format!(
        "on_session_end:\n  - command: {}\n",
        hook.display()
    ));
    let out = doctor(&f.home, &config).await;
    assert!(out.ends_with("All shell hooks look healthy.\n"), "{out}");
    touch_later(&hook);
    let out = doctor(&f.home, &config).await;
    assert!(out.contains("⚠ script modified since approval"), "{out}");
    assert!(out.contains("1 issue(s) found."), "{out}");
}

#[tokio::test]
async fn doctor_counts_config_warnings() {
    let f = Fixture::new();
    let config = f.config("pre_tool_call:\n  - matcher: x\n");
    let out = doctor(&f.home, &config).await;
    assert!(out.contains("Config warnings:"), "{out}");
    assert!(out.contains("No shell hooks configured"), "{out}");
}

fn touch_later(path: &Path) {
    let later = SystemTime::now() + Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(later)
        .unwrap();
}
