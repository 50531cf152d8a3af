//! Whole-screen snapshots per skin, WITH colours: each `.snap` holds the text rows and then
//! every style change (ratatui's `Buffer` debug form), so a palette change shows up in review.
//! The scene: a user message, a tool cell, the assistant's reply, a second message being
//! thought about (the status bar shows the skin's spinner), and the side panes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use crossterm::event::KeyCode;

use super::*;
use crate::protocol::Event;
use crate::protocol::TurnStarted;
use crate::theme::skins::LoadOptions;
use crate::tui::test_support::app_with_events;
use crate::tui::test_support::draw_app;
use crate::tui::test_support::next_app_event;
use crate::tui::test_support::press;
use crate::tui::test_support::screen_rows;
use crate::tui::test_support::styled_screen;
use crate::tui::test_support::type_text;

const WIDTH: u16 = 120;
const HEIGHT: u16 = 28;

fn scene(app: &mut App) {
    let engine = crate::tui::engine_link::on_engine_event;
    crate::tui::test_support::list_files_turn(app);
    crate::tui::input::send_message(app, "and what is in src?".into(), Vec::new());
    engine(app, Event::TurnStarted(TurnStarted { turn_id: 2 }));
}

fn skin(name: &str, depth: ColorDepth, background: Option<Background>) -> Arc<Theme> {
    let dir = tempfile::tempdir().unwrap();
    let options = LoadOptions {
        depth,
        background,
        mode: ThemeMode::Auto,
    };
    let (theme, notices) = skins::load(dir.path(), name, &options);
    assert_eq!(notices, Vec::<String>::new(), "{name} loads cleanly");
    assert_eq!(theme.name, name);
    Arc::new(theme)
}

fn screen(app: &mut App) -> String {
    styled_screen(&draw_app(app, WIDTH, HEIGHT))
}

#[tokio::test]
async fn main_screen_in_each_built_in_skin() {
    let mut seen = Vec::new();
    let built_ins = crate::theme::skins::list(std::path::Path::new("/nonexistent/hermes-skins"));
    assert_eq!(built_ins.len(), 9);
    for name in built_ins.iter().map(|s| s.name.as_str()) {
        let (_dir, mut app, _ops, _events) = app_with_events();
        scene(&mut app);
        app.theme = skin(name, ColorDepth::TrueColor, None);
        let shot = screen(&mut app);
        // Every skin looks different from every other.
        assert!(!seen.contains(&shot), "{name} draws like another skin");
        seen.push(shot.clone());
        insta::assert_snapshot!(format!("main_screen_{name}"), shot);
    }
}

#[tokio::test]
async fn skin_content_reaches_the_widgets() {
    let (_dir, mut app, _ops, _events) = app_with_events();
    scene(&mut app);
    app.theme = skin("ares", ColorDepth::TrueColor, None);
    let rows = screen_rows(&draw_app(&mut app, WIDTH, HEIGHT));
    let has = |needle: &str| rows.iter().any(|r| r.contains(needle));
    assert!(has("⚔ Ares"), "response label: {rows:#?}");
    assert!(
        has("⚔ list the files"),
        "user messages start with the prompt symbol"
    );
    assert!(
        has("╎ Cargo.toml"),
        "tool output hangs behind the tool prefix"
    );
    // The second turn: the skin's second thinking face, verb and wings.
    assert!(has("(⛨) marching… 0s"), "status bar: {rows:#?}");
    assert!(has(" ⟪▲ ⠋ ▲⟫ "), "the spinner has the skin's wings");
    let composer = rows.iter().rev().nth(1).unwrap();
    assert!(composer.starts_with("⚔ "), "composer prompt: {composer:?}");
}

#[tokio::test]
async fn the_welcome_screen_uses_the_agent_name_and_welcome_text() {
    let (_dir, mut app, _ops, _events) = app_with_events();
    app.theme = skin("poseidon", ColorDepth::TrueColor, None);
    let rows = screen_rows(&draw_app(&mut app, WIDTH, HEIGHT));
    let text = rows.join("\n");
    assert!(
        text.contains(app.theme.branding.agent_name.as_str()),
        "{text}"
    );
    assert!(
        text.contains("Type your message or /help for commands."),
        "{text}"
    );
    assert!(
        text.contains("Message Poseidon Agent…"),
        "placeholder: {text}"
    );
}

#[tokio::test]
async fn help_uses_the_skins_header() {
    let (_dir, mut app, _ops, _events) = app_with_events();
    app.theme = skin("ares", ColorDepth::TrueColor, None);
    crate::tui::commands::execute(&mut app, "help", "");
    let header = app
        .transcript
        .entries()
        .iter()
        .find_map(|e| match e.cell() {
            crate::tui::transcript::Cell::Info { title, .. } => Some(title.clone()),
            _ => None,
        });
    assert_eq!(header.as_deref(), Some("(⚔) Available Commands"));
}

#[tokio::test]
async fn picker_open_previews_then_esc_restores() {
    let (_dir, mut app, _ops, mut events) = app_with_events();
    scene(&mut app);
    let before = screen(&mut app);
    type_text(&mut app, "/skin");
    press(&mut app, KeyCode::Enter);
    next_app_event(&mut app, &mut events).await;
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    assert_eq!(app.theme.name, "slate");
    insta::assert_snapshot!("picker_previewing_slate", screen(&mut app));
    press(&mut app, KeyCode::Esc);
    let after = screen(&mut app);
    assert_eq!(after, before, "Esc puts back exactly what was on screen");
    insta::assert_snapshot!("picker_esc_restored", after);
}

#[tokio::test]
async fn skin_ares_applied() {
    let (_dir, mut app, _ops, mut events) = app_with_events();
    scene(&mut app);
    type_text(&mut app, "/skin ares");
    press(&mut app, KeyCode::Enter);
    next_app_event(&mut app, &mut events).await;
    assert_eq!(app.theme.name, "ares");
    insta::assert_snapshot!("skin_ares_applied", screen(&mut app));
}

#[tokio::test]
async fn no_color_draws_without_colours() {
    let (_dir, mut app, _ops, _events) = app_with_events();
    scene(&mut app);
    app.theme = skin("default", ColorDepth::None, None);
    let shot = screen(&mut app);
    assert!(!shot.contains("Rgb("), "no colour at all:\n{shot}");
    assert!(!shot.contains("Indexed("), "no colour at all:\n{shot}");
    insta::assert_snapshot!("main_screen_no_color", shot);
}

#[tokio::test]
async fn default_skin_on_a_light_background() {
    let (_dir, mut app, _ops, _events) = app_with_events();
    scene(&mut app);
    app.theme = skin("default", ColorDepth::TrueColor, Some(Background::Light));
    insta::assert_snapshot!("main_screen_default_light", screen(&mut app));
}
