use crossterm::event::KeyModifiers;
use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;
use crate::theme::Role;
use crate::theme::Theme;

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

pub(crate) fn checkpoints() -> Vec<CheckpointInfo> {
    vec![
        CheckpointInfo {
            id: "cp3".into(),
            created: "2026-05-02 09:41".into(),
            label: "before turn 3: patch src/main.rs".into(),
            changed_files: vec!["src/main.rs".into()],
        },
        CheckpointInfo {
            id: "cp2".into(),
            created: "2026-05-02 09:37".into(),
            label: "before turn 2: write_file src/config.rs".into(),
            changed_files: vec![
                "src/config.rs".into(),
                "src/lib.rs".into(),
                "Cargo.toml".into(),
            ],
        },
        CheckpointInfo {
            id: "cp1".into(),
            created: "2026-05-02 09:30".into(),
            label: "before turn 1: terminal cargo fmt".into(),
            changed_files: Vec::new(),
        },
    ]
}

pub(crate) const DIFF: &str = "diff --git a/src/config.rs b/src/config.rs
index 3b18e51..a1f0c2d 100644
--- a/src/config.rs
+++ b/src/config.rs
@@ -1,6 +1,7 @@
 use std::path::Path;
+use std::path::PathBuf;
 
 pub struct Config {
-    pub name: String,
+    pub name: Option<String>,
+    pub home: PathBuf,
 }
\\ No newline at end of file
";

fn draw(overlay: &mut RollbackOverlay, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|f| overlay.render(f.area(), f.buffer_mut(), &Theme::default()))
        .unwrap();
    terminal
}

#[test]
fn snapshot_list_and_diff() {
    let mut overlay = RollbackOverlay::new(None);
    let loading = format!("{}", draw(&mut overlay, 90, 14).backend());
    assert!(loading.contains("loading checkpoints…"), "{loading}");
    assert_eq!(overlay.set_list(checkpoints()), ListOutcome::Listed);
    assert_eq!(overlay.handle_key(key(KeyCode::Down)), OverlayAction::None);
    insta::assert_snapshot!("rollback_list", draw(&mut overlay, 90, 14).backend());
    assert_eq!(
        overlay.handle_key(key(KeyCode::Enter)),
        OverlayAction::Send(Op::CheckpointDiff { id: "cp2".into() })
    );
    let waiting = format!("{}", draw(&mut overlay, 90, 20).backend());
    assert!(waiting.contains("loading diff…"), "{waiting}");
    assert_eq!(
        overlay.handle_key(key(KeyCode::Enter)),
        OverlayAction::None,
        "no restore before the diff is shown"
    );
    overlay.set_diff("cp2", DIFF.to_string());
    insta::assert_snapshot!("rollback_diff", draw(&mut overlay, 90, 20).backend());
}

#[test]
fn diff_lines_take_diff_roles() {
    assert_eq!(diff_role("diff --git a/x b/x"), Role::Heading);
    assert_eq!(diff_role("--- a/x"), Role::Label);
    assert_eq!(diff_role("+++ b/x"), Role::Label);
    assert_eq!(diff_role("@@ -1 +1 @@"), Role::Accent);
    assert_eq!(diff_role("+added"), Role::Ok);
    assert_eq!(diff_role("-removed"), Role::Error);
    assert_eq!(diff_role(" context"), Role::Text);
    assert_eq!(diff_role("\\ No newline at end of file"), Role::Dim);
}

#[test]
fn the_diff_scrolls_within_its_lines_and_esc_goes_back() {
    let mut overlay = RollbackOverlay::new(Some(Pick::Number(1)));
    assert_eq!(
        overlay.set_list(checkpoints()),
        ListOutcome::Jump { id: "cp3".into() }
    );
    let long: String = (0..100).map(|i| format!("+line {i}\n")).collect();
    overlay.set_diff("cp3", long);
    let _ = draw(&mut overlay, 80, 20);
    // 14 rows of 100: PageDown stops at the last page, however often it is pressed.
    for _ in 0..9 {
        overlay.handle_key(key(KeyCode::PageDown));
    }
    let screen = format!("{}", draw(&mut overlay, 80, 20).backend());
    assert!(screen.contains("+line 99"), "{screen}");
    assert!(screen.contains("87–100 of 100"), "{screen}");
    overlay.handle_key(key(KeyCode::Up));
    let screen = format!("{}", draw(&mut overlay, 80, 20).backend());
    assert!(
        screen.contains("86–99 of 100"),
        "one line up from the end: {screen}"
    );
    overlay.handle_key(key(KeyCode::Home));
    let screen = format!("{}", draw(&mut overlay, 80, 20).backend());
    assert!(screen.contains("1–14 of 100"), "{screen}");
    assert_eq!(overlay.handle_key(key(KeyCode::Esc)), OverlayAction::None);
    let list = format!("{}", draw(&mut overlay, 80, 20).backend());
    assert!(list.contains("file checkpoints"), "{list}");
    assert_eq!(overlay.handle_key(key(KeyCode::Esc)), OverlayAction::Close);
}

