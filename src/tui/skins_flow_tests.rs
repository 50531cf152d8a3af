#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use crossterm::event::KeyCode;
use pretty_assertions::assert_eq;

use super::*;
use crate::tui::test_support::app_with_events;
use crate::tui::test_support::last_notice;
use crate::tui::test_support::next_app_event;
use crate::tui::test_support::press;
use crate::tui::test_support::type_text;

/// `/skin` typed and sent, and the picker it opens once the skins are loaded.
async fn open_picker(app: &mut App, events: &mut tokio::sync::mpsc::UnboundedReceiver<AppEvent>) {
    type_text(app, "/skin");
    press(app, KeyCode::Enter);
    assert!(
        !app.overlays.contains::<SkinPicker>(),
        "opens only once loaded"
    );
    next_app_event(app, events).await;
    assert!(app.overlays.contains::<SkinPicker>());
}

fn saved_skin(home: &HermesHome) -> String {
    crate::config::load(home).config.display.skin
}

fn picker_names(app: &App) -> Vec<String> {
    let picker = app.overlays.find::<SkinPicker>().unwrap();
    picker.entries().iter().map(|e| e.name.clone()).collect()
}

#[tokio::test]
async fn the_picker_lists_the_nine_built_ins_and_starts_on_the_current_skin() {
    let (_dir, mut app, _ops, mut events) = app_with_events();
    open_picker(&mut app, &mut events).await;
    assert_eq!(
        picker_names(&app),
        [
            "default",
            "ares",
            "mono",
            "slate",
            "daylight",
            "warm-lightmode",
            "poseidon",
            "sisyphus",
            "charizard"
        ]
    );
    let picker = app.overlays.find::<SkinPicker>().unwrap();
    assert_eq!(picker.selected(), 0);
    assert!(
        picker
            .entries()
            .iter()
            .all(|e| e.origin == SkinOrigin::BuiltIn && e.notices.is_empty())
    );
}

#[tokio::test]
async fn moving_the_selection_previews_each_skin_and_esc_restores_the_original() {
    let (_dir, mut app, _ops, mut events) = app_with_events();
    let original = Arc::clone(&app.theme);
    open_picker(&mut app, &mut events).await;
    press(&mut app, KeyCode::Down);
    assert_eq!(app.theme.name, "ares");
    assert_eq!(app.theme.branding.agent_name, "Ares Agent");
    press(&mut app, KeyCode::Down);
    assert_eq!(app.theme.name, "mono");
    // The preview is on the real screen: the whole app draws with it.
    let rows = crate::tui::test_support::screen_rows(&crate::tui::test_support::draw_app(
        &mut app, 100, 24,
    ));
    assert!(rows.iter().any(|r| r.contains("▸ mono")), "{rows:#?}");
    press(&mut app, KeyCode::Esc);
    assert!(!app.overlays.contains::<SkinPicker>());
    assert!(
        Arc::ptr_eq(&app.theme, &original),
        "exactly the theme it opened with"
    );
    assert_eq!(app.skin.name, "default");
    assert_eq!(
        last_notice(&app),
        None,
        "Esc says nothing and saves nothing"
    );
}

#[tokio::test]
async fn enter_keeps_the_previewed_skin_and_saves_display_skin() {
    let (dir, mut app, _ops, mut events) = app_with_events();
    let home = HermesHome::from_base(dir.path(), None).unwrap();
    open_picker(&mut app, &mut events).await;
    for _ in 0..5 {
        press(&mut app, KeyCode::Down);
    }
    assert_eq!(app.theme.name, "warm-lightmode");
    press(&mut app, KeyCode::Enter);
    assert!(!app.overlays.contains::<SkinPicker>());
    assert_eq!(app.theme.name, "warm-lightmode");
    assert_eq!(app.skin.name, "warm-lightmode");
    assert_eq!(last_notice(&app).as_deref(), Some("skin: warm-lightmode"));
    // Saved off the UI task; the event says when.
    next_app_event(&mut app, &mut events).await;
    assert_eq!(saved_skin(&home), "warm-lightmode");
    let config = std::fs::read_to_string(home.root().join("config.yaml")).unwrap();
    assert!(config.contains("skin: warm-lightmode"), "{config}");
}

