use std::sync::Mutex;

use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;

use super::*;
use crate::model::ToolSchema;

/// Records each call and answers with what `answer` gives for the tool.
struct FakeCalls {
    calls: Mutex<Vec<(String, String, String, Value)>>,
    answer: fn(&str) -> ToolOutput,
}

#[async_trait::async_trait]
impl NestedCalls for FakeCalls {
    fn schemas(&self) -> Vec<ToolSchema> {
        Vec::new()
    }

    async fn call(&self, parent: &str, call_id: String, name: &str, args: Value) -> ToolOutput {
        self.calls
            .lock()
            .unwrap()
            .push((parent.to_string(), call_id, name.to_string(), args));
        (self.answer)(name)
    }
}

fn answers(name: &str) -> ToolOutput {
    match name {
        "read_file" => {
            ToolOutput::ok("text").with_data(json!({"content": "1|hi", "total_lines": 1}))
        }
        "search_files" => ToolOutput::ok(r#"{"total_count": 0, "matches": []}"#),
        "terminal" => ToolOutput::ok("plain words"),
        "write_file" => ToolOutput::error("Permission denied: /etc/passwd"),
        "patch" => ToolOutput::denied("BLOCKED: the user denied this"),
        _ => ToolOutput::cancelled("interrupted"),
    }
}

fn dispatcher(max_calls: u64) -> (Dispatcher, Arc<FakeCalls>) {
    let fake = Arc::new(FakeCalls {
        calls: Mutex::default(),
        answer: answers,
    });
    let allowed = [
        "read_file",
        "search_files",
        "terminal",
        "write_file",
        "patch",
        "web_search",
    ];
    let dispatcher = Dispatcher {
        token: "t0k3n".into(),
        nested: Arc::<FakeCalls>::clone(&fake),
        allowed: allowed.iter().map(ToString::to_string).collect(),
        max_calls,
        parent: "call_9".into(),
        status: Arc::new(RunStatus::new()),
        on_call: Box::new(|_| {}),
    };
    (dispatcher, fake)
}

async fn ask(d: &Dispatcher, request: Value) -> Value {
    d.handle(request.to_string().as_bytes()).await
}

#[tokio::test]
async fn each_outcome_has_its_reply() {
    let (d, fake) = dispatcher(10);
    let call = |tool: &str| json!({"id": 1, "tool": tool, "args": {"path": "a"}, "token": "t0k3n"});
    assert_eq!(
        ask(&d, call("read_file")).await,
        json!({"id": 1, "ok": true, "result": {"content": "1|hi", "total_lines": 1}})
    );
    assert_eq!(
        ask(&d, call("search_files")).await["result"],
        json!({"total_count": 0, "matches": []})
    );
    assert_eq!(
        ask(&d, call("terminal")).await["result"],
        json!("plain words")
    );
    assert_eq!(
        ask(&d, call("write_file")).await,
        json!({"id": 1, "ok": true, "result": {"error": "Permission denied: /etc/passwd"}})
    );
    assert_eq!(
        ask(&d, call("patch")).await,
        json!({"id": 1, "ok": false, "kind": "refused", "error": "BLOCKED: the user denied this"})
    );
    assert_eq!(ask(&d, call("web_search")).await["kind"], "cancelled");
    let calls = fake.calls.lock().unwrap();
    let ids: Vec<&str> = calls.iter().map(|c| c.1.as_str()).collect();
    assert_eq!(
        ids,
        [
            "call_9~1", "call_9~2", "call_9~3", "call_9~4", "call_9~5", "call_9~6"
        ]
    );
    assert!(
        calls
            .iter()
            .all(|c| c.0 == "call_9" && c.3 == json!({"path": "a"}))
    );
    assert_eq!(d.status.calls_made(), 6);
}

#[tokio::test]
async fn a_wrong_or_missing_token_is_refused_before_anything_runs() {
    let (d, fake) = dispatcher(10);
    for token in [json!("t0k3N"), json!("t0k3n "), json!(""), Value::Null] {
        let reply = ask(
            &d,
            json!({"id": 7, "tool": "read_file", "args": {}, "token": token}),
        )
        .await;
        assert_eq!(
            reply,
            json!({"id": 7, "ok": false, "kind": "unauthorized", "error": "Unauthorized RPC request"})
        );
    }
    assert!(fake.calls.lock().unwrap().is_empty());
    assert_eq!(d.status.calls_made(), 0);
}

#[tokio::test]
async fn tools_a_script_may_not_call_say_why() {
    let (d, fake) = dispatcher(10);
    let reply = ask(
        &d,
        json!({"id": 1, "tool": "delegate_task", "args": {}, "token": "t0k3n"}),
    )
    .await;
    assert_eq!(reply["kind"], "unavailable");
    assert_eq!(
        reply["error"],
        "Tool 'delegate_task' is not available in execute_code (scripts cannot start \
         subagents). Available: read_file, search_files, terminal, write_file, patch, web_search"
    );
    let reply = ask(
        &d,
        json!({"id": 2, "tool": "mcp_fs_read", "token": "t0k3n"}),
    )
    .await;
    assert!(
        reply["error"]
            .as_str()
            .unwrap()
            .contains("(scripts cannot call MCP tools)")
    );
    for param in TERMINAL_BLOCKED_PARAMS {
        let reply = ask(
            &d,
            json!({"id": 3, "tool": "terminal", "args": {"command": "sleep 1", param: true}, "token": "t0k3n"}),
        )
        .await;
        assert_eq!(reply["kind"], "refused", "{param}");
        assert!(reply["error"].as_str().unwrap().contains(param), "{reply}");
    }
    // A falsy blocked parameter is harmless.
    let reply = ask(
        &d,
        json!({"id": 4, "tool": "terminal", "args": {"command": "ls", "background": false}, "token": "t0k3n"}),
    )
    .await;
    assert_eq!(reply["ok"], true);
    assert_eq!(fake.calls.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn the_call_after_the_limit_is_refused_and_not_counted() {
    let (d, fake) = dispatcher(2);
    let call = json!({"id": 1, "tool": "read_file", "args": {}, "token": "t0k3n"});
    assert_eq!(ask(&d, call.clone()).await["ok"], true);
    assert_eq!(ask(&d, call.clone()).await["ok"], true);
    let third = ask(&d, call).await;
    assert_eq!(
        third,
        json!({"id": 1, "ok": false, "kind": "limit", "error": "Tool call limit reached (2). No \
               more tool calls allowed in this execution (code_execution.max_tool_calls)."})
    );
    assert_eq!(d.status.calls_made(), 2);
    assert_eq!(fake.calls.lock().unwrap().len(), 2);
}

#[tokio::test]
async fn garbage_is_answered_not_fatal() {
    let (d, _) = dispatcher(2);
    let reply = d.handle(b"{not json\n").await;
    assert_eq!(reply["kind"], "invalid");
    assert!(
        reply["error"]
            .as_str()
            .unwrap()
            .starts_with("Invalid RPC request: ")
    );
    assert_eq!(
        d.handle(b"[1, 2]").await["error"],
        "Invalid RPC request: not an object"
    );
    let reply = ask(
        &d,
        json!({"id": 1, "tool": "read_file", "args": [1], "token": "t0k3n"}),
    )
    .await;
    assert_eq!(
        reply["error"],
        "args must be an object of keyword arguments"
    );
}

#[cfg(unix)]
#[tokio::test]
async fn the_socket_is_private_and_serves_line_by_line_across_reconnects() {
    use std::os::unix::fs::PermissionsExt;
    use tokio::io::AsyncBufReadExt;
    use tokio::io::AsyncWriteExt;

    let dir = tempfile::tempdir().unwrap();
    let transport = bind(dir.path()).unwrap();
    let endpoint = transport.endpoint();
    let mode = std::fs::metadata(&endpoint).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let (d, _) = dispatcher(10);
    let server = tokio::spawn(serve(transport, Arc::new(d)));
    for round in 0..2 {
        let stream = tokio::net::UnixStream::connect(&endpoint).await.unwrap();
        let (read, mut write) = stream.into_split();
        let mut lines = tokio::io::BufReader::new(read).lines();
        write.write_all(b"garbage\n").await.unwrap();
        let request = json!({"id": round, "tool": "read_file", "args": {}, "token": "t0k3n"});
        write
            .write_all(format!("{request}\n").as_bytes())
            .await
            .unwrap();
        let first: Value =
            serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
        let second: Value =
            serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
        assert_eq!(first["kind"], "invalid");
        assert_eq!(second["id"], round);
        assert_eq!(second["ok"], true);
    }
    server.abort();
}
