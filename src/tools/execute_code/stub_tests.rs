//! The generated module is run by a real `python3`: it must parse, offer the right
//! signatures, and talk to the real channel (`rpc::serve`) end to end.

use std::sync::Arc;
use std::sync::Mutex;

use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;

use super::*;
use crate::tools::NestedCalls;
use crate::tools::ToolOutput;
use crate::tools::execute_code::rpc;
use crate::tools::registry::ToolRegistry;

fn script_schemas() -> Vec<ToolSchema> {
    ToolRegistry::core()
        .schemas()
        .into_iter()
        .filter(|s| crate::tools::execute_code::SCRIPT_TOOLS.contains(&s.name.as_str()))
        .collect()
}

fn python(dir: &std::path::Path, code: &str, env: &[(&str, &str)]) -> (bool, String, String) {
    let out = std::process::Command::new("python3")
        .args(["-c", code])
        .env("PYTHONPATH", dir)
        .envs(env.iter().copied())
        .output()
        .expect("python3 runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_module_imports_and_offers_hermes_signatures() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("hermes_tools.py"),
        generate(&script_schemas()),
    )
    .unwrap();
    let (ok, out, err) = python(
        dir.path(),
        "import inspect, hermes_tools as h\n\
         for name in ['read_file', 'write_file', 'search_files', 'patch', 'terminal']:\n\
         \x20   print(name, list(inspect.signature(getattr(h, name)).parameters))\n\
         print(sorted(n for n in h.__all__ if not n.startswith('_')))",
        &[],
    );
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("read_file ['path', 'offset', 'limit'"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("write_file ['path', 'content'"),
        "{out}"
    );
    assert!(lines[2].starts_with("search_files ['pattern'"), "{out}");
    let terminal = lines[4];
    assert!(terminal.starts_with("terminal ['command'"), "{out}");
    for blocked in TERMINAL_BLOCKED_PARAMS {
        assert!(!terminal.contains(blocked), "{blocked} offered: {terminal}");
    }
    for helper in [
        "HermesToolError",
        "json_parse",
        "retry",
        "shell_quote",
        "read_file",
    ] {
        assert!(lines[5].contains(helper), "{helper} not exported: {out}");
    }
}

#[test]
fn hostile_descriptions_cannot_break_the_module() {
    let schema = ToolSchema {
        name: "read_file".into(),
        description: "ends with a quote\" and \"\"\" triple, a backslash \\ and \\\"\"\"".into(),
        parameters: json!({
            "type": "object",
            "properties": {"path": {"type": "string", "description": "\"\"\"); import os; os._exit(3) #"}},
            "required": ["path"]
        }),
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hermes_tools.py"), generate(&[schema])).unwrap();
    let (ok, out, err) = python(
        dir.path(),
        "import hermes_tools as h; print(h.read_file.__doc__ is not None)",
        &[],
    );
    assert!(ok, "{err}");
    assert_eq!(out.trim(), "True");
}

struct Echo(Mutex<Vec<(String, Value)>>);

#[async_trait::async_trait]
impl NestedCalls for Echo {
    fn schemas(&self) -> Vec<ToolSchema> {
        script_schemas()
    }

    async fn call(&self, _parent: &str, _id: String, name: &str, args: Value) -> ToolOutput {
        self.0
            .lock()
            .unwrap()
            .push((name.to_string(), args.clone()));
        match name {
            "patch" => ToolOutput::denied("BLOCKED: denied by the user"),
            "write_file" => ToolOutput::error("disk full"),
            _ => ToolOutput::ok("").with_data(json!({"echo": args})),
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_script_round_trips_through_the_channel() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("hermes_tools.py"),
        generate(&script_schemas()),
    )
    .unwrap();
    let transport = rpc::bind(dir.path()).unwrap();
    let endpoint = transport.endpoint();
    let echo = Arc::new(Echo(Mutex::default()));
    let dispatcher = rpc::Dispatcher {
        token: "secret-token".into(),
        nested: Arc::<Echo>::clone(&echo),
        allowed: script_schemas().into_iter().map(|s| s.name).collect(),
        max_calls: 50,
        parent: "p".into(),
        status: Arc::new(rpc::RunStatus::new()),
        on_call: Box::new(|_| {}),
    };
    let server = tokio::spawn(rpc::serve(transport, Arc::new(dispatcher)));
    let code = r#"
import os
from hermes_tools import read_file, write_file, patch, HermesToolError
print(read_file("a.txt", limit=5)["echo"])
print(write_file("b.txt", "x"))
try:
    patch("a.txt", "old", "new")
except HermesToolError as e:
    print("refused:", e.kind, e)
pid = os.fork()
if pid == 0:
    print("child:", read_file("c.txt")["echo"]["path"], flush=True)
    os._exit(0)
os.waitpid(pid, 0)
print("parent:", read_file("d.txt")["echo"]["path"])
"#;
    let dir_path = dir.path().to_path_buf();
    let (ok, out, err) = tokio::task::spawn_blocking(move || {
        python(
            &dir_path,
            code,
            &[
                ("HERMES_RPC_SOCKET", endpoint.as_str()),
                ("HERMES_RPC_TOKEN", "secret-token"),
            ],
        )
    })
    .await
    .unwrap();
    server.abort();
    assert!(ok, "{err}");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "{'limit': 5, 'path': 'a.txt'}",
            "{'error': 'disk full'}",
            "refused: refused patch: BLOCKED: denied by the user",
            "child: c.txt",
            "parent: d.txt",
        ]
    );
    let calls = echo.0.lock().unwrap();
    assert_eq!(
        calls[0],
        (
            "read_file".to_string(),
            json!({"path": "a.txt", "limit": 5})
        )
    );
    assert_eq!(calls.len(), 5);
}