#[tokio::test]
async fn skin_name_switches_at_once_and_saves() {
    let (dir, mut app, _ops, mut events) = app_with_events();
    let home = HermesHome::from_base(dir.path(), None).unwrap();
    type_text(&mut app, "/skin ares");
    press(&mut app, KeyCode::Enter);
    next_app_event(&mut app, &mut events).await;
    assert_eq!(app.theme.name, "ares");
    assert_eq!(app.skin.name, "ares");
    assert!(!app.overlays.contains::<SkinPicker>());
    assert_eq!(last_notice(&app).as_deref(), Some("skin: ares"));
    assert_eq!(saved_skin(&home), "ares");
}

#[tokio::test]
async fn an_unknown_skin_name_lists_the_names_and_changes_nothing() {
    let (dir, mut app, _ops, mut events) = app_with_events();
    let home = HermesHome::from_base(dir.path(), None).unwrap();
    type_text(&mut app, "/skin nope");
    press(&mut app, KeyCode::Enter);
    next_app_event(&mut app, &mut events).await;
    assert_eq!(app.theme.name, "default");
    assert_eq!(
        last_notice(&app).as_deref(),
        Some(
            "no skin named 'nope' — available: default, ares, mono, slate, daylight, \
             warm-lightmode, poseidon, sisyphus, charizard"
        )
    );
    assert!(!home.root().join("config.yaml").exists(), "nothing saved");
}

#[tokio::test]
async fn a_user_skin_is_listed_as_user_and_its_loading_notices_reach_the_transcript() {
    let (dir, mut app, _ops, mut events) = app_with_events();
    let skins = dir.path().join("skins");
    std::fs::create_dir_all(&skins).unwrap();
    std::fs::write(
        skins.join("neon.yaml"),
        "name: neon\ndescription: Hot pink\ncolours:\n  ui_accent: \"#FF1493\"\nbranding:\n  agent_name: Neon\n",
    )
    .unwrap();
    open_picker(&mut app, &mut events).await;
    let picker = app.overlays.find::<SkinPicker>().unwrap();
    let neon = picker.entries().iter().find(|e| e.name == "neon").unwrap();
    assert_eq!(neon.origin, SkinOrigin::User);
    assert_eq!(neon.description, "Hot pink");
    assert!(
        neon.notices.iter().any(|n| n.contains("colours")),
        "{:?}",
        neon.notices
    );
    press(&mut app, crossterm::event::KeyCode::End);
    assert_eq!(app.theme.branding.agent_name, "Neon");
    press(&mut app, KeyCode::Enter);
    let warned = app.transcript.entries().iter().any(|e| {
        matches!(e.cell(), crate::tui::transcript::Cell::Notice { text, .. } if text.contains("colours"))
    });
    assert!(warned, "the unknown key is reported when the skin is kept");
}

#[test]
fn a_light_background_renders_the_skin_again_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, _ops) =
        crate::tui::test_support::test_app(&dir, crate::tui::test_support::WithSession::No);
    let dark = Arc::clone(&app.theme);
    // A dark answer: the theme was made for dark already.
    background_detected(&mut app, (0x10, 0x10, 0x10));
    assert_eq!(app.skin.background, Some(Background::Dark));
    assert_eq!(app.theme.background, Background::Dark);
    assert_eq!(app.theme.name, dark.name);
    background_detected(&mut app, (0xFF, 0xFF, 0xF0));
    assert_eq!(app.skin.background, Some(Background::Light));
    assert_eq!(app.theme.background, Background::Light);
    assert_eq!(app.theme.name, "default");
    assert_ne!(
        app.theme.palette, dark.palette,
        "colours kept legible on white"
    );
}

#[test]
fn a_forced_theme_mode_ignores_the_detected_background() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, _ops) =
        crate::tui::test_support::test_app(&dir, crate::tui::test_support::WithSession::No);
    app.skin.mode = ThemeMode::Dark;
    let before = Arc::clone(&app.theme);
    background_detected(&mut app, (0xFF, 0xFF, 0xFF));
    assert_eq!(app.skin.background, Some(Background::Light));
    assert!(Arc::ptr_eq(&app.theme, &before));
}
