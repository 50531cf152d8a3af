use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;

use super::super::consent::ALLOWLIST_FILENAME;
use super::super::test_support::{script, specs};
use super::*;

/// Answers every question the same way and counts them.
struct FixedAsker {
    answer: ConsentAnswer,
    asked: AtomicUsize,
    delay: Duration,
}

impl FixedAsker {
    fn new(answer: ConsentAnswer) -> Arc<Self> {
        Arc::new(Self {
            answer,
            asked: AtomicUsize::new(0),
            delay: Duration::ZERO,
        })
    }
    fn asked(&self) -> usize {
        self.asked.load(Ordering::SeqCst)
    }
}

#[async_trait]
impl ConsentAsker for FixedAsker {
    async fn ask(&self, _event: HookEvent, _command: &str) -> ConsentAnswer {
        self.asked.fetch_add(1, Ordering::SeqCst);
        tokio::time::sleep(self.delay).await;
        self.answer
    }
}

fn store(dir: &Path) -> ConsentStore {
    ConsentStore::load(&dir.join(ALLOWLIST_FILENAME))
}

fn runner(
    dir: &Path,
    yaml: &str,
    accept: AcceptHooks,
    asker: Option<Arc<dyn ConsentAsker>>,
) -> HookRunner {
    HookRunner::new(
        specs(yaml),
        store(dir),
        accept,
        asker,
        dir.to_path_buf(),
        "sess_1".into(),
    )
}

fn accepting(dir: &Path, yaml: &str) -> HookRunner {
    runner(dir, yaml, AcceptHooks::AcceptAll, None)
}

/// A script that records its stdin in `<name>.json` and prints `output`.
fn recorder(dir: &Path, name: &str, output: &str) -> std::path::PathBuf {
    let record = dir.join(format!("{name}.json"));
    script(
        dir,
        &format!("{name}.sh"),
        &format!("cat > '{}'\necho '{output}'", record.display()),
    )
}

fn recorded(dir: &Path, name: &str) -> Option<Value> {
    let text = std::fs::read_to_string(dir.join(format!("{name}.json"))).ok()?;
    Some(serde_json::from_str(&text).unwrap())
}

/// A `pre_tool_call` for `terminal` with empty arguments: the block message, if any.
async fn pre_terminal(runner: &HookRunner) -> Option<String> {
    runner
        .pre_tool_call("terminal", &json!({}), Value::Null)
        .await
}

#[tokio::test]
async fn no_hooks_means_nothing_happens() {
    let dir = tempfile::tempdir().unwrap();
    let asker = FixedAsker::new(ConsentAnswer::Always);
    let runner = HookRunner::new(
        Vec::new(),
        store(dir.path()),
        AcceptHooks::Ask,
        Some(Arc::clone(&asker) as _),
        dir.path().to_path_buf(),
        "s".into(),
    );
    assert!(runner.is_empty());
    assert!(!runner.has(HookEvent::PreToolCall));
    assert_eq!(pre_terminal(&runner).await, None);
    assert!(runner.pre_llm_call("hi", Value::Null).await.is_empty());
    runner
        .post_tool_call("terminal", &json!({}), "{}", Value::Null)
        .await;
    runner.observe(HookEvent::OnSessionStart, Value::Null).await;
    assert_eq!(asker.asked(), 0);
    assert!(!dir.path().join(ALLOWLIST_FILENAME).exists());
}

#[tokio::test]
async fn the_first_block_wins_and_later_hooks_do_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let first = recorder(d, "first", "{}");
    let blocker = recorder(
        d,
        "blocker",
        r#"{"action": "block", "message": "Forbidden: rm -rf"}"#,
    );
    let second = recorder(d, "second", r#"{"decision": "block", "reason": "other"}"#);
    let runner = accepting(
        d,
        &format!(
            "pre_tool_call:\n  - command: {}\n  - command: {}\n  - command: {}\n",
            first.display(),
            blocker.display(),
            second.display()
        ),
    );
    let args = json!({"command": "rm -rf /"});
    let block = runner
        .pre_tool_call(
            "terminal",
            &args,
            json!({"task_id": "t1", "tool_call_id": "c1"}),
        )
        .await;
    assert_eq!(block.as_deref(), Some("Forbidden: rm -rf"));
    let sent = recorded(d, "blocker").unwrap();
    assert_eq!(
        sent,
        json!({
            "hook_event_name": "pre_tool_call",
            "tool_name": "terminal",
            "tool_input": {"command": "rm -rf /"},
            "session_id": "sess_1",
            "cwd": d.to_string_lossy(),
            "extra": {"task_id": "t1", "tool_call_id": "c1"},
        })
    );
    assert!(recorded(d, "first").is_some());
    assert!(
        recorded(d, "second").is_none(),
        "a hook ran after the block"
    );
}

