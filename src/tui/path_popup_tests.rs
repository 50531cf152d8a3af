use super::*;
use crate::theme::Role;
use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn candidates() -> Vec<String> {
    [
        "Cargo.toml",
        "README.md",
        "docs/",
        "docs/guide.md",
        "my file.txt",
        "src/",
        "src/main.rs",
        "src/tui/",
        "src/tui/app.rs",
        "src/tui/composer.rs",
        "tests/",
        "tests/main_test.rs",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect()
}

fn token(line: &str, col: usize) -> Option<(String, String)> {
    at_token(line, col).map(|t| (line[t.start..t.end].to_owned(), t.query))
}

#[test]
fn the_at_word_under_the_cursor() {
    assert_eq!(
        token("see @src/ma", 11),
        Some(("@src/ma".into(), "src/ma".into()))
    );
    // Cursor inside the word: the query stops at the cursor, the word does not.
    assert_eq!(
        token("see @src/main.rs now", 8),
        Some(("@src/main.rs".into(), "src".into()))
    );
    assert_eq!(token("@", 1), Some(("@".into(), String::new())));
    assert_eq!(token("(@do", 4), Some(("@do".into(), "do".into())));
    assert_eq!(token("a@b.co", 6), None);
    assert_eq!(token("see @src now", 12), None);
    assert_eq!(token("@/etc/ho", 8), None);
    assert_eq!(token("@~/x", 4), None);
}

#[test]
fn quoted_at_words_may_hold_spaces() {
    assert_eq!(
        token("@\"my fi", 7),
        Some(("@\"my fi".into(), "my fi".into()))
    );
    assert_eq!(
        token("x @\"my fi\" y", 9),
        Some(("@\"my fi\"".into(), "my fi".into()))
    );
    // After a closed quote the cursor is in a new bare word.
    assert_eq!(token("@\"a b\" @sr", 10), Some(("@sr".into(), "sr".into())));
}

#[test]
fn completion_text_quotes_and_spaces() {
    assert_eq!(completion_text("src/main.rs"), "@src/main.rs ");
    assert_eq!(completion_text("src/"), "@src/");
    assert_eq!(completion_text("my file.txt"), "@\"my file.txt\" ");
    assert_eq!(completion_text("diff"), "@diff ");
}

#[test]
fn ranking_prefers_prefix_then_component_then_substring_then_fuzzy() {
    let c = candidates();
    assert_eq!(
        rank("src/", &c),
        vec![
            "src/main.rs",
            "src/tui/",
            "src/tui/app.rs",
            "src/tui/composer.rs"
        ]
    );
    assert_eq!(rank("ma", &c), vec!["src/main.rs", "tests/main_test.rs"]);
    assert_eq!(rank("app", &c), vec!["src/tui/app.rs"]);
    assert_eq!(
        rank("ose", &c),
        vec!["src/tui/composer.rs", "docs/guide.md"]
    );
    assert_eq!(rank("stc", &c), vec!["src/tui/composer.rs"]);
    assert_eq!(rank("zzz", &c), Vec::<String>::new());
}

#[test]
fn empty_query_lists_shallow_paths_first_and_diff_is_offered() {
    let c = candidates();
    let all = rank("", &c);
    assert_eq!(all.len(), c.len());
    assert_eq!(&all[..3], ["Cargo.toml", "docs/", "my file.txt"]);
    assert_eq!(rank("di", &c)[0], "diff");
    assert!(!rank("diff", &c).contains(&"diff".to_owned()));
}

#[test]
fn case_is_ignored_unless_the_query_has_capitals() {
    let c = candidates();
    assert_eq!(rank("readme", &c), vec!["README.md"]);
    assert_eq!(rank("Read", &c), Vec::<String>::new());
}

#[test]
fn update_keeps_the_highlight_and_refuses_no_matches() {
    let c = candidates();
    let mut p = PathPopup::new("src", &c).unwrap();
    p.select_next();
    let chosen = p.selected().unwrap().to_owned();
    assert!(p.update("src/", &c));
    assert_eq!(p.selected(), Some(chosen.as_str()));
    assert!(!p.update("zzz", &c));
    assert_eq!(p.query(), "src/");
    let mut p = PathPopup::new("src", &c).unwrap();
    p.select_prev();
    assert_eq!(p.selected_index(), p.matches().len() - 1);
    p.select_next();
    assert_eq!(p.selected_index(), 0);
}

#[test]
fn snapshot_path_popup() {
    let c = candidates();
    let mut p = PathPopup::new("s", &c).unwrap();
    p.select_next();
    let mut terminal = Terminal::new(TestBackend::new(48, 6)).unwrap();
    terminal
        .draw(|f| render_path_popup(&p, f.area(), f.buffer_mut(), &Theme::default()))
        .unwrap();
    insta::assert_snapshot!(terminal.backend());
}

#[test]
fn the_selected_row_is_highlighted() {
    let c = candidates();
    let mut p = PathPopup::new("s", &c).unwrap();
    p.select_next();
    let area = Rect::new(0, 0, 40, 4);
    let mut buf = Buffer::empty(area);
    let theme = Theme::default();
    render_path_popup(&p, area, &mut buf, &theme);
    let bg = |role| theme.style(role).bg.unwrap_or_default();
    assert_eq!(buf[(3, 1)].bg, bg(Role::MenuCurrent));
    assert_eq!(buf[(3, 0)].bg, bg(Role::Menu));
    assert_ne!(bg(Role::MenuCurrent), bg(Role::Menu));
}
