use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, UNIX_EPOCH};

use serde_json::json;

use super::super::test_support::script;
use super::*;

fn store_in(dir: &Path) -> ConsentStore {
    ConsentStore::load(&dir.join(ALLOWLIST_FILENAME))
}

fn file_json(store: &ConsentStore) -> Value {
    serde_json::from_str(&std::fs::read_to_string(store.path()).unwrap()).unwrap()
}

#[test]
fn the_file_lives_in_the_active_home() {
    let dir = tempfile::tempdir().unwrap();
    let home = HermesHome::from_base(dir.path(), Some("work")).unwrap();
    assert_eq!(
        ConsentStore::path_in(&home),
        dir.path().join("profiles/work/shell-hooks-allowlist.json")
    );
}

#[test]
fn a_missing_file_is_empty() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_in(dir.path());
    assert!(store.entries().is_empty());
    assert!(!store.is_allowed(HookEvent::PreToolCall, "x"));
}

#[test]
fn corrupt_or_odd_files_read_as_empty() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(ALLOWLIST_FILENAME);
    for text in [
        "{not json",
        "[1, 2]",
        "",
        "{\"approvals\": 7}",
        "{\"approvals\": [1, {\"event\": \"pre_tool_call\"}]}",
    ] {
        std::fs::write(&path, text).unwrap();
        assert!(ConsentStore::load(&path).entries().is_empty(), "{text}");
    }
}

#[test]
fn a_hermes_written_file_is_understood() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(ALLOWLIST_FILENAME);
    let hermes = json!({"approvals": [{
        "approved_at": "2026-04-17T10:00:00.123456Z",
        "command": "~/.hermes/agent-hooks/guard.sh",
        "event": "pre_tool_call",
        "script_mtime_at_approval": "2026-04-16T09:00:00Z"
    }]});
    // Hermes tolerates a UTF-8 BOM; so do we.
    std::fs::write(&path, format!("\u{feff}{hermes}")).unwrap();
    let store = ConsentStore::load(&path);
    assert!(store.is_allowed(HookEvent::PreToolCall, "~/.hermes/agent-hooks/guard.sh"));
    assert!(!store.is_allowed(HookEvent::PostToolCall, "~/.hermes/agent-hooks/guard.sh"));
    let entry = store
        .entry(HookEvent::PreToolCall, "~/.hermes/agent-hooks/guard.sh")
        .unwrap();
    assert_eq!(
        entry.approved_at.as_deref(),
        Some("2026-04-17T10:00:00.123456Z")
    );
    assert_eq!(
        entry.script_mtime_at_approval.as_deref(),
        Some("2026-04-16T09:00:00Z")
    );
}

#[test]
fn allow_persists_in_hermes_shape_with_mode_0600() {
    let dir = tempfile::tempdir().unwrap();
    let hook = script(dir.path(), "guard.sh", "exit 0");
    let command = format!("{} --strict", hook.display());
    let mut store = store_in(dir.path());
    store.allow(HookEvent::PreToolCall, &command).unwrap();
    assert!(store.is_allowed(HookEvent::PreToolCall, &command));

    let doc = file_json(&store);
    let list = doc["approvals"].as_array().unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["event"], "pre_tool_call");
    assert_eq!(list[0]["command"], command.as_str());
    let approved = list[0]["approved_at"].as_str().unwrap();
    assert!(
        approved.ends_with('Z') && parse_iso(approved).is_some(),
        "{approved}"
    );
    let mtime = list[0]["script_mtime_at_approval"].as_str().unwrap();
    assert_eq!(mtime, format_iso(command::mtime(&hook).unwrap()));

    let mode = std::fs::metadata(store.path())
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    // A fresh load sees it.
    assert!(store_in(dir.path()).is_allowed(HookEvent::PreToolCall, &command));
}

#[test]
fn allow_without_a_script_records_a_null_mtime() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = store_in(dir.path());
    store
        .allow(HookEvent::PostLlmCall, "/nonexistent/hook.sh")
        .unwrap();
    assert_eq!(
        file_json(&store)["approvals"][0]["script_mtime_at_approval"],
        Value::Null
    );
}