#[tokio::test]
async fn hooks_whose_matcher_does_not_match_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let writes = recorder(
        d,
        "writes",
        r#"{"action": "block", "message": "no writes"}"#,
    );
    let runner = accepting(
        d,
        &format!(
            "pre_tool_call:\n  - matcher: \"write_file|patch\"\n    command: {}\n",
            writes.display()
        ),
    );
    assert_eq!(pre_terminal(&runner).await, None);
    assert!(recorded(d, "writes").is_none());
    assert_eq!(
        runner
            .pre_tool_call("patch", &json!({}), Value::Null)
            .await
            .as_deref(),
        Some("no writes")
    );
}

#[tokio::test]
async fn failing_slow_and_garbled_hooks_never_block() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let slow = script(
        d,
        "slow.sh",
        "sleep 5\necho '{\"action\":\"block\",\"message\":\"late\"}'",
    );
    let garbage = script(d, "garbage.sh", "echo 'Traceback (most recent call last):'");
    let failing = script(d, "failing.sh", "exit 7");
    let runner = accepting(
        d,
        &format!(
            "pre_tool_call:\n  - command: {}\n    timeout: 1\n  - command: {}\n  - command: {}\n  - command: {}\n",
            slow.display(),
            garbage.display(),
            failing.display(),
            d.join("missing.sh").display()
        ),
    );
    let started = Instant::now();
    assert_eq!(pre_terminal(&runner).await, None);
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn pre_llm_call_collects_context_in_config_order() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = recorder(d, "a", r#"{"context": "Today is Friday"}"#);
    let broken = script(d, "broken.sh", "echo 'not json'\nexit 1");
    let empty = script(d, "empty.sh", "exit 0");
    let b = script(d, "b.sh", r#"echo '{"context": "Branch: main"}'"#);
    let runner = accepting(
        d,
        &format!(
            "pre_llm_call:\n  - command: {}\n  - command: {}\n  - command: {}\n  - command: {}\n",
            a.display(),
            broken.display(),
            empty.display(),
            b.display()
        ),
    );
    let contexts = runner
        .pre_llm_call("What is the weather?", json!({"is_first_turn": true}))
        .await;
    assert_eq!(contexts, ["Today is Friday", "Branch: main"]);
    let sent = recorded(d, "a").unwrap();
    assert_eq!(sent["tool_name"], Value::Null);
    assert_eq!(sent["tool_input"], Value::Null);
    assert_eq!(
        sent["extra"],
        json!({"is_first_turn": true, "user_message": "What is the weather?"})
    );
}

#[tokio::test]
async fn post_tool_call_sends_the_result() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let log = recorder(d, "log", r#"{"action": "block", "message": "ignored"}"#);
    let runner = accepting(
        d,
        &format!(
            "post_tool_call:\n  - matcher: terminal\n    command: {}\n",
            log.display()
        ),
    );
    runner
        .post_tool_call(
            "terminal",
            &json!({"command": "ls"}),
            r#"{"output": "a"}"#,
            json!({"duration_ms": 5}),
        )
        .await;
    let sent = recorded(d, "log").unwrap();
    assert_eq!(sent["hook_event_name"], "post_tool_call");
    assert_eq!(sent["tool_input"], json!({"command": "ls"}));
    assert_eq!(
        sent["extra"],
        json!({"duration_ms": 5, "result": "{\"output\": \"a\"}"})
    );
}

#[tokio::test]
async fn observers_see_the_current_session_id() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let start = recorder(d, "start", "");
    let runner = accepting(
        d,
        &format!("on_session_start:\n  - command: {}\n", start.display()),
    );
    let clone = runner.clone();
    clone.set_session_id("sess_2");
    runner
        .observe(
            HookEvent::OnSessionStart,
            json!({"model": "m", "platform": "cli"}),
        )
        .await;
    let sent = recorded(d, "start").unwrap();
    assert_eq!(sent["hook_event_name"], "on_session_start");
    assert_eq!(sent["session_id"], "sess_2");
    assert_eq!(sent["extra"], json!({"model": "m", "platform": "cli"}));
    // Another event's hooks do not run.
    std::fs::remove_file(d.join("start.json")).unwrap();
    runner.observe(HookEvent::OnSessionEnd, Value::Null).await;
    assert!(recorded(d, "start").is_none());
}

