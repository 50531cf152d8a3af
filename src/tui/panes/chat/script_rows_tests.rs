use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyModifiers;
use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::super::ChatFocus;
use super::super::ChatView;
use crate::protocol::Event;
use crate::protocol::ToolComplete;
use crate::protocol::ToolProgress;
use crate::protocol::ToolStart;
use crate::protocol::ToolStatus;
use crate::protocol::TurnComplete;
use crate::protocol::TurnOutcome;
use crate::theme::Theme;
use crate::tui::test_support::screen_rows as screen;
use crate::tui::transcript::Cell;
use crate::tui::transcript::ToolState;
use crate::tui::transcript::Transcript;

const SCRIPT: &str = r#"from hermes_tools import search_files, read_file, patch
hits = search_files("TODO", target="content")
for m in hits["matches"]:
    text = read_file(m["path"])["content"]
patch("src/a.rs", "TODO", "DONE")
print(len(hits["matches"]), "files")
"#;

fn start(call_id: &str, name: &str, preview: &str, parent: Option<&str>) -> Event {
    let arguments = if name == "execute_code" {
        serde_json::json!({ "code": SCRIPT })
    } else {
        serde_json::Value::Null
    };
    Event::ToolStart(ToolStart {
        call_id: call_id.into(),
        name: name.into(),
        preview: preview.into(),
        arguments,
        parent_call_id: parent.map(str::to_string),
    })
}

fn done(call_id: &str, name: &str, status: ToolStatus, output: &str, ms: u64) -> Event {
    Event::ToolComplete(ToolComplete {
        call_id: call_id.into(),
        name: name.into(),
        status,
        output: output.into(),
        duration_ms: ms,
    })
}

/// A script that has searched, read one file and is reading another.
fn running_script() -> Transcript {
    let mut t = Transcript::new();
    t.push_user("mark the TODOs done");
    for event in [
        start(
            "c1",
            "execute_code",
            "hits = search_files(…) (6 lines)",
            None,
        ),
        start("c1~1", "search_files", "TODO", Some("c1")),
        done("c1~1", "search_files", ToolStatus::Ok, "{}", 40),
        start("c1~2", "read_file", "src/a.rs", Some("c1")),
        done("c1~2", "read_file", ToolStatus::Ok, "{}", 10),
        start("c1~3", "read_file", "src/b.rs", Some("c1")),
        Event::ToolProgress(ToolProgress {
            call_id: "c1".into(),
            text: "3 tool calls · read_file · 2s".into(),
        }),
    ] {
        t.apply(&event);
    }
    t
}

fn draw(view: &mut ChatView, t: &Transcript, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| {
        let area = f.area();
        view.render(
            t,
            area,
            f.buffer_mut(),
            &Theme::default(),
            ChatFocus::Focused,
        );
    })
    .unwrap();
    term
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

#[test]
fn a_scripts_calls_are_lines_of_its_cell_not_cells() {
    let t = running_script();
    assert_eq!(t.len(), 2, "the user message and the execute_code cell");
    let Cell::Tool(tool) = t.get(1).unwrap().cell() else {
        panic!("not a tool cell");
    };
    assert_eq!(tool.code(), Some(SCRIPT));
    let states: Vec<_> = tool
        .children()
        .iter()
        .map(|c| (c.name.as_str(), c.state))
        .collect();
    assert_eq!(
        states,
        [
            ("search_files", ToolState::Finished(ToolStatus::Ok)),
            ("read_file", ToolState::Finished(ToolStatus::Ok)),
            ("read_file", ToolState::Running),
        ]
    );
}

#[test]
fn snapshot_running_script() {
    let t = running_script();
    let mut view = ChatView::new();
    let term = draw(&mut view, &t, 60, 14);
    let rows = screen(&term).join("\n");
    assert!(rows.contains("execute_code (6 lines)  running…"), "{rows}");
    assert!(rows.contains("read_file src/b.rs  running…"), "{rows}");
    assert!(rows.contains("3 tool calls · read_file · 2s"), "{rows}");
    assert!(rows.contains("… 3 more lines of script"), "{rows}");
    insta::assert_snapshot!("script_running", term.backend());
}