#[test]
fn allowing_twice_keeps_one_entry_per_pair() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = store_in(dir.path());
    store.allow(HookEvent::PreToolCall, "a").unwrap();
    store.allow(HookEvent::PreToolCall, "a").unwrap();
    store.allow(HookEvent::PostToolCall, "a").unwrap();
    assert_eq!(store.entries().len(), 2);
}

#[test]
fn revoke_removes_every_event_for_the_command() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = store_in(dir.path());
    store.allow(HookEvent::PreToolCall, "a").unwrap();
    store.allow(HookEvent::PostToolCall, "a").unwrap();
    store.allow(HookEvent::PreToolCall, "b").unwrap();
    assert_eq!(store.revoke("a").unwrap(), 2);
    assert_eq!(store.revoke("a").unwrap(), 0);
    assert_eq!(store.revoke("never").unwrap(), 0);
    let reloaded = store_in(dir.path());
    assert!(!reloaded.is_allowed(HookEvent::PreToolCall, "a"));
    assert!(reloaded.is_allowed(HookEvent::PreToolCall, "b"));
}

#[test]
fn writes_keep_unknown_keys_and_other_processes_entries() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(ALLOWLIST_FILENAME);
    let mut store = ConsentStore::load(&path);
    // Another process writes after this store loaded.
    let other = json!({"version": 2, "approvals": [
        {"event": "pre_llm_call", "command": "ctx", "note": "kept"},
        "garbage entry"
    ]});
    std::fs::write(&path, other.to_string()).unwrap();
    store.allow(HookEvent::PreToolCall, "guard").unwrap();
    let doc = file_json(&store);
    assert_eq!(doc["version"], 2);
    let list = doc["approvals"].as_array().unwrap();
    assert_eq!(list.len(), 3);
    assert_eq!(list[0]["note"], "kept");
    assert!(store.is_allowed(HookEvent::PreLlmCall, "ctx"));
}

#[test]
fn a_corrupt_file_is_replaced_on_the_next_write() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(ALLOWLIST_FILENAME);
    std::fs::write(&path, "{oops").unwrap();
    let mut store = ConsentStore::load(&path);
    store.allow(HookEvent::OnSessionStart, "hello").unwrap();
    assert!(ConsentStore::load(&path).is_allowed(HookEvent::OnSessionStart, "hello"));
}

#[test]
fn a_write_failure_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "x").unwrap();
    let mut store = ConsentStore::load(&blocker.join("sub").join(ALLOWLIST_FILENAME));
    let err = store.allow(HookEvent::PreToolCall, "a").unwrap_err();
    assert!(matches!(err, ConsentError::Write { .. }), "{err}");
    assert!(err.to_string().contains("cannot write the hook allowlist"));
}

#[test]
fn iso_timestamps_look_like_python_isoformat() {
    assert_eq!(format_iso(UNIX_EPOCH), "1970-01-01T00:00:00Z");
    let t = UNIX_EPOCH + Duration::from_micros(1_776_420_000_123_456);
    assert_eq!(format_iso(t), "2026-04-17T10:00:00.123456Z");
    let leap = UNIX_EPOCH + Duration::from_secs(951_782_400); // 2000-02-29
    assert_eq!(format_iso(leap), "2000-02-29T00:00:00Z");
}

#[test]
fn iso_timestamps_parse_back() {
    assert_eq!(parse_iso("1970-01-01T00:00:00Z"), Some(0));
    assert_eq!(
        parse_iso("2026-04-17T10:00:00.123456Z"),
        Some(1_776_420_000_123_456)
    );
    assert_eq!(
        parse_iso("2026-04-17T10:00:00.5+00:00"),
        Some(1_776_420_000_500_000)
    );
    assert_eq!(
        parse_iso("2026-04-17 10:00:00"),
        Some(1_776_420_000_000_000)
    );
    for bad in [
        "",
        "yesterday",
        "2026-13-01T00:00:00Z",
        "2026-04-17T10:00:00.x1Z",
    ] {
        assert_eq!(parse_iso(bad), None, "{bad}");
    }
    let now = SystemTime::now();
    let micros = now.duration_since(UNIX_EPOCH).unwrap().as_micros() as i64;
    assert_eq!(parse_iso(&format_iso(now)), Some(micros));
}
