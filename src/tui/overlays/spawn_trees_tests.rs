use crossterm::event::KeyModifiers;
use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

pub(crate) fn trees() -> Vec<SpawnTreeInfo> {
    vec![
        SpawnTreeInfo {
            id: "t2".into(),
            finished: "2025-03-04 17:20".into(),
            subagents: 3,
            goals: "run the test suite · summarise the README".into(),
        },
        SpawnTreeInfo {
            id: "t1".into(),
            finished: "2025-03-01 09:05".into(),
            subagents: 1,
            goals: "fetch the changelog".into(),
        },
    ]
}

#[test]
fn list_moves_and_loads_the_selected_tree() {
    let mut picker = SpawnTreesPicker::new();
    assert_eq!(picker.handle_key(key(KeyCode::Enter)), OverlayAction::None);
    assert_eq!(picker.set_list(trees()), TreesOutcome::Listed);
    assert_eq!(picker.set_list(trees()), TreesOutcome::Ignored);
    picker.handle_key(key(KeyCode::Down));
    picker.handle_key(key(KeyCode::Down));
    let t1 = trees().into_iter().nth(1).unwrap();
    assert!(matches!(
        picker.handle_key(key(KeyCode::Enter)),
        OverlayAction::App(AppEvent::LoadSpawnTree(info)) if info == t1
    ));
    assert!(picker.is_complete(), "Enter closes the picker");
    picker.handle_key(key(KeyCode::Char('k')));
    let t2 = trees().into_iter().next().unwrap();
    assert!(matches!(
        picker.handle_key(key(KeyCode::Enter)),
        OverlayAction::App(AppEvent::LoadSpawnTree(info)) if info == t2
    ));
    assert!(picker.is_complete(), "Enter closes the picker");
    assert_eq!(picker.handle_key(key(KeyCode::Esc)), OverlayAction::Close);
}

#[test]
fn empty_list_and_esc_while_loading() {
    let mut picker = SpawnTreesPicker::new();
    assert_eq!(picker.handle_key(key(KeyCode::Esc)), OverlayAction::Close);
    assert_eq!(picker.set_list(Vec::new()), TreesOutcome::Empty);
    assert_eq!(picker.handle_key(key(KeyCode::Enter)), OverlayAction::None);
}

#[test]
fn picker_snapshot() {
    let mut picker = SpawnTreesPicker::new();
    picker.set_list(trees());
    picker.handle_key(key(KeyCode::Down));
    let theme = Theme::default();
    let mut terminal = Terminal::new(TestBackend::new(80, 10)).unwrap();
    terminal
        .draw(|frame| {
            let area = frame.area();
            picker.render(area, frame.buffer_mut(), &theme);
        })
        .unwrap();
    insta::assert_snapshot!("spawn_trees_picker", terminal.backend());
}
