use super::*;
use crate::model::Role;
use crate::store::NewSession;
use crate::store::StoredMessage;
use crate::util::redact::Redactor;

fn store_with_session() -> SessionStore {
    let store = SessionStore::open_in_memory().unwrap();
    store
        .create_session(&NewSession {
            id: "20261129_1000_abcdef".into(),
            model: "m".into(),
            provider: "custom".into(),
            cwd: "/w".into(),
            ..NewSession::default()
        })
        .unwrap();
    store
        .append_message(
            "20261129_1000_abcdef",
            &StoredMessage::new(Role::User, "find   the\nconfig parser"),
        )
        .unwrap();
    store
        .append_message(
            "20261129_1000_abcdef",
            &StoredMessage::new(Role::Assistant, "It is in src/config/load.rs."),
        )
        .unwrap();
    store
}

#[test]
fn list_shows_one_line_per_session_with_the_first_message() {
    let store = store_with_session();
    let out = list(&store, None, 20).unwrap();
    assert!(out.starts_with("20261129_1000_abcdef  "), "{out}");
    assert!(out.contains("   2 msgs  find the"), "{out}");
    assert_eq!(
        list(&store, Some("nothing"), 20).unwrap(),
        "no sessions yet\n"
    );
}

#[test]
fn show_export_and_delete_resolve_prefixes() {
    let store = store_with_session();
    let shown = show(&store, "20261129_1000").unwrap();
    assert!(shown.contains("messages 2"), "{shown}");
    assert!(shown.contains("src/config/load.rs"), "{shown}");
    let json = export(&store, "20261129_1000", ExportFormat::Json).unwrap();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(value.to_string().contains("config parser"));
    assert!(matches!(show(&store, "nope"), Err(StoreError::NotFound(_))));
    assert_eq!(
        delete(&store, "20261129_1000").unwrap(),
        "deleted session 20261129_1000_abcdef\n"
    );
    assert_eq!(list(&store, None, 20).unwrap(), "no sessions yet\n");
}

#[test]
fn show_and_export_redact_by_default_and_follow_the_redactor() {
    let store = store_with_session();
    store
        .append_message(
            "20261129_1000_abcdef",
            &StoredMessage::new(Role::User, "use OPENAI_API_KEY=sk-proj-AbC123dEf456GhI7"),
        )
        .unwrap();
    for out in [
        show(&store, "20261129").unwrap(),
        export(&store, "20261129", ExportFormat::Markdown).unwrap(),
        export(&store, "20261129", ExportFormat::Json).unwrap(),
    ] {
        assert!(!out.contains("AbC123dEf456GhI7"), "{out}");
        assert!(out.contains("OPENAI_API_KEY=***"), "{out}");
    }
    let off = Redactor::off();
    for out in [
        show_with(&store, "20261129", &off).unwrap(),
        export_with(&store, "20261129", ExportFormat::Json, &off).unwrap(),
    ] {
        assert!(out.contains("sk-proj-AbC123dEf456GhI7"), "{out}");
    }
}