#[tokio::test]
async fn accept_all_runs_and_records_consent() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let hook = recorder(d, "hook", "");
    let runner = accepting(
        d,
        &format!("post_llm_call:\n  - command: {}\n", hook.display()),
    );
    runner.observe(HookEvent::PostLlmCall, Value::Null).await;
    assert!(recorded(d, "hook").is_some());
    assert!(store(d).is_allowed(HookEvent::PostLlmCall, &hook.display().to_string()));
}

#[tokio::test]
async fn without_an_asker_unconsented_hooks_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let hook = recorder(d, "hook", r#"{"action": "block", "message": "x"}"#);
    let runner = runner(
        d,
        &format!("pre_tool_call:\n  - command: {}\n", hook.display()),
        AcceptHooks::Ask,
        None,
    );
    assert_eq!(pre_terminal(&runner).await, None);
    assert_eq!(pre_terminal(&runner).await, None);
    assert!(recorded(d, "hook").is_none());
    assert!(!d.join(ALLOWLIST_FILENAME).exists());
}

#[tokio::test]
async fn allowlisted_hooks_run_without_asking() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let hook = recorder(d, "hook", "");
    let command = hook.display().to_string();
    store(d).allow(HookEvent::OnSessionEnd, &command).unwrap();
    let asker = FixedAsker::new(ConsentAnswer::Deny);
    let runner = runner(
        d,
        &format!("on_session_end:\n  - command: {command}\n"),
        AcceptHooks::Ask,
        Some(Arc::clone(&asker) as _),
    );
    runner.observe(HookEvent::OnSessionEnd, Value::Null).await;
    assert!(recorded(d, "hook").is_some());
    assert_eq!(asker.asked(), 0);
}

#[tokio::test]
async fn once_allows_for_the_session_without_recording() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let hook = recorder(d, "hook", r#"{"context": "ctx"}"#);
    let asker = FixedAsker::new(ConsentAnswer::Once);
    let runner = runner(
        d,
        &format!("pre_llm_call:\n  - command: {}\n", hook.display()),
        AcceptHooks::Ask,
        Some(Arc::clone(&asker) as _),
    );
    assert_eq!(runner.pre_llm_call("a", Value::Null).await, ["ctx"]);
    assert_eq!(runner.clone().pre_llm_call("b", Value::Null).await, ["ctx"]);
    assert_eq!(asker.asked(), 1);
    assert!(!store(d).is_allowed(HookEvent::PreLlmCall, &hook.display().to_string()));
}

#[tokio::test]
async fn always_records_consent_for_later_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let hook = recorder(d, "hook", r#"{"context": "ctx"}"#);
    let yaml = format!("pre_llm_call:\n  - command: {}\n", hook.display());
    let asker = FixedAsker::new(ConsentAnswer::Always);
    let first = runner(d, &yaml, AcceptHooks::Ask, Some(Arc::clone(&asker) as _));
    assert_eq!(first.pre_llm_call("a", Value::Null).await, ["ctx"]);
    assert_eq!(asker.asked(), 1);
    // A later session loads the allowlist and does not ask.
    let second = runner(d, &yaml, AcceptHooks::Ask, Some(Arc::clone(&asker) as _));
    assert_eq!(second.pre_llm_call("a", Value::Null).await, ["ctx"]);
    assert_eq!(asker.asked(), 1);
}

#[tokio::test]
async fn deny_skips_for_the_session_and_asks_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let hook = recorder(d, "hook", r#"{"action": "block", "message": "x"}"#);
    let yaml = format!("pre_tool_call:\n  - command: {}\n", hook.display());
    let asker = FixedAsker::new(ConsentAnswer::Deny);
    let runner = runner(d, &yaml, AcceptHooks::Ask, Some(Arc::clone(&asker) as _));
    assert_eq!(pre_terminal(&runner).await, None);
    assert_eq!(
        runner
            .pre_tool_call("read_file", &json!({}), Value::Null)
            .await,
        None
    );
    assert_eq!(asker.asked(), 1);
    assert!(recorded(d, "hook").is_none());
    assert!(!d.join(ALLOWLIST_FILENAME).exists());
}

