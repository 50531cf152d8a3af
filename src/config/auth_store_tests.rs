use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

fn store_of(value: serde_json::Value) -> AuthStore {
    AuthStore::parse(&value.to_string()).unwrap()
}

fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn a_missing_file_is_hermes_empty_store() {
    let dir = tempfile::tempdir().unwrap();
    let store = AuthStore::read(&dir.path().join("auth.json")).unwrap();
    assert_eq!(
        serde_json::Value::Object(store.as_json().clone()),
        json!({"version": 1, "providers": {}})
    );
    assert_eq!(store.active_provider(), None);
}

#[test]
fn a_write_keeps_every_entry_it_does_not_own_and_is_private() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let path = home.join("auth.json");
    let original = json!({
        "version": 1,
        "providers": {
            "openai-codex": {"tokens": {"access_token": "codex-at"}, "last_refresh": "x"},
        },
        "credential_pool": {"openrouter": [{"id": "a1", "source": "manual", "access_token": "sk-or"}]},
        "suppressed_sources": {"anthropic": ["claude_code"]},
        "active_provider": "openai-codex",
        "some_future_key": {"nested": [1, 2, 3]},
    });
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(&path, original.to_string()).unwrap();

    let mut store = AuthStore::read(&path).unwrap();
    let mut nous = serde_json::Map::new();
    nous.insert("access_token".into(), json!("at"));
    store.set_provider("nous", nous, Activate::Yes);
    store.write(&path).unwrap();

    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.ends_with("}\n"), "Hermes ends the file with a newline");
    assert!(text.starts_with("{\n  \""), "two-space indent: {text}");
    let written: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        written["providers"]["openai-codex"],
        original["providers"]["openai-codex"]
    );
    assert_eq!(written["credential_pool"], original["credential_pool"]);
    assert_eq!(
        written["suppressed_sources"],
        original["suppressed_sources"]
    );
    assert_eq!(written["some_future_key"], original["some_future_key"]);
    assert_eq!(written["providers"]["nous"]["access_token"], "at");
    assert_eq!(written["active_provider"], "nous");
    assert_eq!(written["version"], 1);
    assert!(written["updated_at"].as_str().unwrap().ends_with("+00:00"));
    assert_eq!(mode_of(&path), 0o600);
    assert_eq!(mode_of(&home), 0o700, "Hermes tightens the directory");
}

#[test]
fn hermes_load_fixups_legacy_layout_and_stale_portal() {
    let legacy = store_of(json!({"systems": {"nous_portal": {"access_token": "old"}}}));
    assert_eq!(legacy.active_provider(), Some("nous"));
    assert_eq!(legacy.provider("nous").unwrap()["access_token"], "old");

    let stale = store_of(json!({"providers": {"nous": {
        "portal_base_url": "https://api.nousresearch.com/", "refresh_token": "r"}}}));
    let nous = stale.provider("nous").unwrap();
    assert_eq!(nous["portal_base_url"], "https://portal.nousresearch.com");
    assert_eq!(nous["refresh_token"], "r");

    // A document with only a pool still gets a providers object.
    let pool_only = store_of(json!({"credential_pool": {"x": []}}));
    assert!(pool_only.as_json()["providers"].is_object());
    assert!(pool_only.as_json()["credential_pool"].is_object());
}

#[test]
fn logout_removes_the_provider_its_pool_and_the_active_mark_only() {
    let mut store = store_of(json!({
        "providers": {"nous": {"access_token": "a"}, "openai-codex": {"tokens": {}}},
        "credential_pool": {"nous": [{"source": "device_code"}], "openrouter": [{"source": "manual"}]},
        "active_provider": "nous",
    }));
    assert!(store.remove_login("nous"));
    let doc = serde_json::Value::Object(store.as_json().clone());
    assert_eq!(doc["providers"], json!({"openai-codex": {"tokens": {}}}));
    assert_eq!(
        doc["credential_pool"],
        json!({"openrouter": [{"source": "manual"}]})
    );
    assert_eq!(doc["active_provider"], serde_json::Value::Null);
    assert!(!store.remove_login("nous"), "nothing left to remove");
}