#[test]
fn stale_answers_are_ignored() {
    let mut overlay = RollbackOverlay::new(Some(Pick::Number(2)));
    assert_eq!(
        overlay.set_list(checkpoints()),
        ListOutcome::Jump { id: "cp2".into() }
    );
    assert_eq!(overlay.set_list(checkpoints()), ListOutcome::Ignored);
    overlay.set_diff("cp3", "+not this one\n".into());
    assert_eq!(
        overlay.handle_key(key(KeyCode::Char('y'))),
        OverlayAction::None
    );
    overlay.set_diff("cp2", DIFF.into());
    assert!(!overlay.is_complete());
    assert!(matches!(
        overlay.handle_key(key(KeyCode::Char('y'))),
        OverlayAction::App(AppEvent::RestoreCheckpoint { id, index: 1, created })
            if id == "cp2" && created == "2026-05-02 09:37"
    ));
    assert!(
        overlay.is_complete(),
        "a confirmed restore closes the overlay"
    );
}

#[test]
fn out_of_range_and_empty_lists() {
    let mut overlay = RollbackOverlay::new(Some(Pick::Number(7)));
    assert_eq!(
        overlay.set_list(checkpoints()),
        ListOutcome::NotFound {
            wanted: "7".into(),
            available: 3
        }
    );
    assert_eq!(
        overlay.handle_key(key(KeyCode::Enter)),
        OverlayAction::Send(Op::CheckpointDiff { id: "cp3".into() })
    );
    let mut overlay = RollbackOverlay::new(None);
    assert_eq!(overlay.set_list(Vec::new()), ListOutcome::Empty);
}

#[test]
fn a_pick_is_a_list_number_or_a_unique_id_prefix() {
    let hex = |ids: [&str; 3]| -> Vec<CheckpointInfo> {
        checkpoints()
            .into_iter()
            .zip(ids)
            .map(|(c, id)| CheckpointInfo { id: id.into(), ..c })
            .collect()
    };
    let list = hex(["4fbc3c9c8f", "0a91b22e3d", "4fbd000000"]);
    assert_eq!(Pick::parse("2"), Some(Pick::Number(2)));
    assert_eq!(Pick::parse("0A91"), Some(Pick::IdPrefix("0a91".into())));
    assert_eq!(Pick::parse("0"), None);
    assert_eq!(Pick::parse("abc"), None, "too short for a prefix");
    assert_eq!(Pick::parse("last"), None);
    let jump = |pick: Pick| {
        let mut overlay = RollbackOverlay::new(Some(pick));
        overlay.set_list(list.clone())
    };
    assert_eq!(
        jump(Pick::IdPrefix("0a91".into())),
        ListOutcome::Jump {
            id: "0a91b22e3d".into()
        }
    );
    assert_eq!(
        jump(Pick::IdPrefix("4fb".into())),
        ListOutcome::NotFound {
            wanted: "4fb".into(),
            available: 3
        },
        "ambiguous or short prefixes name nothing"
    );
    assert_eq!(
        jump(Pick::Number(3)),
        ListOutcome::Jump {
            id: "4fbd000000".into()
        },
        "in range: a list number"
    );
    let digits = hex(["1234abcd", "5678", "9999"]);
    let mut overlay = RollbackOverlay::new(Some(Pick::Number(1234)));
    assert_eq!(
        overlay.set_list(digits),
        ListOutcome::Jump {
            id: "1234abcd".into()
        },
        "out of range: an id prefix"
    );
}
