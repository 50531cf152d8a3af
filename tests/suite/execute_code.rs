//! `execute_code` as a user gets it: the real binary (`hermes -z`) against the scripted
//! provider, which sends one script; the script's result as the model received it (recorded
//! by the scripted server) is checked, with the files it changed, the processes it left and
//! the environment it saw. Python is the machine's `python3`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;
use std::time::Instant;

use serde_json::Value;
use serde_json::json;

use crate::support;
use support::Response;
use support::ScriptedCall;
use support::ScriptedServer;
use support::cli_home::CliHome;

struct Ran {
    result: Value,
    /// What the model was sent after the script (all tool results of that request).
    second_request: String,
    stderr: String,
    elapsed: Duration,
}

fn python_available() -> bool {
    std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// hermes runs `code` through execute_code in `home` (prepared by the caller) with `env`.
async fn run_in(home: &CliHome, server: &ScriptedServer, env: &[(&str, String)]) -> Ran {
    let mut command = home.command(&["-z", "run the script"]);
    for (key, value) in env {
        command.env(key, value);
    }
    let started = Instant::now();
    let output = tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap();
    let elapsed = started.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "hermes failed: {stderr}");
    let requests = server.requests();
    let second_request = requests
        .get(1)
        .map(|r| r.tool_results().join("\n"))
        .unwrap_or_default();
    let result = serde_json::from_str(&second_request)
        .unwrap_or_else(|e| panic!("{e}: {second_request}\n{stderr}"));
    Ran {
        result,
        second_request,
        stderr,
        elapsed,
    }
}

fn script_server(code: &str) -> ScriptedServer {
    let args = json!({ "code": code }).to_string();
    ScriptedServer::start_on_own_thread([
        Response::tool_calls([ScriptedCall::new("x1", "execute_code", &args)]),
        Response::text(["done"]),
    ])
}

