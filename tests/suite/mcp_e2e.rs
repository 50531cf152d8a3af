//! The MCP client end to end, in-process, against real MCP servers from npm (server-everything
//! and server-filesystem, see `support::mcp`) and the scripted provider: tools are listed and
//! offered, a call's result goes back to the model, include/exclude filtering, the utility
//! wrappers, `tools/list_changed` refreshes, a server killed mid-session (notice, tools
//! withdrawn, reconnect), streamable HTTP, images, `enabled: false`, and a server that cannot
//! start. Environment isolation is tested through the real binary in `mcp_cli.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::path::Path;
use std::time::Duration;

use hermes::config::schema::McpServerConfig;
use hermes::config::schema::NamedMcpServer;
use hermes::engine::McpLaunch;
use hermes::protocol::Event;
use hermes::protocol::McpServerState;
use hermes::protocol::McpServerStatus;
use hermes::protocol::McpStatus;
use hermes::protocol::Notice;
use hermes::protocol::NoticeLevel;
use hermes::protocol::Op;
use hermes::protocol::ToolComplete;
use hermes::protocol::ToolProgress;
use hermes::protocol::TurnComplete;
use hermes::protocol::TurnOutcome;
use serde_json::Value;
use serde_json::json;
use support::Response;
use support::ScriptedServer;
use support::engine;
use support::mcp;

fn named(name: &str, yaml: &str) -> NamedMcpServer {
    let config: McpServerConfig = serde_norway::from_str(yaml).unwrap();
    NamedMcpServer {
        name: name.to_string(),
        config,
    }
}

fn launch(servers: Vec<NamedMcpServer>, media: &Path) -> McpLaunch {
    McpLaunch {
        selection: None,
        servers,
        config_path: media.join("config.yaml"),
        media_dir: media.to_path_buf(),
        http: None,
    }
}

fn user(text: &str) -> Op {
    Op::user(text.to_string())
}

/// A session against `server` whose MCP servers are `servers`; images and blobs from results
/// (and a config.yaml for reloads) go in the returned temp dir.
fn mcp_session(
    server: &ScriptedServer,
    servers: Vec<NamedMcpServer>,
) -> (engine::Session, tempfile::TempDir) {
    let media = tempfile::tempdir().unwrap();
    let session = engine::start(server, |spec| {
        spec.mcp = Some(launch(servers, media.path()));
    });
    (session, media)
}

/// A session with server-everything as `ev` (its config plus the `extra` YAML lines), once it
/// has connected, with the statuses it connected with.
async fn everything_session(
    server: &ScriptedServer,
    modules: &Path,
    extra: &str,
) -> (engine::Session, tempfile::TempDir, Vec<McpServerStatus>) {
    let yaml = format!("command: {}\n{extra}", mcp::everything_bin(modules));
    let (mut session, media) = mcp_session(server, vec![named("ev", &yaml)]);
    let servers = status_where(&mut session, 30, connected).await;
    (session, media, servers)
}

/// The next `McpStatus` whose servers satisfy `pred`, within `secs`.
async fn status_where(
    session: &mut engine::Session,
    secs: u64,
    pred: impl Fn(&[McpServerStatus]) -> bool,
) -> Vec<McpServerStatus> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let event = tokio::time::timeout_at(deadline, session.handle.events.recv())
            .await
            .expect("timed out waiting for an MCP status")
            .expect("event stream ended");
        if let Event::McpStatus(McpStatus { servers }) = event
            && pred(&servers)
        {
            return servers;
        }
    }
}