#[tokio::test]
async fn consent_is_per_event_and_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let hook = recorder(d, "hook", "");
    let asker = FixedAsker::new(ConsentAnswer::Once);
    let runner = runner(
        d,
        &format!(
            "pre_tool_call:\n  - command: {0}\npost_tool_call:\n  - command: {0}\n",
            hook.display()
        ),
        AcceptHooks::Ask,
        Some(Arc::clone(&asker) as _),
    );
    pre_terminal(&runner).await;
    runner
        .post_tool_call("terminal", &json!({}), "", Value::Null)
        .await;
    pre_terminal(&runner).await;
    assert_eq!(asker.asked(), 2);
}

#[tokio::test]
async fn parallel_first_uses_ask_only_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let hook = recorder(d, "hook", "{}");
    let asker = Arc::new(FixedAsker {
        answer: ConsentAnswer::Once,
        asked: AtomicUsize::new(0),
        delay: Duration::from_millis(100),
    });
    let runner = runner(
        d,
        &format!("pre_tool_call:\n  - command: {}\n", hook.display()),
        AcceptHooks::Ask,
        Some(Arc::clone(&asker) as _),
    );
    let (r1, r2) = (runner.clone(), runner.clone());
    let (a, b, c) = tokio::join!(
        r1.pre_tool_call("terminal", &Value::Null, Value::Null),
        r2.pre_tool_call("read_file", &Value::Null, Value::Null),
        runner.pre_tool_call("patch", &Value::Null, Value::Null),
    );
    assert_eq!((a, b, c), (None, None, None));
    assert_eq!(asker.asked(), 1);
}

#[tokio::test]
async fn consent_is_asked_only_for_hooks_that_would_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let blocker = script(
        d,
        "blocker.sh",
        r#"echo '{"action":"block","message":"stop"}'"#,
    );
    let later = script(d, "later.sh", "exit 0");
    let asker = FixedAsker::new(ConsentAnswer::Once);
    let runner = runner(
        d,
        &format!(
            "pre_tool_call:\n  - command: {}\n  - command: {}\n  - matcher: patch\n    command: {}\n",
            blocker.display(),
            later.display(),
            later.display()
        ),
        AcceptHooks::Ask,
        Some(Arc::clone(&asker) as _),
    );
    assert_eq!(pre_terminal(&runner).await.as_deref(), Some("stop"));
    assert_eq!(asker.asked(), 1, "asked about a hook that never got to run");
}

#[test]
fn accept_hooks_resolves_from_flag_env_or_config() {
    let none = |_: &str| None;
    let env_on = |k: &str| (k == ACCEPT_HOOKS_ENV).then(|| " TRUE ".to_owned());
    let env_off = |k: &str| (k == ACCEPT_HOOKS_ENV).then(|| "0".to_owned());
    let config = Config::default();
    let auto = Config {
        hooks_auto_accept: true,
        ..Config::default()
    };
    assert_eq!(
        AcceptHooks::resolve(AcceptHooks::Ask, &none, &config),
        AcceptHooks::Ask
    );
    assert_eq!(
        AcceptHooks::resolve(AcceptHooks::Ask, &env_off, &config),
        AcceptHooks::Ask
    );
    assert_eq!(
        AcceptHooks::resolve(AcceptHooks::AcceptAll, &none, &config),
        AcceptHooks::AcceptAll
    );
    assert_eq!(
        AcceptHooks::resolve(AcceptHooks::Ask, &env_on, &config),
        AcceptHooks::AcceptAll
    );
    assert_eq!(
        AcceptHooks::resolve(AcceptHooks::Ask, &none, &auto),
        AcceptHooks::AcceptAll
    );
}

#[test]
fn the_runner_debug_output_is_short() {
    let dir = tempfile::tempdir().unwrap();
    let runner = accepting(dir.path(), "post_llm_call:\n  - command: x\n");
    assert_eq!(runner.specs().len(), 1);
    assert!(format!("{runner:?}").contains("hooks: 1"));
}

#[test]
fn runner_futures_are_send() {
    fn assert_send<T: Send>(_: &T) {}
    let dir = tempfile::tempdir().unwrap();
    let runner = accepting(dir.path(), "post_llm_call:\n  - command: x\n");
    let args = json!({});
    assert_send(&runner.pre_tool_call("t", &args, Value::Null));
    assert_send(&runner.post_tool_call("t", &args, "", Value::Null));
    assert_send(&runner.pre_llm_call("m", Value::Null));
    assert_send(&runner.observe(HookEvent::PostLlmCall, Value::Null));
    fn assert_sync<T: Send + Sync + Clone + 'static>(_: &T) {}
    assert_sync(&runner);
}
