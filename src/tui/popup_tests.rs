use super::*;
use pretty_assertions::assert_eq;

fn selected_name(p: &SlashPopup) -> Option<&'static str> {
    p.selected().map(|m| m.command.name)
}

#[test]
fn no_popup_without_matches() {
    assert_eq!(SlashPopup::new("zzz"), None);
}

#[test]
fn selection_wraps_both_ways() {
    let mut p = SlashPopup::new("st").unwrap();
    assert_eq!(p.matches().len(), 5);
    assert_eq!(selected_name(&p), Some("status"));
    p.select_prev();
    assert_eq!(selected_name(&p), Some("history"));
    p.select_next();
    p.select_next();
    assert_eq!(selected_name(&p), Some("statusbar"));
}

#[test]
fn update_keeps_the_highlighted_command() {
    let mut p = SlashPopup::new("st").unwrap();
    p.select_next();
    assert_eq!(selected_name(&p), Some("statusbar"));
    assert!(p.update("sta"));
    assert_eq!(p.query(), "sta");
    assert_eq!(selected_name(&p), Some("statusbar"));
    assert!(p.update("ste"));
    assert_eq!(selected_name(&p), Some("steer"));
    assert!(!p.update("stx"));
    assert_eq!(p.query(), "ste");
}

#[test]
fn desired_height_caps_and_selection_stays_visible() {
    let mut p = SlashPopup::new("").unwrap();
    assert_eq!(usize::from(p.desired_height()), MAX_ROWS);
    for _ in 0..10 {
        p.select_next();
    }
    let first = p.first_visible(MAX_ROWS);
    assert!(first <= p.selected_index() && p.selected_index() < first + MAX_ROWS);
}

#[test]
fn render_scrolled_shows_selection() {
    let mut p = SlashPopup::new("").unwrap();
    for _ in 0..10 {
        p.select_next();
    }
    let area = Rect::new(0, 0, 60, 3);
    let mut buf = Buffer::empty(area);
    render_popup(&p, area, &mut buf, &Theme::default());
    let selected = format!("/{}", p.selected().unwrap().command.name);
    let last_row: String = (0..60).map(|x| buf[(x, 2)].symbol().to_owned()).collect();
    assert!(
        last_row.contains(&selected),
        "{last_row:?} lacks {selected}"
    );
}
