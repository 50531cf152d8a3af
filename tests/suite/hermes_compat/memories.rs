//! Memories (`memories/MEMORY.md` and `USER.md`, entries joined by `\n§\n`) written by one
//! program are read by the other: Python's agent saves one entry to each through its
//! `memory` tool, hermes's next session has both in its system prompt and adds its own with
//! its `memory` tool, and Python's next session has hermes's in its system prompt. The files
//! end up with all four entries, Python's first.

use serde_json::json;

use super::home::SharedHome;
use super::python::PythonHermes;
use crate::support::Response;
use crate::support::ScriptedCall;
use crate::support::ScriptedServer;

const PY_MEMORY: &str = "The build uses cargo-nextest (written by Python Hermes).";
const PY_USER: &str =
    "The user is called Ada and prefers short answers (written by Python Hermes).";
const RS_MEMORY: &str = "Deployments go through the staging cluster first (written by hermes).";
const RS_USER: &str = "Ada works in UTC+2 (written by hermes).";

fn save(id: &str, target: &str, content: &str) -> ScriptedCall {
    let arguments = json!({"action": "add", "target": target, "content": content}).to_string();
    ScriptedCall::new(id, "memory", &arguments)
}

#[test]
fn memories_written_by_one_are_read_by_the_other() {
    let Some(py) = PythonHermes::locate() else {
        return;
    };
    let h = SharedHome::new("memories", py, ScriptedServer::start_on_own_thread([]));
    h.write_provider_config();
    let work = h.work("project");

    // 1. Python saves one entry to each store.
    h.server.push(Response::tool_calls([
        save("py_mem", "memory", PY_MEMORY),
        save("py_user", "user", PY_USER),
    ]));
    h.server.push(Response::text(["Saved."]));
    let turn = h.python(&work, &["-z", "remember my setup"]).ok();
    assert_eq!(turn.stdout.trim(), "Saved.", "{turn}");
    let memory = std::fs::read_to_string(h.path("memories/MEMORY.md")).unwrap_or_default();
    let user = std::fs::read_to_string(h.path("memories/USER.md")).unwrap_or_default();
    assert!(
        memory.contains(PY_MEMORY) && user.contains(PY_USER),
        "Python's memory tool wrote the entries:\n{memory}\n{user}\n{turn}"
    );

    // 2. hermes reads them, then saves its own.
    let first_hermes_request = h.server.completion_requests().len();
    h.server.push(Response::tool_calls([
        save("rs_mem", "memory", RS_MEMORY),
        save("rs_user", "user", RS_USER),
    ]));
    h.server.push(Response::text(["Noted."]));
    let turn = h.hermes(&work, &["-z", "remember where I deploy"]).ok();
    h.check(turn.stdout.trim() == "Noted.", || format!("{turn}"));
    let system = system_prompt(&h, first_hermes_request);
    for entry in [PY_MEMORY, PY_USER] {
        h.check(system.contains(entry), || {
            format!("hermes's system prompt lacks Python's memory {entry:?}")
        });
    }
    let memory = std::fs::read_to_string(h.path("memories/MEMORY.md")).unwrap_or_default();
    let user = std::fs::read_to_string(h.path("memories/USER.md")).unwrap_or_default();
    h.check(memory == format!("{PY_MEMORY}\n§\n{RS_MEMORY}"), || {
        format!("MEMORY.md after both programs saved:\n{memory:?}")
    });
    h.check(user == format!("{PY_USER}\n§\n{RS_USER}"), || {
        format!("USER.md after both programs saved:\n{user:?}")
    });

    // 3. Python reads hermes's.
    let first_python_request = h.server.completion_requests().len();
    h.server.push(Response::text(["Seen."]));
    let turn = h.python(&work, &["-z", "what do you know about me?"]).ok();
    assert_eq!(turn.stdout.trim(), "Seen.", "{turn}");
    let system = system_prompt(&h, first_python_request);
    for entry in [PY_MEMORY, PY_USER, RS_MEMORY, RS_USER] {
        h.check(system.contains(entry), || {
            format!("Python's system prompt lacks the memory {entry:?} (written before it started)")
        });
    }
    h.check(h.server.remaining() == 0, || {
        format!(
            "{} scripted responses were left unused",
            h.server.remaining()
        )
    });
    h.finish();
}

/// The system message of completion request number `index`.
fn system_prompt(h: &SharedHome, index: usize) -> String {
    let requests = h.server.completion_requests();
    let request = requests
        .get(index)
        .unwrap_or_else(|| panic!("no completion request #{index} (saw {})", requests.len()));
    request
        .messages()
        .iter()
        .filter(|m| m["role"] == "system")
        .filter_map(|m| m["content"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}