fn connected(servers: &[McpServerStatus]) -> bool {
    servers.iter().all(|s| {
        matches!(
            s.state,
            McpServerState::Connected | McpServerState::Disabled
        )
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn filesystem_tools_are_offered_and_a_call_result_goes_back_to_the_model() {
    let Some(modules) = mcp::node_modules() else {
        return;
    };
    let files = tempfile::tempdir().unwrap();
    let hello = files.path().join("hello.txt");
    std::fs::write(&hello, "hello from the filesystem server\n").unwrap();
    let args = json!({"path": hello}).to_string();
    let server = ScriptedServer::start([
        Response::tool_call("c1", "mcp_filesystem_read_text_file", &args),
        Response::text(["It says hello."]),
    ])
    .await;
    let yaml = format!(
        "command: {}\nargs: ['{}']",
        mcp::filesystem_bin(&modules),
        files.path().display()
    );
    let (mut session, _media) = mcp_session(&server, vec![named("filesystem", &yaml)]);
    let servers = status_where(&mut session, 30, connected).await;
    assert_eq!(servers[0].transport.label(), "stdio");
    assert!(
        servers[0]
            .tools
            .contains(&"mcp_filesystem_list_directory".to_string()),
        "{:?}",
        servers[0].tools
    );
    session.send(user("what does hello.txt say?"));
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);
    let requests = server.completion_requests();
    assert_eq!(requests.len(), 2);
    let offered = requests[0].tool_names();
    for expected in [
        "terminal",
        "mcp_filesystem_read_text_file",
        "mcp_filesystem_write_file",
        "mcp_filesystem_list_allowed_directories",
    ] {
        assert!(
            offered.iter().any(|n| n == expected),
            "{expected} in {offered:?}"
        );
    }
    let schema = requests[0].body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["function"]["name"] == "mcp_filesystem_read_text_file")
        .unwrap()["function"]["parameters"]
        .clone();
    assert_eq!(schema["type"], "object");
    assert!(schema["properties"]["path"].is_object(), "{schema}");
    let results = requests[1].tool_results();
    assert_eq!(results, ["hello from the filesystem server\n"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn include_wins_over_exclude_and_utilities_follow_capabilities() {
    let Some(modules) = mcp::node_modules() else {
        return;
    };
    let files = tempfile::tempdir().unwrap();
    let bin = mcp::everything_bin(&modules);
    let server = ScriptedServer::start([Response::text(["ok"])]).await;
    let servers = vec![
        named(
            "ev-include",
            &format!(
                "command: {bin}\ntools:\n  include: [echo, get-sum]\n  exclude: [echo, get-env]"
            ),
        ),
        named(
            "ev-exclude",
            &format!(
                "command: {bin}\ntools:\n  exclude: [get-env]\n  resources: false\n  prompts: false"
            ),
        ),
        named(
            "fs-none",
            &format!(
                "command: {}\nargs: ['{}']\ntools:\n  include: []",
                mcp::filesystem_bin(&modules),
                files.path().display()
            ),
        ),
    ];
    let (mut session, _media) = mcp_session(&server, servers);
    let statuses = status_where(&mut session, 30, connected).await;
    assert_eq!(
        statuses[0].tools,
        [
            "mcp_ev_include_echo",
            "mcp_ev_include_get_sum",
            "mcp_ev_include_list_resources",
            "mcp_ev_include_read_resource",
            "mcp_ev_include_list_prompts",
            "mcp_ev_include_get_prompt",
        ]
    );
    let excluded = &statuses[1].tools;
    assert!(
        excluded.contains(&"mcp_ev_exclude_echo".to_string()),
        "{excluded:?}"
    );
    assert!(
        excluded.contains(&"mcp_ev_exclude_get_sum".to_string()),
        "{excluded:?}"
    );
    assert!(
        !excluded.iter().any(|n| n.ends_with("get_env")),
        "{excluded:?}"
    );
    assert!(
        !excluded
            .iter()
            .any(|n| n.ends_with("_resources") || n.ends_with("prompt")),
        "{excluded:?}"
    );
    // server-filesystem has no resources or prompts: nothing at all is registered for it.
    assert!(statuses[2].tools.is_empty(), "{:?}", statuses[2].tools);
    session.send(user("hi"));
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);
    let offered = server.completion_requests()[0].tool_names();
    assert!(
        !offered.iter().any(|n| n.starts_with("mcp_fs_none")),
        "{offered:?}"
    );
    assert!(offered.contains(&"mcp_ev_include_get_sum".to_string()));
}

#[tokio::test(flavor = "multi_thread")]
async fn utility_wrappers_read_resources_and_prompts() {
    let Some(modules) = mcp::node_modules() else {
        return;
    };
    let server = ScriptedServer::start([
        Response::tool_calls([
            support::ScriptedCall::new("c1", "mcp_ev_list_prompts", "{}"),
            support::ScriptedCall::new("c2", "mcp_ev_list_resources", "{}"),
        ]),
        Response::text(["listed"]),
    ])
    .await;
    let (mut session, _media, _) = everything_session(&server, &modules, "").await;
    session.send(user("what prompts are there?"));
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);
    let results = server.completion_requests()[1].tool_results();
    let prompts: Value = serde_json::from_str(&results[0]).unwrap();
    assert!(
        prompts["prompts"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "simple-prompt"),
        "{prompts}"
    );
    let resources: Value = serde_json::from_str(&results[1]).unwrap();
    assert!(
        !resources["resources"].as_array().unwrap().is_empty(),
        "{resources}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn streamable_http_server_answers_a_call() {
    let Some(modules) = mcp::node_modules() else {
        return;
    };
    let http = mcp::HttpEverything::start(&modules);
    let server = ScriptedServer::start([
        Response::tool_call("c1", "mcp_remote_get_sum", r#"{"a": 2, "b": 40}"#),
        Response::text(["42"]),
    ])
    .await;
    let yaml = format!("url: {}\nheaders:\n  X-Test: hermes", http.url);
    let (mut session, _media) = mcp_session(&server, vec![named("remote", &yaml)]);
    let servers = status_where(&mut session, 30, connected).await;
    assert_eq!(servers[0].transport.label(), "http");
    session.send(user("add 2 and 40"));
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);
    let results = server.completion_requests()[1].tool_results();
    assert_eq!(results, ["The sum of 2 and 40 is 42."]);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_image_result_is_saved_and_sent_to_the_model() {
    let Some(modules) = mcp::node_modules() else {
        return;
    };
    let server = ScriptedServer::start([
        Response::tool_call("c1", "mcp_ev_get_tiny_image", "{}"),
        Response::text(["a tiny image"]),
    ])
    .await;
    let (mut session, media, _) = everything_session(&server, &modules, "").await;
    session.send(user("show me"));
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);
    let saved: Vec<_> = std::fs::read_dir(media.path())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let png = std::fs::read(&saved[0]).unwrap();
    assert_eq!(&png[..4], b"\x89PNG");
    let body = server.completion_requests()[1].body.to_string();
    assert!(body.contains("saved to"), "the text names the file");
    assert!(
        body.contains("data:image/png;base64,"),
        "the model gets the pixels: {body:.400}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn tool_list_changes_refresh_the_registry_without_a_reload() {
    let Some(_modules) = mcp::node_modules() else {
        return;
    };
    let server = ScriptedServer::start([
        Response::tool_call("c1", "mcp_changing_add_tools", "{}"),
        Response::text(["added"]),
        Response::tool_call("c2", "mcp_changing_extra_two", r#"{"text": "hi"}"#),
        Response::text(["done"]),
    ])
    .await;
    let yaml = format!("command: node\nargs: ['{}']", mcp::changing_server());
    let (mut session, _media) = mcp_session(&server, vec![named("changing", &yaml)]);
    let first = status_where(&mut session, 30, connected).await;
    assert_eq!(
        first[0].tools,
        ["mcp_changing_add_tools", "mcp_changing_pid"]
    );
    session.send(user("add tools"));
    // Two list_changed notifications arrive back to back; the registry ends with both tools.
    // The turn may end before or after the last refresh is published: wait for both.
    let mut tools = Vec::new();
    let mut outcome = None;
    session
        .until(|event| {
            match event {
                Event::McpStatus(McpStatus { servers }) => tools = servers[0].tools.clone(),
                Event::TurnComplete(TurnComplete { outcome: o, .. }) => outcome = Some(o.clone()),
                _ => {}
            }
            tools.len() == 4 && outcome.is_some()
        })
        .await;
    assert_eq!(
        tools,
        [
            "mcp_changing_add_tools",
            "mcp_changing_pid",
            "mcp_changing_extra_one",
            "mcp_changing_extra_two"
        ]
    );
    assert_eq!(outcome, Some(TurnOutcome::Completed));
    session.send(user("use the new tool"));
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);
    let requests = server.completion_requests();
    assert!(
        requests[2]
            .tool_names()
            .contains(&"mcp_changing_extra_two".to_string())
    );
    assert_eq!(requests[3].tool_results().last().unwrap(), "extra_two: hi");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_killed_server_is_announced_withdrawn_and_reconnected() {
    let Some(_modules) = mcp::node_modules() else {
        return;
    };
    let server = ScriptedServer::start([
        Response::tool_call("c1", "mcp_changing_pid", "{}"),
        Response::text(["got the pid"]),
        Response::text(["carrying on without it"]),
    ])
    .await;
    let yaml = format!("command: node\nargs: ['{}']", mcp::changing_server());
    let (mut session, _media) = mcp_session(&server, vec![named("changing", &yaml)]);
    status_where(&mut session, 30, connected).await;
    session.send(user("what is your pid?"));
    let pid: i32 = match session
        .until(|e| matches!(e, Event::ToolComplete { .. }))
        .await
    {
        Event::ToolComplete(ToolComplete { output, .. }) => output.trim().parse().unwrap(),
        _ => unreachable!(),
    };
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);
    let killed = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let text = session.next_warning().await;
    assert!(text.starts_with("MCP server 'changing' stopped"), "{text}");
    assert!(
        text.contains("its 2 tools are unavailable; retrying in 1 s"),
        "{text}"
    );
    // While it is down, its tools are not offered.
    session.send(user("carry on"));
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);
    let offered = server.completion_requests()[2].tool_names();
    assert!(
        !offered.iter().any(|n| n.starts_with("mcp_")),
        "{offered:?}"
    );
    let back = session
        .until(|e| matches!(e, Event::Notice(Notice { text, .. }) if text.contains("reconnected")))
        .await;
    assert_eq!(
        back,
        Event::Notice(Notice {
            level: NoticeLevel::Info,
            text: "MCP server 'changing' reconnected (2 tools)".into()
        })
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn disabled_servers_never_start_and_broken_ones_do_not_stop_the_session() {
    let server = ScriptedServer::start([Response::text(["fine"])]).await;
    let files = tempfile::tempdir().unwrap();
    let marker = files.path().join("started");
    let script = files.path().join("server.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\ntouch '{}'\nsleep 30\n", marker.display()),
    )
    .unwrap();
    let servers = vec![
        named(
            "off",
            &format!(
                "command: sh\nargs: ['{}']\nenabled: false",
                script.display()
            ),
        ),
        named("missing", "command: /nonexistent/mcp-server-xyz"),
    ];
    let (mut session, _media) = mcp_session(&server, servers);
    let first = status_where(&mut session, 5, |_| true).await;
    assert_eq!(first[0].state, McpServerState::Disabled);
    let text = session.next_warning().await;
    assert_eq!(
        text,
        "MCP server 'missing' failed to connect: could not start `/nonexistent/mcp-server-xyz`: not found on the server's PATH; fix the config and run /reload-mcp"
    );
    session.send(user("hello"));
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);
    std::thread::sleep(Duration::from_millis(300));
    assert!(!marker.exists(), "a disabled server must not be started");
}

#[tokio::test(flavor = "multi_thread")]
async fn subagents_inherit_the_connected_mcp_tools() {
    let Some(_modules) = mcp::node_modules() else {
        return;
    };
    let server = ScriptedServer::start_echo().await;
    let media = tempfile::tempdir().unwrap();
    let yaml = format!("command: node\nargs: ['{}']", mcp::changing_server());
    let mut session = engine::start(&server, |spec| {
        let mut tools = hermes::tools::registry::ToolRegistry::core();
        tools
            .register(std::sync::Arc::new(
                hermes::tools::delegate::DelegateTaskTool,
            ))
            .unwrap();
        spec.tools = std::sync::Arc::new(tools);
        spec.mcp = Some(launch(vec![named("changing", &yaml)], media.path()));
    });
    status_where(&mut session, 30, connected).await;
    session.send(user("delegate: alpha"));
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while !server
        .completion_requests()
        .iter()
        .any(|r| r.body.to_string().contains("Goal: alpha"))
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the child never asked"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let child = server
        .completion_requests()
        .into_iter()
        .find(|r| r.body.to_string().contains("Goal: alpha"))
        .unwrap();
    let tools = child.tool_names();
    assert!(tools.contains(&"mcp_changing_pid".to_string()), "{tools:?}");
    assert!(!tools.contains(&"delegate_task".to_string()), "{tools:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_call_over_its_timeout_fails_and_the_turn_goes_on() {
    let Some(modules) = mcp::node_modules() else {
        return;
    };
    let server = ScriptedServer::start([
        Response::tool_call(
            "c1",
            "mcp_ev_trigger_long_running_operation",
            r#"{"duration": 10, "steps": 2}"#,
        ),
        Response::text(["it took too long"]),
    ])
    .await;
    let (mut session, _media, _) = everything_session(&server, &modules, "timeout: 1").await;
    let started = std::time::Instant::now();
    session.send(user("run the long operation"));
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    let results = server.completion_requests()[1].tool_results();
    assert!(
        results[0].starts_with(
            "MCP call timed out after 1.0s (configured timeout: 1.0s; mcp_servers.ev.timeout)"
        ),
        "{results:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn reload_reads_the_config_again_and_the_next_turn_sees_the_new_tools() {
    let Some(_modules) = mcp::node_modules() else {
        return;
    };
    let server =
        ScriptedServer::start([Response::text(["before"]), Response::text(["after"])]).await;
    let (mut session, media) = mcp_session(&server, Vec::new());
    session.send(user("first"));
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);
    std::fs::write(
        media.path().join("config.yaml"),
        format!(
            "mcp_servers:\n  changing:\n    command: node\n    args: ['{}']\n",
            mcp::changing_server()
        ),
    )
    .unwrap();
    session.send(Op::ReloadMcp);
    let notice = session
        .until(
            |e| matches!(e, Event::Notice(Notice { text, .. }) if text.starts_with("MCP servers reloaded")),
        )
        .await;
    let Event::Notice(Notice { text, .. }) = notice else {
        unreachable!()
    };
    assert_eq!(
        text,
        "MCP servers reloaded: changing connected (2 tools) — 2 tool(s) from 1 server(s); the model sees the new list from the next message"
    );
    session.send(user("second"));
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);
    let requests = server.completion_requests();
    assert!(
        !requests[0]
            .tool_names()
            .iter()
            .any(|n| n.starts_with("mcp_"))
    );
    assert!(
        requests[1]
            .tool_names()
            .contains(&"mcp_changing_pid".to_string())
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_killed_http_server_fails_its_call_and_reconnects_when_back() {
    let Some(modules) = mcp::node_modules() else {
        return;
    };
    let mut http = mcp::HttpEverything::start(&modules);
    let server = ScriptedServer::start([
        Response::tool_call("c1", "mcp_remote_echo", r#"{"message": "are you there?"}"#),
        Response::text(["it is gone"]),
    ])
    .await;
    let yaml = format!("url: {}", http.url);
    let (mut session, _media) = mcp_session(&server, vec![named("remote", &yaml)]);
    status_where(&mut session, 30, connected).await;
    http.child.kill().unwrap();
    http.child.wait().unwrap();
    session.send(user("echo something"));
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);
    let results = server.completion_requests()[1].tool_results();
    assert!(
        results[0].starts_with("MCP server 'remote' lost its connection during the call to echo")
            || results[0].starts_with("MCP server 'remote' is not connected"),
        "{results:?}"
    );
    assert!(
        !results[0].contains("rmcp::"),
        "no SDK type names: {results:?}"
    );
    let text = session.next_warning().await;
    assert!(text.starts_with("MCP server 'remote' "), "{text}");
    assert!(text.contains("retrying in"), "{text}");
    // Back on the same port: the next attempt finds it.
    let _back = mcp::HttpEverything::start_on(&modules, http.port);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(40);
    loop {
        let event = tokio::time::timeout_at(deadline, session.handle.events.recv())
            .await
            .expect("the server never reconnected")
            .unwrap();
        if let Event::Notice(Notice { text, .. }) = &event
            && text.contains("reconnected")
        {
            assert!(
                text.starts_with("MCP server 'remote' reconnected ("),
                "{text}"
            );
            break;
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_turn_waiting_for_a_slow_server_says_so() {
    let server = ScriptedServer::start([Response::text(["done"])]).await;
    let media = tempfile::tempdir().unwrap();
    // Never answers the handshake: the first turn waits (connect_timeout 2 s), says why, then
    // goes on without it.
    let yaml = "command: sleep\nargs: ['30']\nconnect_timeout: 2";
    let mut session = engine::start(&server, |spec| {
        spec.mcp = Some(launch(vec![named("slow", yaml)], media.path()));
    });
    let started = std::time::Instant::now();
    session.send(user("hi"));
    let waiting = session
        .until(|e| {
            matches!(
                e,
                Event::Notice(Notice {
                    level: NoticeLevel::Info,
                    ..
                })
            )
        })
        .await;
    assert_eq!(
        waiting,
        Event::Notice(Notice {
            level: NoticeLevel::Info,
            text: "waiting for MCP server(s) slow to finish connecting (at most their connect_timeout)…".into()
        })
    );
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);
    let elapsed = started.elapsed();
    assert!(
        elapsed >= Duration::from_millis(1_900) && elapsed < Duration::from_secs(6),
        "{elapsed:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_http_server_refusing_authorization_is_not_retried() {
    use tokio::io::AsyncReadExt;
    use tokio::io::AsyncWriteExt;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let hits = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = std::sync::Arc::clone(&hits);
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let mut buf = [0u8; 8192];
            let _ = stream.read(&mut buf).await;
            let _ = stream
                .write_all(b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer realm=\"mcp\"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                .await;
        }
    });
    let server = ScriptedServer::start([Response::text(["ok"])]).await;
    let yaml = format!("url: http://127.0.0.1:{port}/mcp");
    let (mut session, _media) = mcp_session(&server, vec![named("locked", &yaml)]);
    let statuses = status_where(&mut session, 5, |s| {
        matches!(s[0].state, McpServerState::Failed { .. })
    })
    .await;
    assert_eq!(
        statuses[0].state,
        McpServerState::Failed {
            reason: "failed to connect: the server wants authorization (HTTP 401/403): set its `headers:` (e.g. Authorization: \"Bearer ${TOKEN}\" with TOKEN in .env); OAuth login is not supported yet".into(),
            retry_in_secs: None
        }
    );
    let text = session.next_warning().await;
    assert!(
        text.starts_with(
            "MCP server 'locked' failed to connect: the server wants authorization (HTTP 401/403)"
        ),
        "{text}"
    );
    assert!(
        text.ends_with("; fix the config and run /reload-mcp"),
        "{text}"
    );
    let seen = hits.load(std::sync::atomic::Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    assert_eq!(
        hits.load(std::sync::atomic::Ordering::SeqCst),
        seen,
        "no retries"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_keepalive_ping_notices_a_dead_http_server_before_any_call() {
    let Some(modules) = mcp::node_modules() else {
        return;
    };
    let mut http = mcp::HttpEverything::start(&modules);
    let server = ScriptedServer::start([Response::text(["ok"])]).await;
    let yaml = format!("url: {}\nkeepalive_interval: 5", http.url);
    let (mut session, _media) = mcp_session(&server, vec![named("remote", &yaml)]);
    status_where(&mut session, 30, connected).await;
    let killed = std::time::Instant::now();
    http.child.kill().unwrap();
    http.child.wait().unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    let text = loop {
        let event = tokio::time::timeout_at(deadline, session.handle.events.recv())
            .await
            .expect("no notice: the dead server was not noticed")
            .unwrap();
        if let Event::Notice(Notice {
            level: NoticeLevel::Warning,
            text,
        }) = event
        {
            break text;
        }
    };
    assert!(
        text.starts_with("MCP server 'remote' stopped answering (a keepalive ping failed:"),
        "{text}"
    );
    assert!(text.contains("— its 18 tools are unavailable"), "{text}");
    assert!(
        killed.elapsed() < Duration::from_secs(8),
        "{:?}",
        killed.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_sampling_request_is_answered_by_the_session_model() {
    let Some(modules) = mcp::node_modules() else {
        return;
    };
    let server = ScriptedServer::start([
        Response::tool_call(
            "c1",
            "mcp_ev_trigger_sampling_request",
            r#"{"prompt": "What is 2+2?", "maxTokens": 50000}"#,
        ),
        // The server's sampling/createMessage, answered by the same (scripted) model:
        Response::text(["Four."]),
        Response::text(["The server's model said four."]),
    ])
    .await;
    let (mut session, _media, servers) =
        everything_session(&server, &modules, "sampling:\n  max_tokens_cap: 64").await;
    assert!(
        servers[0]
            .tools
            .contains(&"mcp_ev_trigger_sampling_request".to_string()),
        "server-everything offers its sampling tool only to clients that can sample: {:?}",
        servers[0].tools
    );
    session.send(user("ask the server to sample"));
    let notice = session
        .until(|e| matches!(e, Event::Notice(Notice { text, .. }) if text.contains("via sampling")))
        .await;
    let Event::Notice(Notice { text, .. }) = notice else {
        unreachable!()
    };
    assert!(
        text.starts_with("MCP server 'ev' asked the model for a completion"),
        "{text}"
    );
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);

    let requests = server.completion_requests();
    assert_eq!(requests.len(), 3);
    let sampling = &requests[1].body;
    assert_eq!(sampling["model"], requests[0].body["model"]);
    assert_eq!(
        sampling["max_tokens"], 64,
        "maxTokens is capped: {sampling}"
    );
    assert!(
        sampling
            .get("tools")
            .is_none_or(|t| t.as_array().is_some_and(Vec::is_empty))
    );
    let body = sampling.to_string();
    assert!(body.contains("You are a helpful test server."), "{body}");
    assert!(body.contains("What is 2+2?"), "{body}");
    assert!(
        !body.contains("ask the server to sample"),
        "the conversation stays private"
    );
    let result = requests[2].tool_results().join("\n");
    assert!(result.contains("LLM sampling result"), "{result}");
    assert!(result.contains("Four."), "{result}");
}

#[tokio::test(flavor = "multi_thread")]
async fn sampling_disabled_is_not_offered_to_the_server() {
    let Some(modules) = mcp::node_modules() else {
        return;
    };
    let server = ScriptedServer::start([Response::text(["ok"])]).await;
    let (_session, _media, servers) =
        everything_session(&server, &modules, "sampling:\n  enabled: false").await;
    assert!(!servers[0].tools.is_empty());
    assert!(
        !servers[0]
            .tools
            .contains(&"mcp_ev_trigger_sampling_request".to_string()),
        "{:?}",
        servers[0].tools
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_that_exits_at_start_is_announced_once_with_its_stderr() {
    let server = ScriptedServer::start([Response::text(["fine"])]).await;
    let yaml = "command: sh\nargs: ['-c', \"echo 'fatal: missing API_TOKEN' >&2; exit 1\"]";
    let (mut session, _media) = mcp_session(&server, vec![named("broken", yaml)]);
    // Attempts at about 0, 1 and 3 s: the same failure must read the same each time, so only
    // the first is announced.
    let mut warnings = Vec::new();
    let until = tokio::time::Instant::now() + Duration::from_millis(3_600);
    while let Ok(Some(event)) = tokio::time::timeout_at(until, session.handle.events.recv()).await {
        if let Event::Notice(Notice {
            level: NoticeLevel::Warning,
            text,
        }) = event
        {
            warnings.push(text);
        }
    }
    assert_eq!(
        warnings,
        [
            "MCP server 'broken' failed to connect: the handshake failed: the server exited (or closed its stdout) first — its stderr said: fatal: missing API_TOKEN; retrying in 1 s"
        ]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_servers_progress_notifications_become_the_calls_progress_lines() {
    let Some(modules) = mcp::node_modules() else {
        return;
    };
    let server = ScriptedServer::start([
        Response::tool_call(
            "c1",
            "mcp_ev_trigger_long_running_operation",
            r#"{"duration": 0.6, "steps": 3}"#,
        ),
        Response::text(["done"]),
    ])
    .await;
    let (mut session, _media, _) = everything_session(&server, &modules, "").await;
    session.send(user("run it"));
    let mut lines = Vec::new();
    session
        .until(|event| {
            if let Event::ToolProgress(ToolProgress { call_id, text }) = event {
                lines.push((call_id.clone(), text.clone()));
            }
            matches!(event, Event::ToolComplete { .. })
        })
        .await;
    // The last notification races the result (the SDK runs notification handlers as their own
    // tasks), and a call that has ended shows its result, not progress: so the steps must come
    // in order, on this call, with the first one there.
    let steps: Vec<&str> = lines.iter().map(|(_, text)| text.as_str()).collect();
    assert!(lines.iter().all(|(call, _)| call == "c1"), "{lines:?}");
    assert!(
        ["1/3 2/3 3/3", "1/3 2/3", "1/3"].contains(&steps.join(" ").as_str()),
        "{steps:?}"
    );
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);
}
