use serde_json::json;

use super::*;
use crate::model::Role;
use crate::store::NewSession;
use crate::store::Source;
use crate::store::StoredMessage;
use crate::tools::ToolOutcome;
use crate::tools::test_support::ctx;

fn store() -> Arc<SessionStore> {
    Arc::new(SessionStore::open_in_memory().unwrap())
}

fn session(store: &SessionStore, id: &str, source: Source, messages: &[(Role, &str)]) -> Vec<i64> {
    store
        .create_session(&NewSession {
            id: id.into(),
            source,
            model: "m".into(),
            ..NewSession::default()
        })
        .unwrap();
    messages
        .iter()
        .map(|(role, text)| {
            store
                .append_message(id, &StoredMessage::new(*role, *text))
                .unwrap()
        })
        .collect()
}

async fn run(tool: &SessionSearchTool, args: serde_json::Value) -> ToolOutput {
    let dir = tempfile::tempdir().unwrap();
    tool.call(args, &ctx(dir.path())).await
}

/// A 20-message session whose 10th message mentions `word`.
fn long_session(store: &SessionStore, id: &str, word: &str) -> Vec<i64> {
    let texts: Vec<String> = (0..20)
        .map(|i| {
            if i == 10 {
                format!("we finally fixed the {word} bug in the parser")
            } else {
                format!("ordinary line {i}")
            }
        })
        .collect();
    let messages: Vec<(Role, &str)> = texts
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
    session(store, id, Source::Cli, &messages)
}

#[tokio::test]
async fn discovery_shows_snippet_window_and_session_edges() {
    let s = store();
    let ids = long_session(&s, "past", "segfault");
    s.set_title("past", "Parser crash").unwrap();
    // The calling session (ctx uses "session_1") and a subagent also mention it.
    session(
        &s,
        "session_1",
        Source::Cli,
        &[(Role::User, "segfault again?")],
    );
    session(
        &s,
        "sub",
        Source::Subagent,
        &[(Role::User, "segfault in child")],
    );
    let tool = SessionSearchTool::new(s);
    let out = run(&tool, json!({"query": "segfault"})).await;
    assert_eq!(out.outcome, ToolOutcome::Ok, "{}", out.content);
    let text = &out.content;
    assert!(text.starts_with("Found 1 past session(s)"), "{text}");
    assert!(text.contains("session past · \"Parser crash\""), "{text}");
    assert!(
        !text.contains("session_1") && !text.contains("sub "),
        "{text}"
    );
    assert!(
        text.contains(&format!("match #{} (user)", ids[10])),
        "{text}"
    );
    assert!(text.contains(">>>segfault<<<"), "{text}");
    assert!(
        text.contains(&format!("#{} user: we finally fixed", ids[10])),
        "{text}"
    );
    assert!(text.contains("◀ match"), "{text}");
    // ±5 around the hit, plus the first and last three outside that window.
    for id in &ids[5..=15] {
        assert!(
            text.contains(&format!("  #{id} ")),
            "window lacks #{id}: {text}"
        );
    }
    assert!(!text.contains(&format!("#{} ", ids[4])), "{text}");
    assert!(
        text.contains(&format!("start: #{} user: ordinary line 0", ids[0])),
        "{text}"
    );
    assert!(
        text.contains(&format!("end: #{} assistant: ordinary line 17", ids[17])),
        "{text}"
    );
}

#[tokio::test]
async fn discovery_over_cjk_text() {
    let s = store();
    session(
        &s,
        "ja",
        Source::Cli,
        &[(Role::User, "日本語のテキストを検索する")],
    );
    let tool = SessionSearchTool::new(s);
    let out = run(&tool, json!({"query": "本語"})).await;
    assert_eq!(out.outcome, ToolOutcome::Ok);
    assert!(out.content.contains("session ja"), "{}", out.content);
    assert!(out.content.contains(">>>本語<<<"), "{}", out.content);
    assert!(out.content.contains("substring search"), "{}", out.content);
}

#[tokio::test]
async fn discovery_deduplicates_a_lineage() {
    let s = store();
    session(
        &s,
        "root",
        Source::Cli,
        &[(Role::User, "talk about flamingos")],
    );
    s.branch_session("root", "branch", Some("Flamingo branch"))
        .unwrap();
    let tool = SessionSearchTool::new(s);
    let out = run(&tool, json!({"query": "flamingos", "limit": 5})).await;
    assert_eq!(out.content.matches("\n## ").count(), 1, "{}", out.content);
}

#[tokio::test]
async fn malformed_queries_are_readable() {
    let s = store();
    session(
        &s,
        "a",
        Source::Cli,
        &[(Role::User, "key col:x value \"quoted")],
    );
    let tool = SessionSearchTool::new(s);
    for q in [r#""unbalanced"#, "AND OR", "col:x", "NEAR(", "a AND", "*"] {
        let out = run(&tool, json!({ "query": q })).await;
        let lower = out.content.to_lowercase();
        assert!(
            !lower.contains("sqlite") && !lower.contains("fts5"),
            "{q}: {}",
            out.content
        );
        assert!(
            out.content.starts_with("Found") || out.content.starts_with("No past sessions"),
            "{q}: {}",
            out.content
        );
    }
    let out = run(&tool, json!({"query": "col:x"})).await;
    assert!(out.content.contains("session a"), "{}", out.content);
}

