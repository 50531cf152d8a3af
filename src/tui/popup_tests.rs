use super::*;
use pretty_assertions::assert_eq;

fn selected_name(p: &SlashPopup) -> Option<&str> {
    p.selected().map(|m| m.command.name())
}

fn skills() -> Vec<SkillCommand> {
    [
        (
            "git-commit",
            "Write a conventional commit for the staged changes",
        ),
        ("stock-quotes", "Look up share prices"),
    ]
    .into_iter()
    .map(|(name, description)| SkillCommand {
        name: name.to_owned(),
        description: description.to_owned(),
    })
    .collect()
}

fn row(buf: &Buffer, y: u16) -> String {
    (0..buf.area.width)
        .map(|x| buf[(x, y)].symbol().to_owned())
        .collect()
}

#[test]
fn no_popup_without_matches() {
    assert_eq!(SlashPopup::new("zzz", &skills()), None);
}

#[test]
fn selection_wraps_both_ways() {
    let mut p = SlashPopup::new("st", &[]).unwrap();
    assert_eq!(p.matches().len(), 6);
    assert_eq!(selected_name(&p), Some("status"));
    p.select_prev();
    assert_eq!(selected_name(&p), Some("paste"));
    p.select_next();
    p.select_next();
    assert_eq!(selected_name(&p), Some("statusbar"));
}

#[test]
fn update_keeps_the_highlighted_command() {
    let mut p = SlashPopup::new("st", &[]).unwrap();
    p.select_next();
    assert_eq!(selected_name(&p), Some("statusbar"));
    assert!(p.update("sta", &[]));
    assert_eq!(p.query(), "sta");
    assert_eq!(selected_name(&p), Some("statusbar"));
    assert!(p.update("ste", &[]));
    assert_eq!(selected_name(&p), Some("steer"));
    assert!(!p.update("stx", &[]));
    assert_eq!(p.query(), "ste");
}

#[test]
fn desired_height_caps_and_selection_stays_visible() {
    let mut p = SlashPopup::new("", &[]).unwrap();
    assert_eq!(usize::from(p.desired_height()), MAX_ROWS);
    for _ in 0..10 {
        p.select_next();
    }
    assert_eq!(p.selected_index(), 10);
    // Drawn in MAX_ROWS rows, the selected (MenuCurrent) row is on screen.
    let area = Rect::new(0, 0, 60, u16::try_from(MAX_ROWS).unwrap());
    let mut buf = Buffer::empty(area);
    render_popup(&p, area, &mut buf, &Theme::default());
    let current = Theme::default().style(crate::theme::Role::MenuCurrent).bg;
    assert!((0..area.height).any(|y| Some(buf[(1, y)].bg) == current));
}

#[test]
fn render_scrolled_shows_selection() {
    let mut p = SlashPopup::new("", &[]).unwrap();
    for _ in 0..10 {
        p.select_next();
    }
    let area = Rect::new(0, 0, 60, 3);
    let mut buf = Buffer::empty(area);
    render_popup(&p, area, &mut buf, &Theme::default());
    let selected = format!("/{}", p.selected().unwrap().command.name());
    let last_row = row(&buf, 2);
    assert!(
        last_row.contains(&selected),
        "{last_row:?} lacks {selected}"
    );
}

#[test]
fn skills_join_the_matches_after_builtins() {
    let skills = skills();
    let mut p = SlashPopup::new("st", &skills).unwrap();
    let names: Vec<&str> = p.matches().iter().map(|m| m.command.name()).collect();
    assert_eq!(
        names,
        [
            "status",
            "statusbar",
            "steer",
            "stop",
            "stock-quotes",
            "history",
            "paste"
        ]
    );
    for _ in 0..4 {
        p.select_next();
    }
    assert_eq!(selected_name(&p), Some("stock-quotes"));
    // The highlighted skill survives narrowing the query.
    assert!(p.update("sto", &skills));
    assert_eq!(selected_name(&p), Some("stock-quotes"));
    assert!(!p.names_a_command());
    assert!(p.update("stock-quotes", &skills));
    assert!(p.names_a_command());
}

#[test]
fn names_a_command_for_builtin_names_and_aliases() {
    assert!(SlashPopup::new("sb", &[]).unwrap().names_a_command());
    assert!(SlashPopup::new("stop", &[]).unwrap().names_a_command());
    assert!(!SlashPopup::new("sto", &[]).unwrap().names_a_command());
}

#[test]
fn skill_rows_carry_a_tag_and_description() {
    let p = SlashPopup::new("gi", &skills()).unwrap();
    let area = Rect::new(0, 0, 70, 1);
    let mut buf = Buffer::empty(area);
    render_popup(&p, area, &mut buf, &Theme::default());
    let line = row(&buf, 0);
    assert!(line.starts_with(" /git-commit  Write a conventional"));
    assert!(line.ends_with(&format!("  {SKILL_TAG} ")), "{line:?}");

    // Too narrow for the tag: the row still shows the name.
    let area = Rect::new(0, 0, 12, 1);
    let mut buf = Buffer::empty(area);
    render_popup(&p, area, &mut buf, &Theme::default());
    assert!(row(&buf, 0).contains("/git"));
}

fn draw(p: &SlashPopup, width: u16) -> ratatui::Terminal<ratatui::backend::TestBackend> {
    let height = p.desired_height();
    let backend = ratatui::backend::TestBackend::new(width, height);
    let mut terminal = ratatui::Terminal::new(backend).unwrap();
    terminal
        .draw(|f| render_popup(p, f.area(), f.buffer_mut(), &Theme::default()))
        .unwrap();
    terminal
}

#[test]
fn snapshot_popup_typing_gi() {
    let p = SlashPopup::new("gi", &skills()).unwrap();
    insta::assert_snapshot!("popup_skill_match_gi", draw(&p, 72).backend());
}

#[test]
fn snapshot_popup_skill_among_builtins() {
    let mut p = SlashPopup::new("st", &skills()).unwrap();
    for _ in 0..4 {
        p.select_next();
    }
    insta::assert_snapshot!("popup_skill_among_builtins_st", draw(&p, 72).backend());
}
