//! `hermes mcp …` and MCP through the real binary: add a real npm server with `hermes mcp
//! add`, list it, test it (tools, schemas, timings), use it in a one-shot turn against the
//! scripted provider, remove it; and the stdio environment isolation — a provider key and an
//! unrelated secret in hermes's environment never reach a server, while its own `env:` and
//! the baseline do.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use serde_json::Value;
use support::Response;
use support::ScriptedServer;
use support::mcp;

use support::cli_home::CliHome as Home;
use support::cli_home::Run;

/// `hermes ARGS` with `env` set on top of the clean environment.
fn run(home: &Home, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = home.command(args);
    for (key, value) in env {
        cmd.env(key, value);
    }
    cmd.output().unwrap().into()
}

fn model_yaml(server: &ScriptedServer) -> String {
    format!(
        "# my settings\nmodel:\n  provider: custom\n  base_url: {}\n  default: scripted-model\n",
        server.base_url()
    )
}

#[test]
fn add_list_test_use_and_remove_the_filesystem_server() {
    let Some(modules) = mcp::node_modules() else {
        return;
    };
    let files = tempfile::tempdir().unwrap();
    std::fs::write(files.path().join("notes.md"), "# notes\nbuy milk\n").unwrap();
    let list_args = serde_json::json!({"path": files.path()}).to_string();
    let server = ScriptedServer::start_on_own_thread([
        Response::tool_call("c1", "mcp_files_list_directory", &list_args),
        Response::text(["There is one file: notes.md"]),
    ]);
    let home = Home::new(&model_yaml(&server));
    let bin = mcp::filesystem_bin(&modules);
    let dir = files.path().display().to_string();

    let added = run(
        &home,
        &["mcp", "add", "files", "--command", &bin, "--args", &dir],
        &[],
    );
    assert_eq!(added.code, 0, "{}{}", added.stdout, added.stderr);
    assert!(
        added.stdout.contains("✓ Saved 'files' to "),
        "{}",
        added.stdout
    );
    assert!(
        added
            .stdout
            .contains("✓ Connected to secure-filesystem-server"),
        "{}",
        added.stdout
    );
    assert!(
        added.stdout.contains("mcp_files_read_text_file"),
        "{}",
        added.stdout
    );
    let config = std::fs::read_to_string(home.home().join("config.yaml")).unwrap();
    assert!(
        config.starts_with("# my settings\n"),
        "comments are kept: {config}"
    );
    assert!(config.contains("mcp_servers:\n  files:\n"), "{config}");

    let listed = run(&home, &["mcp", "list"], &[]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let row = listed
        .stdout
        .lines()
        .find(|l| l.starts_with("files "))
        .unwrap();
    assert!(
        row.contains("stdio") && row.contains("all") && row.contains("✓ enabled"),
        "{row}"
    );

    let tested = run(&home, &["mcp", "test", "files"], &[]);
    assert_eq!(tested.code, 0, "{}{}", tested.stdout, tested.stderr);
    assert!(
        tested.stdout.contains("Transport: stdio → "),
        "{}",
        tested.stdout
    );
    let connected = tested
        .stdout
        .lines()
        .find(|l| l.contains("✓ Connected to"))
        .unwrap();
    assert!(
        connected.trim_end().ends_with(" ms)"),
        "timing: {connected}"
    );
    assert!(
        tested.stdout.contains("✓ Tools discovered: 14 (14 offered"),
        "{}",
        tested.stdout
    );
    assert!(
        tested.stdout.contains(r#""properties":{"path":"#),
        "schemas are shown: {}",
        tested.stdout
    );

    let turn = run(&home, &["-z", "what is in the folder?"], &[]);
    assert_eq!(turn.code, 0, "{}{}", turn.stdout, turn.stderr);
    assert_eq!(turn.stdout.trim(), "There is one file: notes.md");
    let requests = server.completion_requests();
    assert_eq!(requests[1].tool_results(), ["[FILE] notes.md"]);

    let removed = run(&home, &["mcp", "remove", "files"], &[]);
    assert_eq!(removed.code, 0, "{}", removed.stderr);
    let config = std::fs::read_to_string(home.home().join("config.yaml")).unwrap();
    assert!(!config.contains("files"), "{config}");
    assert!(config.starts_with("# my settings\n"), "{config}");
    let missing = run(&home, &["mcp", "test", "files"], &[]);
    assert_eq!(missing.code, 2);
    assert!(
        missing.stderr.contains("✗ Server 'files' not found"),
        "{}",
        missing.stderr
    );
}

#[test]
fn a_stdio_server_sees_only_the_baseline_and_its_own_env() {
    let Some(modules) = mcp::node_modules() else {
        return;
    };
    let server = ScriptedServer::start_on_own_thread([
        Response::tool_call("c1", "mcp_ev_get_env", "{}"),
        Response::text(["checked"]),
    ]);
    let config = format!(
        "{}mcp_servers:\n  ev:\n    command: {}\n    env:\n      ALLOWED_VAR: visible\n      FROM_DOTENV: '${{MY_DOTENV_TOKEN}}'\n      FROM_PARENT: '${{PARENT_ONLY}}'\n      UNSET: '${{NOT_SET_ANYWHERE}}'\n",
        model_yaml(&server),
        mcp::everything_bin(&modules)
    );
    let home = Home::new(&config);
    std::fs::write(home.home().join(".env"), "MY_DOTENV_TOKEN=tok-123\n").unwrap();
    let run = run(
        &home,
        &["-z", "print the env"],
        &[
            ("OPENAI_API_KEY", "sk-must-not-leak"),
            ("SECRET_X", "also-secret"),
            ("LANG", "C.UTF-8"),
            ("PARENT_ONLY", "from-the-parent"),
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let results = server.completion_requests()[1].tool_results();
    let env: Value = serde_json::from_str(&results[0]).unwrap();
    let env = env.as_object().unwrap();
    assert_eq!(env["ALLOWED_VAR"], "visible");
    assert_eq!(
        env["FROM_PARENT"], "from-the-parent",
        "${{VAR}} is filled in"
    );
    assert_eq!(
        env["UNSET"], "${NOT_SET_ANYWHERE}",
        "an unset variable keeps its placeholder"
    );
    // Filled from .env — and, being a .env value, masked before the model sees the output.
    assert_eq!(env["FROM_DOTENV"], "***");
    assert_eq!(env["LANG"], "C.UTF-8", "the baseline passes");
    assert!(env.contains_key("PATH"));
    assert!(!env.contains_key("OPENAI_API_KEY"), "{env:?}");
    assert!(!env.contains_key("SECRET_X"), "{env:?}");
    assert!(!env.contains_key("HERMES_HOME"), "{env:?}");
    assert!(!results[0].contains("sk-must-not-leak"));
}
