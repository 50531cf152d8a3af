#![allow(clippy::unwrap_used, clippy::expect_used)]

use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;
use crate::protocol::Event;
use crate::protocol::HistoryReplay;
use crate::protocol::McpServerState;
use crate::protocol::McpStatus;
use crate::protocol::McpTransport;
use crate::protocol::ReplayMessage;
use crate::protocol::ToolComplete;
use crate::protocol::ToolStatus;
use crate::theme::Theme;
use crate::tui::panes::chat::ChatFocus;
use crate::tui::panes::chat::ChatView;
use crate::tui::test_support::screen_rows;
use crate::tui::transcript::Entry;

fn status(names: &[&str]) -> Event {
    Event::McpStatus(McpStatus {
        servers: names
            .iter()
            .map(|name| McpServerStatus {
                name: (*name).to_string(),
                transport: McpTransport::Stdio,
                state: McpServerState::Connected,
                tools: Vec::new(),
            })
            .collect(),
    })
}

fn tool(t: &mut Transcript, id: &str, name: &str, preview: &str, output: &str) {
    let events =
        crate::tui::test_support::tool_call_events(id, name, preview, ToolStatus::Ok, output, 120);
    for event in events {
        t.apply(&event);
    }
}

fn labels(t: &Transcript) -> Vec<Option<McpLabel>> {
    t.entries()
        .iter()
        .filter_map(|e| match e.cell() {
            Cell::Tool(tool) => Some(tool.mcp.clone()),
            _ => None,
        })
        .collect()
}

fn label(server: &str, tool: &str) -> Option<McpLabel> {
    Some(McpLabel {
        server: server.into(),
        tool: tool.into(),
    })
}

#[test]
fn tools_of_known_servers_are_labelled_and_others_are_not() {
    let mut t = Transcript::new();
    t.apply(&status(&["filesystem", "my-api"]));
    tool(
        &mut t,
        "a",
        "mcp_filesystem_read_file",
        "/etc/hosts",
        "127.0.0.1",
    );
    tool(&mut t, "b", "mcp_my_api_query_data", "", "[]");
    tool(&mut t, "c", "terminal", "ls", "src");
    tool(&mut t, "d", "mcp_unknown_thing", "", "?");
    assert_eq!(
        labels(&t),
        [
            label("filesystem", "read_file"),
            label("my-api", "query_data"),
            None,
            None
        ]
    );
}

#[test]
fn a_status_after_the_cell_labels_it_once_and_a_later_one_keeps_the_label() {
    let mut t = Transcript::new();
    tool(
        &mut t,
        "a",
        "mcp_filesystem_read_file",
        "/etc/hosts",
        "127.0.0.1",
    );
    tool(&mut t, "b", "terminal", "ls", "src");
    let revs: Vec<u64> = t.entries().iter().map(Entry::rev).collect();
    let version = t.version();
    t.apply(&status(&["filesystem"]));
    assert_eq!(labels(&t), [label("filesystem", "read_file"), None]);
    assert!(t.version() > version, "the chat redraws the labelled cell");
    assert!(t.entries()[0].rev() > revs[0]);
    assert_eq!(
        t.entries()[1].rev(),
        revs[1],
        "other cells keep their rendering"
    );
    // The server is gone from config: the cell still says where its tool came from.
    let version = t.version();
    t.apply(&status(&[]));
    assert_eq!(labels(&t), [label("filesystem", "read_file"), None]);
    assert_eq!(t.version(), version, "nothing to relabel, nothing changed");
    assert_eq!(t.mcp_label("mcp_filesystem_read_file"), None);
}

#[test]
fn replayed_tool_messages_are_labelled_and_clear_keeps_the_servers() {
    let mut t = Transcript::new();
    t.apply(&status(&["github"]));
    t.clear();
    t.apply(&Event::HistoryReplay(HistoryReplay {
        messages: vec![
            ReplayMessage::Tool {
                name: "mcp_github_list_issues".into(),
                output: "#1 crash on start".into(),
            },
            ReplayMessage::Tool {
                name: "read_file".into(),
                output: "fn main() {}".into(),
            },
        ],
    }));
    assert_eq!(labels(&t), [label("github", "list_issues"), None]);
}

#[test]
fn the_chat_shows_an_mcp_tool_by_its_own_name_with_its_server() {
    let mut t = Transcript::new();
    t.apply(&status(&["filesystem"]));
    t.push_user("what is in /etc/hosts?");
    tool(
        &mut t,
        "a",
        "mcp_filesystem_read_file",
        "/etc/hosts",
        "127.0.0.1 localhost\n::1 localhost",
    );
    tool(&mut t, "b", "terminal", "wc -l /etc/hosts", "2 /etc/hosts");
    // A completion without a start: the preview is the registered name, not repeated.
    t.apply(&Event::ToolComplete(ToolComplete {
        call_id: "c".into(),
        name: "mcp_filesystem_list_directory".into(),
        status: ToolStatus::Error,
        output: "permission denied".into(),
        duration_ms: 5,
    }));
    let mut view = ChatView::new();
    let mut terminal = Terminal::new(TestBackend::new(64, 14)).unwrap();
    terminal
        .draw(|f| {
            let area = f.area();
            view.render(
                &t,
                area,
                f.buffer_mut(),
                &Theme::default(),
                ChatFocus::Unfocused,
            );
        })
        .unwrap();
    insta::assert_snapshot!("chat_mcp_and_builtin_tool_cells", terminal.backend());
    let text = screen_rows(&terminal).join("\n");
    assert!(
        text.contains("read_file /etc/hosts  filesystem · MCP (0.2s)"),
        "{text}"
    );
    assert!(
        text.contains("list_directory  filesystem · MCP (0.1s) ✗ error"),
        "{text}"
    );
    assert!(!text.contains("mcp_filesystem"), "{text}");
}