#[tokio::test]
async fn scroll_around_a_message() {
    let s = store();
    let ids = long_session(&s, "past", "overflow");
    session(&s, "other", Source::Cli, &[(Role::User, "x")]);
    session(&s, "sub", Source::Subagent, &[(Role::User, "hidden")]);
    let tool = SessionSearchTool::new(Arc::clone(&s));
    let out = run(
        &tool,
        json!({"session_id": "past", "around_message_id": ids[10], "window": 1}),
    )
    .await;
    assert_eq!(out.outcome, ToolOutcome::Ok, "{}", out.content);
    assert!(out.content.starts_with("session past"), "{}", out.content);
    assert_eq!(out.content.matches("\n[#").count(), 3, "{}", out.content);
    assert!(
        out.content.contains(&format!("[#{} user · ", ids[10])),
        "{}",
        out.content
    );
    assert!(out.content.contains("◀"), "{}", out.content);
    assert!(
        out.content.contains(&format!(
            "earlier around_message_id={}, later around_message_id={}",
            ids[9], ids[11]
        )),
        "{}",
        out.content
    );
    // A message id alone finds its session; a string id is accepted.
    let out = run(&tool, json!({"around_message_id": ids[3].to_string()})).await;
    assert!(out.content.starts_with("session past"), "{}", out.content);
    // A session alone reads from the start.
    let out = run(&tool, json!({"session_id": "past", "window": 2})).await;
    assert!(
        out.content
            .contains(&format!("messages #{} to #{}", ids[0], ids[4])),
        "{}",
        out.content
    );
    // A message of another session is refused readably.
    let out = run(
        &tool,
        json!({"session_id": "other", "around_message_id": ids[10]}),
    )
    .await;
    assert!(
        out.content.contains("is not in session other"),
        "{}",
        out.content
    );
    // Hidden and unknown sessions are not found.
    for args in [json!({"session_id": "sub"}), json!({"session_id": "nope"})] {
        let out = run(&tool, args).await;
        assert_eq!(out.outcome, ToolOutcome::Error, "{}", out.content);
        assert!(
            out.content.contains("no session matches"),
            "{}",
            out.content
        );
    }
}

#[tokio::test]
async fn browse_lists_recent_visible_sessions() {
    let s = store();
    let tool = SessionSearchTool::new(Arc::clone(&s));
    assert_eq!(run(&tool, json!({})).await.content, "No past sessions yet.");
    session(&s, "older", Source::Cli, &[(Role::User, "first question")]);
    session(&s, "newer", Source::Cli, &[(Role::User, "second question")]);
    session(&s, "sub", Source::Subagent, &[(Role::User, "hidden")]);
    session(&s, "session_1", Source::Cli, &[(Role::User, "current")]);
    s.set_title("newer", "The newer one").unwrap();
    {
        let conn = s.conn();
        conn.execute_batch(
            "UPDATE sessions SET started_at = 1000 WHERE id = 'older';
             UPDATE sessions SET started_at = 2000 WHERE id = 'newer';",
        )
        .unwrap();
    }
    let out = run(&tool, json!({})).await;
    let lines: Vec<&str> = out.content.lines().collect();
    assert_eq!(
        lines[0], "2 recent session(s), newest first:",
        "{}",
        out.content
    );
    assert!(
        lines[1].starts_with("- newer · 1970-01-01 00:33 UTC · \"The newer one\" · 1 messages · first: second question"),
        "{}",
        out.content
    );
    assert!(lines[2].starts_with("- older "), "{}", out.content);
    assert_eq!(lines.len(), 3);
    let out = run(&tool, json!({"limit": 1})).await;
    assert_eq!(out.content.lines().count(), 2, "{}", out.content);
}

#[test]
fn shape_is_inferred_from_arguments() {
    let shape = |v: serde_json::Value| {
        let a: Args = serde_json::from_value(v).unwrap();
        a.shape()
    };
    assert_eq!(
        shape(json!({"query": "x", "limit": 100})),
        Shape::Discovery {
            query: "x".into(),
            limit: MAX_LIMIT
        }
    );
    assert_eq!(shape(json!({"query": "  "})), Shape::Browse { limit: 10 });
    assert_eq!(
        shape(json!({"session_id": "s", "window": 0})),
        Shape::Scroll {
            session: Some("s".into()),
            around: None,
            window: 1
        }
    );
    assert_eq!(
        shape(json!({"around_message_id": 7})),
        Shape::Scroll {
            session: None,
            around: Some(7),
            window: DEFAULT_WINDOW
        }
    );
    let tool = SessionSearchTool::new(store());
    assert_eq!(tool.schema().name, "session_search");
    assert_eq!(tool.concurrency(), Concurrency::ParallelSafe);
    assert_eq!(tool.preview(&json!({})), "recent sessions");
    assert_eq!(tool.preview(&json!({"query": "abc"})), "\"abc\"");
    assert_eq!(
        tool.preview(&json!({"session_id": "s", "around_message_id": 3})),
        "s around #3"
    );
}

#[test]
fn flatten_collapses_and_cuts() {
    assert_eq!(flatten("a\n\n  b\tc", 100), "a b c");
    assert_eq!(flatten("abcdef", 3), "abc…");
    assert_eq!(flatten("日本語テキスト", 3), "日本語…");
}
