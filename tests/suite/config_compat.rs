//! Python Hermes 0.19's full default `config.yaml` (tests/fixtures, written by Hermes's own
//! `save_config`) with the real binary: `config show` gives no warning and lists exactly the
//! keys hermes keeps but does not use (a snapshot); a `-z` turn starts with it; and the Hermes
//! keys hermes now honours (`agent.max_turns`, `memory.*`, `approvals.deny`) do what they do
//! in Hermes, end to end against the scripted server.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::time::Duration;

use support::Response;
use support::ScriptedCall;
use support::ScriptedServer;

const HERMES_DEFAULT: &str = include_str!("../fixtures/hermes-0.19-default-config.yaml");

use support::cli_home::CliHome as Home;
use support::cli_home::Run;

/// `hermes ARGS` off the test's runtime, killed after 60 s.
async fn run(home: &Home, args: &[&str]) -> Run {
    let mut cmd = tokio::process::Command::from(home.command(args));
    cmd.kill_on_drop(true);
    tokio::time::timeout(Duration::from_secs(60), cmd.output())
        .await
        .expect("hermes timed out")
        .unwrap()
        .into()
}

/// `-z PROMPT` against `server`, the endpoint given by flags (Hermes's file names none).
fn oneshot_args<'a>(server_url: &'a str, prompt: &'a str) -> Vec<&'a str> {
    vec![
        "--provider",
        "custom",
        "--base-url",
        server_url,
        "--model",
        "scripted-model",
        "-z",
        prompt,
    ]
}

#[tokio::test]
async fn config_show_of_hermes_default_file_warns_nothing_and_lists_unused_keys() {
    let home = Home::new(HERMES_DEFAULT);
    let run = run(&home, &["config", "show"]).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let notes: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with('#'))
        .filter(|l| !l.starts_with("# config: ") && !l.starts_with("# .env: "))
        .collect();
    assert!(
        !notes.iter().any(|l| l.starts_with("# warning")),
        "{notes:#?}"
    );
    insta::assert_snapshot!(notes.join("\n"));
    // What hermes reads shows with the file's values.
    assert!(
        run.stdout.contains("  max_iterations: 90\n"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("  mode: smart\n"), "{}", run.stdout);
    assert!(
        run.stdout.contains("  max_retries: 2\n"),
        "api_max_retries: 3 attempts"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_oneshot_turn_starts_with_hermes_default_file() {
    let server = ScriptedServer::start([Response::text(["Hello ", "there."])]).await;
    let home = Home::new(HERMES_DEFAULT);
    let url = server.base_url();
    let run = run(&home, &oneshot_args(&url, "hi")).await;
    assert_eq!(
        run.code, 0,
        "stdout:\n{}\nstderr:\n{}",
        run.stdout, run.stderr
    );
    assert_eq!(run.stdout, "Hello there.\n");
    assert!(
        !run.stderr.lines().any(|l| l.starts_with("warning:")),
        "{}",
        run.stderr
    );
    assert_eq!(server.completion_requests().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hermes_agent_max_turns_caps_the_turn() {
    let server = ScriptedServer::start([
        Response::tool_calls([ScriptedCall::terminal("call_1", "echo one")]),
        Response::text(["never reached"]),
    ])
    .await;
    let home = Home::new(&HERMES_DEFAULT.replace("  max_turns: 90\n", "  max_turns: 1\n"));
    let url = server.base_url();
    let run = run(&home, &oneshot_args(&url, "go")).await;
    assert_eq!(run.code, 9, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("stopped: reached agent.max_turns (1 API calls"),
        "{}",
        run.stderr
    );
    assert_eq!(server.completion_requests().len(), 1);
}

fn system_prompt(server: &ScriptedServer) -> String {
    let request = &server.completion_requests()[0];
    request.messages()[0]["content"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_switches_and_limits_shape_the_prompt_and_the_tools() {
    let cases = [
        // (memory_enabled, user_profile_enabled)
        (false, true),
        (true, false),
        (false, false),
    ];
    for (memory, user) in cases {
        let server = ScriptedServer::start([Response::text(["ok"])]).await;
        let config = HERMES_DEFAULT
            .replace(
                "  memory_enabled: true\n",
                &format!("  memory_enabled: {memory}\n"),
            )
            .replace(
                "  user_profile_enabled: true\n",
                &format!("  user_profile_enabled: {user}\n"),
            )
            .replace("  memory_char_limit: 2200\n", "  memory_char_limit: 800\n");
        let home = Home::new(&config);
        std::fs::create_dir_all(home.home().join("memories")).unwrap();
        std::fs::write(home.home().join("memories/MEMORY.md"), "Project uses Axum").unwrap();
        std::fs::write(home.home().join("memories/USER.md"), "Name: Ada").unwrap();
        let url = server.base_url();
        let run = run(&home, &oneshot_args(&url, "hi")).await;
        assert_eq!(run.code, 0, "{}", run.stderr);
        let prompt = system_prompt(&server);
        assert_eq!(prompt.contains("Project uses Axum"), memory, "{prompt}");
        assert_eq!(prompt.contains("Name: Ada"), user, "{prompt}");
        if memory {
            assert!(prompt.contains("17/800 chars"), "{prompt}");
        }
        let tools = server.completion_requests()[0].tool_names();
        assert_eq!(
            tools.contains(&"memory".to_string()),
            memory || user,
            "{tools:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn approvals_deny_blocks_a_command_even_with_yolo() {
    let server = ScriptedServer::start([
        Response::tool_calls([ScriptedCall::terminal(
            "call_1",
            "git push --force origin main",
        )]),
        Response::text(["Understood."]),
    ])
    .await;
    let config = HERMES_DEFAULT.replace("  deny: []\n", "  deny:\n    - 'git push --force*'\n");
    let home = Home::new(&config);
    let url = server.base_url();
    let mut args = vec!["--yolo"];
    args.extend(oneshot_args(&url, "push it"));
    let run = run(&home, &args).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let results = server.completion_requests()[1].tool_results();
    assert!(
        results.iter().any(|r| r.contains(
            "BLOCKED: this command matches the user-defined deny rule 'git push --force*'"
        )),
        "{results:?}"
    );
}