#[test]
fn snapshot_finished_script_collapsed_and_expanded() {
    let mut t = running_script();
    for event in [
        done("c1~3", "read_file", ToolStatus::Ok, "{}", 10),
        start("c1~4", "patch", "src/a.rs", Some("c1")),
        done(
            "c1~4",
            "patch",
            ToolStatus::Error,
            "{\"error\": \"no match\"}",
            5,
        ),
        done(
            "c1",
            "execute_code",
            ToolStatus::Ok,
            r#"{"status": "success", "output": "2 files\n", "tool_calls_made": 4, "duration_seconds": 2.4}"#,
            2400,
        ),
    ] {
        t.apply(&event);
    }
    let mut view = ChatView::new();
    let term = draw(&mut view, &t, 60, 14);
    let rows = screen(&term).join("\n");
    assert!(rows.contains("execute_code (6 lines) (2.4s)"), "{rows}");
    assert!(rows.contains("patch src/a.rs (0.1s) ✗ error"), "{rows}");
    assert!(rows.contains("2 files"), "{rows}");
    assert!(
        !rows.contains("tool_calls_made"),
        "the JSON is not shown: {rows}"
    );
    insta::assert_snapshot!("script_finished_collapsed", term.backend());

    assert!(view.handle_key(key(KeyCode::Up)), "up selects the cell");
    assert!(view.handle_key(key(KeyCode::Enter)), "enter expands it");
    let term = draw(&mut view, &t, 60, 18);
    let rows = screen(&term).join("\n");
    assert!(
        rows.contains("print(len(hits[\"matches\"]), \"files\")"),
        "{rows}"
    );
    insta::assert_snapshot!("script_finished_expanded", term.backend());
}

#[test]
fn many_calls_show_the_newest_and_count_the_rest() {
    let mut t = Transcript::new();
    t.apply(&start("c1", "execute_code", "", None));
    for i in 0..crate::tui::transcript::cell::MAX_CHILD_CALLS + 7 {
        let id = format!("c1~{i}");
        t.apply(&start(&id, "read_file", &format!("f{i}.txt"), Some("c1")));
        t.apply(&done(&id, "read_file", ToolStatus::Ok, "{}", 1));
    }
    let Cell::Tool(tool) = t.get(0).unwrap().cell() else {
        panic!("not a tool cell");
    };
    assert_eq!(
        tool.children().len(),
        crate::tui::transcript::cell::MAX_CHILD_CALLS
    );
    assert_eq!(tool.children_dropped(), 7);
    let mut view = ChatView::new();
    let rows = screen(&draw(&mut view, &t, 60, 14)).join("\n");
    assert!(rows.contains("↳ … 202 earlier calls"), "{rows}");
    assert!(rows.contains("read_file f206.txt"), "{rows}");
    assert!(!rows.contains("read_file f201.txt"), "{rows}");
}

#[test]
fn a_call_whose_parent_is_unknown_gets_its_own_cell_and_a_turn_end_freezes_children() {
    let mut t = Transcript::new();
    t.apply(&start("x~1", "read_file", "a.txt", Some("x")));
    assert_eq!(t.len(), 1, "an orphan is shown, not lost");
    t.apply(&start("c1", "execute_code", "", None));
    t.apply(&start("c1~1", "terminal", "sleep 100", Some("c1")));
    t.apply(&Event::TurnComplete(TurnComplete {
        turn_id: 1,
        outcome: TurnOutcome::Interrupted {
            done: String::new(),
        },
    }));
    let Cell::Tool(tool) = t.get(1).unwrap().cell() else {
        panic!("not a tool cell");
    };
    assert_eq!(tool.state, ToolState::Finished(ToolStatus::Cancelled));
    assert_eq!(
        tool.children()[0].state,
        ToolState::Finished(ToolStatus::Cancelled)
    );
}
