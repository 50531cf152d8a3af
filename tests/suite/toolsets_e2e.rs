//! Toolsets through the real binary: `hermes tools` lists and switches them in config.yaml
//! (comments and unknown keys kept, Hermes's list format), and a session started after a
//! change offers the model exactly the enabled toolsets' tools — a disabled toolset's tools
//! are absent from the request the scripted provider receives and its guidance is absent
//! from the system prompt; `--toolsets` overrides for one run.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::time::Duration;

use support::Response;
use support::ScriptedServer;
use support::cli_home::CliHome as Home;
use support::cli_home::Run;

const CONFIG: &str = "# my settings — keep this comment\nmodel:\n  default: scripted-model  # pinned\nmy_plugin:\n  answer: 42\n";

async fn run(home: &Home, args: &[&str]) -> Run {
    let mut cmd = tokio::process::Command::from(home.command(args));
    cmd.kill_on_drop(true);
    tokio::time::timeout(Duration::from_secs(60), cmd.output())
        .await
        .expect("hermes timed out")
        .unwrap()
        .into()
}

fn oneshot<'a>(url: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "--provider",
        "custom",
        "--base-url",
        url,
        "--model",
        "scripted-model",
    ];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["-z", "hi"]);
    args
}

fn line_of<'a>(list: &'a str, name: &str) -> &'a str {
    list.lines()
        .find(|l| l.split_whitespace().nth(2) == Some(name))
        .unwrap_or_else(|| panic!("no line for {name} in\n{list}"))
}

#[tokio::test]
async fn hermes_tools_lists_and_switches_toolsets_keeping_the_file() {
    let home = Home::new(CONFIG);
    let list = run(&home, &["tools"]).await;
    assert_eq!(list.code, 0, "{}", list.stderr);
    assert!(
        list.stdout.starts_with("Built-in toolsets (cli):\n"),
        "{}",
        list.stdout
    );
    assert!(
        line_of(&list.stdout, "memory").contains("✓ enabled"),
        "{}",
        list.stdout
    );
    assert!(
        list.stdout
            .contains("read_file, write_file, patch, search_files")
    );
    assert_eq!(run(&home, &["tools", "list"]).await.stdout, list.stdout);

    let off = run(&home, &["tools", "disable", "memory", "todo"]).await;
    assert_eq!(off.code, 0, "{}", off.stderr);
    assert!(
        off.stdout.starts_with("✓ Disabled: memory, todo ("),
        "{}",
        off.stdout
    );
    assert!(
        off.stdout
            .contains("applies to sessions started from now on"),
        "{}",
        off.stdout
    );
    let text = std::fs::read_to_string(home.home().join("config.yaml")).unwrap();
    assert!(
        text.starts_with(CONFIG),
        "the old lines are kept byte for byte:\n{text}"
    );
    assert!(
        text.contains("platform_toolsets:\n  cli:\n    - browser\n    - clarify\n"),
        "{text}"
    );
    assert!(
        !text.contains("    - memory\n") && !text.contains("    - todo\n"),
        "{text}"
    );
    let list = run(&home, &["tools", "list"]).await.stdout;
    assert!(line_of(&list, "memory").contains("✗ disabled"), "{list}");
    assert!(line_of(&list, "todo").contains("✗ disabled"), "{list}");
    assert!(line_of(&list, "file").contains("✓ enabled"), "{list}");

    let on = run(&home, &["tools", "enable", "todo"]).await;
    assert_eq!(on.code, 0, "{}", on.stderr);
    let list = run(&home, &["tools", "list"]).await.stdout;
    assert!(line_of(&list, "todo").contains("✓ enabled"), "{list}");
    assert!(line_of(&list, "memory").contains("✗ disabled"), "{list}");

    let bad = run(&home, &["tools", "enable", "nope"]).await;
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr
            .contains("unknown toolset 'nope' (valid: web, browser,"),
        "{}",
        bad.stderr
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disabled_toolset_leaves_the_request_and_the_system_prompt() {
    let home = Home::new(CONFIG);
    std::fs::create_dir_all(home.home().join("skills/demo")).unwrap();
    std::fs::write(
        home.home().join("skills/demo/SKILL.md"),
        "---\nname: demo\ndescription: a demo skill\n---\nDo it.\n",
    )
    .unwrap();
    let server = ScriptedServer::start([Response::text(["ok"])]).await;
    let url = server.base_url();
    let before = run(&home, &oneshot(&url, &[])).await;
    assert_eq!(before.code, 0, "{}", before.stderr);
    let request = &server.completion_requests()[0];
    let tools = request.tool_names();
    for name in ["read_file", "patch", "todo", "memory", "skill_view"] {
        assert!(tools.iter().any(|t| t == name), "{name} in {tools:?}");
    }
    let prompt = request.messages()[0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        prompt.contains("Read a file before you patch it"),
        "{prompt}"
    );
    assert!(prompt.contains("## Skills (mandatory)"), "{prompt}");
    assert!(prompt.contains("Use `todo` to plan"), "{prompt}");

    let off = run(&home, &["tools", "disable", "file", "skills", "todo"]).await;
    assert_eq!(off.code, 0, "{}", off.stderr);
    let server = ScriptedServer::start([Response::text(["ok"])]).await;
    let url = server.base_url();
    let after = run(&home, &oneshot(&url, &[])).await;
    assert_eq!(after.code, 0, "{}", after.stderr);
    let request = &server.completion_requests()[0];
    let tools = request.tool_names();
    for gone in [
        "read_file",
        "write_file",
        "patch",
        "search_files",
        "skills_list",
        "skill_view",
        "skill_manage",
        "todo",
    ] {
        assert!(
            !tools.iter().any(|t| t == gone),
            "{gone} still offered: {tools:?}"
        );
    }
    assert!(tools.iter().any(|t| t == "terminal") && tools.iter().any(|t| t == "memory"));
    let prompt = request.messages()[0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    for gone in [
        "patch",
        "search_files",
        "read_file",
        "## Skills",
        "skill_view",
        "`todo`",
    ] {
        assert!(
            !prompt.contains(gone),
            "{gone} still in the prompt:\n{prompt}"
        );
    }
    assert!(prompt.contains("Use `clarify` only when"), "{prompt}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn toolsets_flag_overrides_the_config_for_one_run_and_disabled_still_wins() {
    let home = Home::new(&format!("{CONFIG}agent:\n  disabled_toolsets: [memory]\n"));
    let server = ScriptedServer::start([Response::text(["ok"])]).await;
    let url = server.base_url();
    let done = run(
        &home,
        &oneshot(&url, &["--toolsets", "terminal,memory,bogus"]),
    )
    .await;
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert!(
        done.stderr.contains("--toolsets: unknown toolset(s) bogus"),
        "{}",
        done.stderr
    );
    let mut tools = server.completion_requests()[0].tool_names();
    tools.sort();
    assert_eq!(tools, ["process", "terminal"]);
}