async fn run(code: &str, extra_yaml: &str) -> (Ran, CliHome) {
    let server = script_server(code);
    let home = CliHome::new(&format!("{}{extra_yaml}", server.config_yaml()));
    let ran = run_in(&home, &server, &[]).await;
    (ran, home)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_script_searches_reads_and_patches_in_one_turn() {
    if !python_available() {
        eprintln!("skipping: python3 is not installed (scripts/test.sh installs it)");
        return;
    }
    let code = r#"from hermes_tools import search_files, read_file, patch
hits = search_files("TODO", target="content")
paths = sorted({m["path"] for m in hits["matches"]})
lines = 0
for path in paths:
    lines += read_file(path)["total_lines"]
done = patch(path="src/a.py", old_string="TODO: fix", new_string="DONE: fixed")
print(f"{len(paths)} files, {lines} lines, patched={done['success']}")
"#;
    let server = script_server(code);
    let home = CliHome::new(&server.config_yaml());
    std::fs::create_dir_all(home.work().join("src")).unwrap();
    std::fs::write(home.work().join("src/a.py"), "x = 1\n# TODO: fix\n").unwrap();
    std::fs::write(
        home.work().join("src/b.py"),
        "# TODO: later\ny = 2\nz = 3\n",
    )
    .unwrap();
    std::fs::write(home.work().join("src/c.py"), "nothing here\n").unwrap();
    let ran = run_in(&home, &server, &[]).await;
    let r = &ran.result;
    assert_eq!(r["status"], "success", "{r}");
    assert_eq!(r["output"], "2 files, 5 lines, patched=True\n");
    assert_eq!(r["tool_calls_made"], 4);
    assert_eq!(r["exit_code"], 0);
    assert_eq!(
        std::fs::read_to_string(home.work().join("src/a.py")).unwrap(),
        "x = 1\n# DONE: fixed\n"
    );
    assert!(
        !ran.second_request.contains("TODO: later"),
        "only what the script printed reaches the model: {}",
        ran.second_request
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn errors_and_refusals_reach_the_script() {
    if !python_available() {
        return;
    }
    let code = r#"from hermes_tools import read_file, terminal, HermesToolError
print("silent:", repr(terminal("true")["output"]))
missing = read_file("no/such/file.txt")
print("missing has error:", "error" in missing)
try:
    terminal("sleep 60", background=True)
except TypeError:
    print("no background parameter")
try:
    terminal("rm -rf build")
except HermesToolError as e:
    print("denied:", e.kind)
"#;
    let server = script_server(code);
    let home = CliHome::new(&server.config_yaml());
    std::fs::create_dir_all(home.work().join("build")).unwrap();
    let ran = run_in(&home, &server, &[]).await;
    let output = ran.result["output"].as_str().unwrap();
    assert_eq!(ran.result["status"], "success", "{}", ran.result);
    assert!(output.contains("missing has error: True"), "{output}");
    assert!(output.contains("no background parameter"), "{output}");
    assert!(
        output.contains("denied: refused"),
        "a dangerous command with nobody to approve it is refused: {output}"
    );
    assert!(home.work().join("build").exists(), "it did not run");
    assert!(
        output.contains("silent: ''"),
        "a silent command gives the script \"\" (Hermes), not the model's marker: {output}"
    );
    assert!(
        ran.stderr.contains("approval needed via execute_code"),
        "{}",
        ran.stderr
    );
    let (ran, _home) = run("def broken(:\n    pass\n", "").await;
    assert_eq!(ran.result["status"], "error");
    assert!(
        ran.result["error"]
            .as_str()
            .unwrap()
            .contains("SyntaxError"),
        "{}",
        ran.result
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_script_past_its_timeout_is_killed_even_if_it_ignores_sigterm() {
    if !python_available() {
        return;
    }
    let code = "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n\
                print('started', flush=True)\ntime.sleep(60)\n";
    let (ran, _home) = run(code, "code_execution:\n  timeout: 2\n").await;
    assert_eq!(ran.result["status"], "timeout", "{}", ran.result);
    assert_eq!(
        ran.result["error"],
        "Script timed out after 2s and was killed."
    );
    assert_eq!(
        ran.result["output"],
        "started\n\n\n⏰ Script timed out after 2s and was killed."
    );
    // 2 s, then 5 s of grace after SIGTERM, then SIGKILL.
    assert!(ran.elapsed < Duration::from_secs(14), "{:?}", ran.elapsed);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_call_limit_stops_the_fourth_call() {
    if !python_available() {
        return;
    }
    let code = r#"from hermes_tools import read_file, HermesToolError
for i in range(5):
    try:
        read_file("notes.txt")
        print("call", i, "ok")
    except HermesToolError as e:
        print("call", i, e.kind, str(e))
"#;
    let server = script_server(code);
    let home = CliHome::new(&format!(
        "{}code_execution:\n  max_tool_calls: 3\n",
        server.config_yaml()
    ));
    std::fs::write(home.work().join("notes.txt"), "hi\n").unwrap();
    let ran = run_in(&home, &server, &[]).await;
    assert_eq!(ran.result["tool_calls_made"], 3);
    let output = ran.result["output"].as_str().unwrap();
    assert!(output.contains("call 2 ok"), "{output}");
    assert!(
        output.contains(
            "call 3 limit read_file: Tool call limit reached (3). No more tool calls allowed \
             in this execution (code_execution.max_tool_calls)."
        ),
        "{output}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_forged_token_is_refused() {
    if !python_available() {
        return;
    }
    let code = r#"import json, os, socket
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(os.environ["HERMES_RPC_SOCKET"])
f = s.makefile("rwb")
f.write((json.dumps({"id": 1, "tool": "write_file", "args": {"path": "pwned.txt", "content": "x"}, "token": "guess"}) + "\n").encode())
f.flush()
print(json.loads(f.readline())["kind"])
"#;
    let (ran, home) = run(code, "").await;
    assert_eq!(ran.result["output"], "unauthorized\n", "{}", ran.result);
    assert_eq!(ran.result["tool_calls_made"], 0);
    assert!(!home.work().join("pwned.txt").exists());
}

#[tokio::test(flavor = "multi_thread")]
async fn secrets_stay_out_and_children_and_staging_do_not_outlive_the_run() {
    if !python_available() {
        return;
    }
    let code = r#"import os, subprocess
child = subprocess.Popen(["sleep", "300"])
open(os.environ["PID_FILE"], "w").write(str(child.pid))
for name in ["OPENAI_API_KEY", "MY_SERVICE_TOKEN", "GH_TOKEN", "PATH", "HOME", "HERMES_RPC_TOKEN"]:
    print(name, name in os.environ)
print("staging", os.path.dirname(os.path.abspath(__file__)))
print("cwd", os.getcwd())
"#;
    let server = script_server(code);
    let home = CliHome::new(&format!(
        "{}terminal:\n  env_passthrough: [GH_TOKEN, PID_FILE]\n",
        server.config_yaml()
    ));
    std::fs::write(
        home.home().join(".env"),
        "OPENAI_API_KEY=sk-test-secret-value\n",
    )
    .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let pid_file = tmp.path().join("pid");
    let env = [
        ("MY_SERVICE_TOKEN", "tok-1234".to_string()),
        ("GH_TOKEN", "ghp-pass".to_string()),
        ("PID_FILE", pid_file.display().to_string()),
        ("TMPDIR", tmp.path().display().to_string()),
        ("HOME", home.dir.path().display().to_string()),
        ("PATH", std::env::var("PATH").unwrap()),
    ];
    let ran = run_in(&home, &server, &env).await;
    let output = ran.result["output"].as_str().unwrap();
    for line in [
        "OPENAI_API_KEY False",
        "MY_SERVICE_TOKEN False",
        "GH_TOKEN True",
        "PATH True",
        "HOME True",
        "HERMES_RPC_TOKEN True",
    ] {
        assert!(output.contains(line), "{line}: {output}\n{}", ran.stderr);
    }
    let cwd = home.work().canonicalize().unwrap();
    assert!(
        output.contains(&format!("cwd {}", cwd.display())),
        "project mode runs in the working directory: {output}"
    );
    let staging = output
        .lines()
        .find_map(|l| l.strip_prefix("staging "))
        .unwrap();
    assert!(staging.contains("hermes_sandbox"), "{staging}");
    assert!(!std::path::Path::new(staging).exists(), "staging removed");
    let pid: i32 = std::fs::read_to_string(&pid_file).unwrap().parse().unwrap();
    let alive = std::path::Path::new(&format!("/proc/{pid}")).exists()
        && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .unwrap_or_default()
            .contains(") Z ");
    assert!(!alive, "the script's background child {pid} was killed");
}

#[tokio::test(flavor = "multi_thread")]
async fn strict_mode_runs_in_the_staging_directory() {
    if !python_available() {
        return;
    }
    let code = "import os\nprint(os.getcwd() == os.path.dirname(os.path.abspath(__file__)))\n";
    let (ran, _home) = run(code, "code_execution:\n  mode: strict\n").await;
    assert_eq!(ran.result["output"], "True\n", "{}", ran.result);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_flood_of_output_is_bounded() {
    if !python_available() {
        return;
    }
    let code = "import sys\nchunk = 'x' * (1024 * 1024)\nfor _ in range(100):\n    \
                sys.stdout.write(chunk)\nprint('END')\n";
    let (ran, _home) = run(code, "").await;
    let output = ran.result["output"].as_str().unwrap();
    assert_eq!(ran.result["status"], "success");
    assert_eq!(ran.result["stdout_truncated"], true);
    assert_eq!(ran.result["stdout_bytes_total"], 100 * 1024 * 1024 + 4);
    assert!(output.len() < 51_000, "{}", output.len());
    assert!(
        output.ends_with("END\n\n[output truncated at 50KB]"),
        "{}",
        &output[output.len() - 60..]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn json_events_name_the_script_as_each_inner_calls_parent() {
    if !python_available() {
        return;
    }
    let code = "from hermes_tools import read_file\nread_file('a.txt')\nread_file('b.txt')\n";
    let server = script_server(code);
    let home = CliHome::new(&server.config_yaml());
    std::fs::write(home.work().join("a.txt"), "a\n").unwrap();
    std::fs::write(home.work().join("b.txt"), "b\n").unwrap();
    let mut command = home.command(&["-z", "run the script", "--json"]);
    let output = tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap();
    assert!(output.status.success());
    let events: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let starts: Vec<(&str, Option<&str>)> = events
        .iter()
        .filter(|e| e["type"] == "tool_start")
        .map(|e| (e["call_id"].as_str().unwrap(), e["parent_call_id"].as_str()))
        .collect();
    assert_eq!(
        starts,
        [("x1", None), ("x1~1", Some("x1")), ("x1~2", Some("x1"))]
    );
    let completes: Vec<&str> = events
        .iter()
        .filter(|e| e["type"] == "tool_complete")
        .map(|e| e["call_id"].as_str().unwrap())
        .collect();
    assert_eq!(completes, ["x1~1", "x1~2", "x1"], "inner calls end first");
}
