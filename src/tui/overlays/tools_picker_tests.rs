use crossterm::event::KeyModifiers;
use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;
use crate::protocol::ToolEntry;

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn entry(name: &str, label: &str, enabled: bool, tools: &[(&str, Option<&str>)]) -> ToolsetEntry {
    ToolsetEntry {
        name: name.into(),
        label: label.into(),
        enabled,
        in_session: enabled,
        tools: tools
            .iter()
            .map(|(n, why)| ToolEntry {
                name: (*n).into(),
                unavailable: why.map(String::from),
            })
            .collect(),
    }
}

pub(crate) fn list() -> ToolsetList {
    ToolsetList {
        toolsets: vec![
            entry(
                "web",
                "🔍 Web Search & Scraping",
                true,
                &[
                    (
                        "web_search",
                        Some("needs TAVILY_API_KEY for backend tavily"),
                    ),
                    ("web_extract", None),
                ],
            ),
            entry(
                "terminal",
                "💻 Terminal & Processes",
                true,
                &[("terminal", None), ("process", None)],
            ),
            entry("memory", "💾 Memory", false, &[("memory", None)]),
            entry("github", "MCP server (toolset mcp-github)", true, &[]),
        ],
        applies: "saved".into(),
        changed: String::new(),
    }
}

fn screen(picker: &mut ToolsPicker) -> TestBackend {
    let theme = Theme::default();
    let mut terminal = Terminal::new(TestBackend::new(90, 14)).unwrap();
    terminal
        .draw(|frame| {
            let area = frame.area();
            picker.render(area, frame.buffer_mut(), &theme);
        })
        .unwrap();
    terminal.backend().clone()
}

#[test]
fn space_and_enter_switch_the_selected_toolset_once_until_the_list_returns() {
    let mut picker = ToolsPicker::new();
    assert_eq!(
        picker.handle_key(key(KeyCode::Enter)),
        OverlayAction::None,
        "loading"
    );
    picker.set_list(&list());
    picker.handle_key(key(KeyCode::Down));
    picker.handle_key(key(KeyCode::Char('j')));
    let off_to_on = Op::Toolsets(ToolsetsOp::Set {
        name: "memory".into(),
        enabled: true,
    });
    assert_eq!(
        picker.handle_key(key(KeyCode::Char(' '))),
        OverlayAction::Send(off_to_on)
    );
    assert_eq!(
        picker.handle_key(key(KeyCode::Enter)),
        OverlayAction::None,
        "still saving"
    );
    let mut after = list();
    after.toolsets[2].enabled = true;
    after.changed = "memory enabled".into();
    picker.set_list(&after);
    let on_to_off = Op::Toolsets(ToolsetsOp::Set {
        name: "memory".into(),
        enabled: false,
    });
    assert_eq!(
        picker.handle_key(key(KeyCode::Enter)),
        OverlayAction::Send(on_to_off)
    );
    picker.clear_saving();
    picker.handle_key(key(KeyCode::Char('k')));
    picker.handle_key(key(KeyCode::Up));
    picker.handle_key(key(KeyCode::Up));
    assert!(matches!(
        picker.handle_key(key(KeyCode::Enter)),
        OverlayAction::Send(Op::Toolsets(ToolsetsOp::Set { name, enabled: false })) if name == "web"
    ));
    assert_eq!(picker.handle_key(key(KeyCode::Esc)), OverlayAction::Close);
    assert_eq!(plain_label("💾 Memory"), "Memory");
    assert_eq!(plain_label("MCP server (x)"), "MCP server (x)");
}

#[test]
fn tools_picker_loading_snapshot() {
    insta::assert_snapshot!("tools_picker_loading", screen(&mut ToolsPicker::new()));
}

#[test]
fn tools_picker_list_snapshot() {
    let mut picker = ToolsPicker::new();
    picker.set_list(&list());
    picker.handle_key(key(KeyCode::Down));
    insta::assert_snapshot!("tools_picker_list", screen(&mut picker));
}

#[test]
fn tools_picker_saving_and_saved_snapshot() {
    let mut picker = ToolsPicker::new();
    picker.set_list(&list());
    picker.handle_key(key(KeyCode::Down));
    picker.handle_key(key(KeyCode::Down));
    picker.handle_key(key(KeyCode::Enter));
    insta::assert_snapshot!("tools_picker_saving", screen(&mut picker));
    let mut after = list();
    after.toolsets[2].enabled = true;
    after.changed = "memory enabled".into();
    picker.set_list(&after);
    insta::assert_snapshot!("tools_picker_saved", screen(&mut picker));
}
