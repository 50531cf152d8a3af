use std::time::Instant;

use pretty_assertions::assert_eq;

use super::*;
use crate::model::Role;
use crate::model::ToolCall;
use crate::store::SearchRequest;
use crate::store::test_support::append;
use crate::store::test_support::exec;
use crate::store::test_support::new_session;
use crate::store::test_support::seed;
use crate::store::test_support::temp_store;

fn call(id: &str, name: &str, args: &str) -> ToolCall {
    ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: args.into(),
    }
}

fn conversation() -> Vec<Message> {
    let c1 = call("call_1", "terminal", r#"{"command":"ls -la"}"#);
    let c2 = call("call_2", "read_file", r#"{"path": "src/main.rs""#); // malformed on purpose
    vec![
        Message::user("list the files"),
        Message {
            reasoning: Some("I should run ls.".into()),
            ..Message::assistant("Let me look.", vec![c1.clone(), c2.clone()])
        },
        Message::tool_result(&c1, "Cargo.toml\nsrc"),
        Message::tool_result(&c2, "error: invalid arguments"),
        Message::assistant("There are two entries.", vec![]),
    ]
}

#[test]
fn history_round_trips_with_tool_calls() {
    let (_dir, store) = temp_store();
    store.create_session(&new_session("s")).unwrap();
    let mut ids = Vec::new();
    for m in conversation() {
        let mut stored = StoredMessage::from_message(&m);
        stored.token_count = Some(7);
        stored.finish_reason = Some("stop".into());
        ids.push(store.append_message("s", &stored).unwrap());
    }
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
    assert_eq!(store.load_history("s").unwrap(), conversation());
    let row = store.session("s").unwrap().unwrap();
    assert_eq!((row.message_count, row.tool_call_count), (5, 2));
    let rows = store.messages("s").unwrap();
    assert_eq!(rows[1].token_count, Some(7));
    assert_eq!(rows[1].finish_reason.as_deref(), Some("stop"));
    // Stored as Hermes writes them: OpenAI-format JSON.
    let raw: String = store
        .conn()
        .query_row(
            "SELECT tool_calls FROM messages WHERE id = ?1",
            [ids[1]],
            |r| r.get(0),
        )
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&raw).unwrap();
    assert_eq!(v[0]["type"], "function");
    assert_eq!(v[0]["function"]["name"], "terminal");
    assert_eq!(v[1]["function"]["arguments"], r#"{"path": "src/main.rs""#);
}

#[test]
fn responses_reasoning_items_round_trip_in_hermes_column_and_follow_a_branch() {
    let (_dir, store) = temp_store();
    store.create_session(&new_session("s")).unwrap();
    let item = serde_json::json!({
        "type": "reasoning",
        "id": "rs_1",
        "encrypted_content": "gAAAA-opaque",
        "summary": [{"type": "summary_text", "text": "thinking"}],
    });
    let mut answer = Message::assistant("done", vec![]);
    answer.codex_reasoning_items = vec![item.clone()];
    let id = store
        .append_message("s", &StoredMessage::from_message(&answer))
        .unwrap();
    store
        .append_message("s", &StoredMessage::from_message(&Message::user("next")))
        .unwrap();
    let history = store.load_history("s").unwrap();
    assert_eq!(history[0], answer);
    assert!(history[1].codex_reasoning_items.is_empty());
    // Hermes's column holds a JSON array (it json.loads it back on resume).
    let raw: Option<String> = store
        .conn()
        .query_row(
            "SELECT codex_reasoning_items FROM messages WHERE id = ?1",
            [id],
            |r| r.get(0),
        )
        .unwrap();
    let parsed: serde_json::Value = serde_json::from_str(raw.as_deref().unwrap()).unwrap();
    assert_eq!(parsed, serde_json::Value::Array(vec![item.clone()]));
    let nulls: i64 = store
        .conn()
        .query_row(
            "SELECT COUNT(*) FROM messages WHERE session_id = 's' AND codex_reasoning_items IS NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(nulls, 1, "no items is NULL, as Hermes writes it");
    // A branch copies them with the messages.
    store.branch_session("s", "b", None).unwrap();
    assert_eq!(
        store.load_history("b").unwrap()[0].codex_reasoning_items,
        vec![item]
    );
    // A value Hermes could not parse either reads as no items.
    store
        .conn()
        .execute(
            "UPDATE messages SET codex_reasoning_items = '{broken' WHERE id = ?1",
            [id],
        )
        .unwrap();
    assert!(
        store.load_history("s").unwrap()[0]
            .codex_reasoning_items
            .is_empty()
    );
}

#[test]
fn image_references_round_trip_and_bad_json_reads_as_none() {
    let (_dir, store) = temp_store();
    store.create_session(&new_session("s")).unwrap();
    let mut with_images = Message::user("what is this?");
    with_images.images = vec![
        crate::model::ImagePart::new("/h/images/image_1.png"),
        crate::model::ImagePart::new("/h/images/image_2.png"),
    ];
    let id = store
        .append_message("s", &StoredMessage::from_message(&with_images))
        .unwrap();
    store
        .append_message("s", &StoredMessage::from_message(&Message::user("plain")))
        .unwrap();
    let history = store.load_history("s").unwrap();
    assert_eq!(history[0], with_images);
    assert!(history[1].images.is_empty());
    let raw: Option<String> = store
        .conn()
        .query_row("SELECT images FROM messages WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(
        raw.as_deref(),
        Some(r#"["/h/images/image_1.png","/h/images/image_2.png"]"#)
    );
    store
        .conn()
        .execute(
            "UPDATE messages SET images = 'not json' WHERE id = ?1",
            [id],
        )
        .unwrap();
    let history = store.load_history("s").unwrap();
    assert_eq!(history[0].content, "what is this?");
    assert!(history[0].images.is_empty());
}

#[test]
fn reads_tool_calls_in_other_shapes_and_survives_bad_json() {
    let (_dir, store) = temp_store();
    store.create_session(&new_session("s")).unwrap();
    exec(
        &store,
        r#"INSERT INTO messages (session_id, role, content, tool_calls, timestamp) VALUES
           ('s', 'assistant', '', '[{"id":"a","function":{"name":"x","arguments":{"k":1}}}]', 1),
           ('s', 'assistant', '', '[{"id":"b","name":"y","arguments":"{}"}]', 2),
           ('s', 'assistant', 'broken', 'not json', 3),
           ('s', 'session_meta', 'ignored by the engine', NULL, 4);"#,
    );
    let history = store.load_history("s").unwrap();
    let assistants: Vec<&Message> = history
        .iter()
        .filter(|m| m.role == Role::Assistant)
        .collect();
    assert_eq!(assistants.len(), 3);
    assert_eq!(assistants[0].tool_calls, vec![call("a", "x", r#"{"k":1}"#)]);
    assert_eq!(assistants[1].tool_calls, vec![call("b", "y", "{}")]);
    assert!(assistants[2].tool_calls.is_empty());
    // The two unanswered calls got interrupted results (store::repair), in memory only:
    // they are not at the end of the history.
    assert_eq!(history.len(), 5);
    assert_eq!(store.messages("s").unwrap().len(), 4);
}

#[test]
fn append_to_an_unknown_session_fails_and_writes_nothing() {
    let (_dir, store) = temp_store();
    let err = store
        .append_message("ghost", &StoredMessage::new(Role::User, "boo"))
        .unwrap_err();
    assert!(matches!(err, StoreError::NotFound(id) if id == "ghost"));
    let n: i64 = store
        .conn()
        .query_row("SELECT COUNT(*) FROM messages", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 0);
}

#[test]
fn undo_hides_whole_turns() {
    let (_dir, store) = temp_store();
    seed(
        &store,
        "s",
        &[
            (Role::User, "turn one"),
            (Role::Assistant, "answer one"),
            (Role::User, "turn two about pelicans"),
            (Role::Assistant, "answer two"),
            (Role::Tool, "tool output"),
            (Role::User, "turn three"),
            (Role::Assistant, "answer three"),
        ],
    );
    assert_eq!(store.undo_turns("s", 0).unwrap(), 0);
    assert_eq!(store.undo_turns("s", 2).unwrap(), 2);
    let history = store.load_history("s").unwrap();
    let texts: Vec<&str> = history.iter().map(|m| m.content.as_str()).collect();
    assert_eq!(texts, ["turn one", "answer one"]);
    let row = store.session("s").unwrap().unwrap();
    assert_eq!(row.message_count, 2);
    // Hidden messages are kept but not searchable.
    let all: i64 = store
        .conn()
        .query_row("SELECT COUNT(*) FROM messages", [], |r| r.get(0))
        .unwrap();
    assert_eq!(all, 7);
    let hits = store
        .search(&SearchRequest {
            query: "pelicans",
            limit: 5,
            exclude_session: None,
        })
        .unwrap();
    assert!(hits.hits.is_empty());
    // Asking for more turns than exist hides what is there.
    assert_eq!(store.undo_turns("s", 5).unwrap(), 1);
    assert!(store.load_history("s").unwrap().is_empty());
    assert_eq!(store.undo_turns("s", 1).unwrap(), 0);
    // New messages after an undo are active.
    append(&store, "s", &[(Role::User, "fresh start")]);
    assert_eq!(store.load_history("s").unwrap().len(), 1);
}

#[test]
fn branch_copies_active_messages_and_records_lineage() {
    let (_dir, store) = temp_store();
    store.create_session(&new_session("src")).unwrap();
    for m in conversation() {
        store
            .append_message("src", &StoredMessage::from_message(&m))
            .unwrap();
    }
    append(&store, "src", &[(Role::User, "undone turn")]);
    store.undo_turns("src", 1).unwrap();
    store.set_title("src", "Original").unwrap();
    store
        .branch_session("src", "br", Some("Original (branch)"))
        .unwrap();
    let br = store.session("br").unwrap().unwrap();
    assert_eq!(br.branched_from(), Some("src"));
    assert_eq!(br.title.as_deref(), Some("Original (branch)"));
    assert_eq!(br.model.as_deref(), Some("test-model"));
    assert_eq!(br.cwd.as_deref(), Some("/work/project"));
    assert_eq!((br.message_count, br.tool_call_count), (5, 2));
    assert_eq!(store.load_history("br").unwrap(), conversation());
    // The two sessions now diverge.
    append(&store, "br", &[(Role::User, "only in the branch")]);
    assert_eq!(store.load_history("src").unwrap().len(), 5);
    assert_eq!(store.load_history("br").unwrap().len(), 6);
    assert!(matches!(
        store.branch_session("nope", "x", None),
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.branch_session("src", "br", None),
        Err(StoreError::AlreadyExists(_))
    ));
    assert!(matches!(
        store.branch_session("src", "br2", Some("Original")),
        Err(StoreError::TitleInUse(_))
    ));
    assert_eq!(store.session("br2").unwrap(), None, "rolled back");
}

#[test]
fn windows_and_edges() {
    let (_dir, store) = temp_store();
    let texts: Vec<String> = (0..20).map(|i| format!("message {i}")).collect();
    let msgs: Vec<(Role, &str)> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let role = if i % 2 == 0 {
                Role::User
            } else {
                Role::Assistant
            };
            (role, t.as_str())
        })
        .collect();
    let ids = seed(&store, "s", &msgs);
    let around = store.messages_around("s", ids[10], 3, 2).unwrap();
    let got: Vec<i64> = around.iter().map(|m| m.id).collect();
    assert_eq!(got, ids[7..=12].to_vec());
    let start = store.messages_around("s", ids[1], 5, 5).unwrap();
    assert_eq!(start.len(), 7);
    assert_eq!(start[0].content, "message 0");
    let (first, last) = store.session_edges("s", 3).unwrap();
    assert_eq!(first.iter().map(|m| m.id).collect::<Vec<_>>(), ids[..3]);
    assert_eq!(last.iter().map(|m| m.id).collect::<Vec<_>>(), ids[17..]);
    assert_eq!(store.message_session(ids[4]).unwrap().as_deref(), Some("s"));
    assert_eq!(store.message_session(999_999).unwrap(), None);
}

#[test]
fn loads_a_ten_thousand_message_history_quickly() {
    let (_dir, store) = temp_store();
    store.create_session(&new_session("big")).unwrap();
    {
        let mut conn = store.conn();
        let tx = conn.transaction().unwrap();
        {
            let mut stmt = tx
                .prepare(
                    "INSERT INTO messages (session_id, role, content, tool_calls, timestamp) \
                     VALUES ('big', ?1, ?2, ?3, ?4)",
                )
                .unwrap();
            for i in 0..10_000 {
                let (role, calls) = if i % 2 == 0 {
                    ("user", None)
                } else {
                    (
                        "assistant",
                        Some(
                            r#"[{"id":"c","type":"function","function":{"name":"terminal","arguments":"{}"}}]"#,
                        ),
                    )
                };
                stmt.execute(rusqlite::params![
                    role,
                    format!("message number {i}"),
                    calls,
                    i as f64
                ])
                .unwrap();
            }
        }
        tx.commit().unwrap();
    }
    let started = Instant::now();
    let history = store.load_history("big").unwrap();
    let took = started.elapsed();
    // Every assistant message's call is unanswered: each gets its interrupted result.
    assert_eq!(history.len(), 15_000);
    let last = history.iter().rev().find(|m| m.role == Role::Assistant);
    assert_eq!(last.unwrap().content, "message number 9999");
    assert_eq!(history[1].tool_calls.len(), 1);
    // Generous even for an unoptimised build; the benchmark reports the real number.
    assert!(took.as_secs_f64() < 2.0, "took {took:?}");
}

#[test]
fn append_messages_is_all_or_nothing() {
    let (_dir, store) = temp_store();
    store.create_session(&new_session("s")).unwrap();
    let batch: Vec<StoredMessage> = conversation()
        .iter()
        .map(StoredMessage::from_message)
        .collect();
    let ids = store.append_messages("s", &batch).unwrap();
    assert_eq!(ids.len(), 5);
    assert!(ids.windows(2).all(|w| w[0] + 1 == w[1]), "{ids:?}");
    assert_eq!(store.load_history("s").unwrap(), conversation());
    let row = store.session("s").unwrap().unwrap();
    assert_eq!((row.message_count, row.tool_call_count), (5, 2));
    assert!(store.append_messages("s", &[]).unwrap().is_empty());
    assert!(matches!(
        store.append_messages("ghost", &batch),
        Err(StoreError::NotFound(_))
    ));
    let n: i64 = store
        .conn()
        .query_row("SELECT COUNT(*) FROM messages", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 5);
}

#[test]
fn a_history_killed_during_a_tool_call_is_repaired_on_load_and_the_repair_stored() {
    let (_dir, store) = temp_store();
    store.create_session(&new_session("s")).unwrap();
    let c1 = call("call_1", "terminal", r#"{"command":"sleep 30"}"#);
    for m in [
        Message::user("wait"),
        Message::assistant("", vec![c1.clone()]),
    ] {
        store
            .append_message("s", &StoredMessage::from_message(&m))
            .unwrap();
    }
    let history = store.load_history("s").unwrap();
    assert_eq!(history.len(), 3);
    assert_eq!(
        history[2],
        Message::tool_result(&c1, crate::store::repair::INTERRUPTED_RESULT)
    );
    // Stored: the rows themselves now end with the result, and loading again adds nothing.
    let rows = store.messages("s").unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[2].tool_call_id.as_deref(), Some("call_1"));
    assert_eq!(store.load_history("s").unwrap(), history);
    assert_eq!(store.messages("s").unwrap().len(), 3);
}