#[test]
fn unsuppressing_and_pool_quarantine_edit_only_their_entries() {
    let mut store = store_of(json!({
        "providers": {},
        "suppressed_sources": {"nous": ["device_code"], "anthropic": ["claude_code"]},
        "credential_pool": {"nous": [
            {"id": "1", "source": "device_code"},
            {"id": "2", "source": "manual:device_code"},
            {"id": "3", "source": "manual"},
        ]},
    }));
    assert!(store.unsuppress_source("nous", "device_code"));
    assert_eq!(
        store.as_json()["suppressed_sources"],
        json!({"anthropic": ["claude_code"]})
    );
    assert!(store.unsuppress_source("anthropic", "claude_code"));
    assert!(store.as_json().get("suppressed_sources").is_none());

    assert!(store.remove_pool_entries("nous", &["device_code", "manual:device_code"]));
    assert_eq!(
        store.as_json()["credential_pool"]["nous"],
        json!([{"id": "3", "source": "manual"}])
    );
}

#[test]
fn a_corrupt_store_is_refused_or_backed_up_never_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("auth.json");
    std::fs::write(&path, "{ not json").unwrap();
    assert!(matches!(
        AuthStore::read(&path),
        Err(AuthStoreError::Corrupt { .. })
    ));
    let (store, backup) = AuthStore::read_or_back_up(&path).unwrap();
    assert_eq!(store, AuthStore::empty());
    let backup = backup.unwrap();
    assert_eq!(backup, dir.path().join("auth.json.corrupt"));
    assert_eq!(std::fs::read_to_string(backup).unwrap(), "{ not json");
    assert!(matches!(
        AuthStore::parse("[1, 2]"),
        Err(reason) if reason.to_string().contains("not a JSON object")
    ));
}

#[test]
fn debug_lists_keys_never_tokens() {
    let store = store_of(json!({"providers": {"nous": {"access_token": "very-secret-token"}}}));
    let shown = format!("{store:?}");
    assert!(!shown.contains("very-secret-token"), "{shown}");
    assert!(shown.contains("providers"));
}

#[test]
fn the_lock_file_is_the_one_hermes_uses() {
    assert_eq!(
        lock_path_for(Path::new("/h/auth.json")),
        PathBuf::from("/h/auth.lock")
    );
    assert_eq!(
        lock_path_for(Path::new("/h/shared/nous_auth.json")),
        PathBuf::from("/h/shared/nous_auth.lock")
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub/auth.json");
    let held = lock_store(&path).unwrap();
    assert!(dir.path().join("sub/auth.lock").is_file());
    let second = FileLock::acquire(&lock_path_for(&path), Duration::from_millis(50));
    assert!(second.is_err(), "the lock is exclusive");
    drop(held);
    assert!(FileLock::acquire(&lock_path_for(&path), Duration::from_millis(50)).is_ok());
}

#[test]
fn paths_follow_hermes_root_and_shared_dir_rules() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("data");
    let no_env = |_: &str| None;

    let plain = HermesHome::from_base(&base, None).unwrap();
    let paths = AuthPaths::for_home(&plain, &no_env);
    assert_eq!(paths.auth_file, base.join("auth.json"));
    assert_eq!(paths.root_auth_file, None);
    assert_eq!(paths.shared_nous_file, base.join("shared/nous_auth.json"));

    let profile = HermesHome::from_base(&base, Some("coder")).unwrap();
    let paths = AuthPaths::for_home(&profile, &no_env);
    assert_eq!(paths.auth_file, base.join("profiles/coder/auth.json"));
    assert_eq!(paths.root_auth_file, Some(base.join("auth.json")));
    assert_eq!(paths.shared_nous_file, base.join("shared/nous_auth.json"));

    let shared = dir.path().join("elsewhere");
    let shared_str = shared.display().to_string();
    let env = move |k: &str| (k == SHARED_AUTH_DIR_ENV).then(|| shared_str.clone());
    let paths = AuthPaths::for_home(&plain, &env);
    assert_eq!(paths.shared_nous_file, shared.join("nous_auth.json"));
}
