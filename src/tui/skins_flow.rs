//! Skins at run time: `/skin` (the live-preview picker), `/skin NAME`, and rendering the
//! skin again for the background start-up detection (`background`) found.
//!
//! Loading a skin reads `HERMES_HOME/skins/` and parses YAML, so it always happens in
//! `spawn_blocking`; the result comes back as an [`AppEvent::Skin`]. The picker loads every
//! skin once when it opens and previews from memory, so moving the selection only swaps an
//! `Arc<Theme>` and asks for a frame. Keeping a skin saves `display.skin` off the UI task
//! too; a failure is a notice. Loading notices (a broken user skin, an unknown key) go to
//! the transcript when that skin is applied or kept.
//!
//! The picker is on the overlay stack; its keys come back as [`SkinEvent::Preview`], `Keep`
//! and `Restore`. This module does not parse skins or know colours (`crate::theme` does) and
//! does not draw the picker or read its keys (`overlays::skin_picker`). Invariant: while the
//! picker is open the app's theme is the previewed entry's, and closing it leaves either the
//! kept entry's theme or exactly the theme it opened with.

use std::sync::Arc;

use super::app::App;
use super::app::AppEvent;
use super::overlays::skin_picker::SkinEntry;
use super::overlays::skin_picker::SkinOrigin;
use super::overlays::skin_picker::SkinPicker;
use crate::config::HermesHome;
use crate::protocol::NoticeLevel;
use crate::theme::Background;
use crate::theme::ColorDepth;
use crate::theme::Theme;
use crate::theme::ThemeMode;
use crate::theme::skins;

/// The config key `/skin` saves.
const SKIN_KEY: &str = "display.skin";

/// The app's skin settings: which skin, and what it was loaded for.
#[derive(Debug)]
pub struct SkinState {
    /// The skin on screen, by the name `/skin` and `display.skin` use.
    pub name: String,
    pub mode: ThemeMode,
    /// What start-up detection found; `None` until it answers (or when it never runs).
    pub background: Option<Background>,
    /// Swallows a late OSC 11 reply that arrives after detection gave up waiting.
    pub late_reply: super::background::LateReplyFilter,
}

impl SkinState {
    /// The state for `theme`, the skin the app starts with (already loaded for
    /// `display.theme_mode`; an unknown `display.skin` has fallen back to `default`).
    pub fn new(theme: &Theme, display: &crate::config::DisplayConfig) -> Self {
        Self {
            name: theme.name.clone(),
            mode: ThemeMode::parse(&display.theme_mode).0,
            background: None,
            late_reply: super::background::LateReplyFilter::default(),
        }
    }

    fn load_options(&self, depth: ColorDepth) -> skins::LoadOptions {
        skins::LoadOptions {
            depth,
            background: self.background,
            mode: self.mode,
        }
    }
}

/// Results of skin work done off the UI task.
#[derive(Debug)]
pub enum SkinEvent {
    /// Every skin, loaded for the picker.
    CatalogReady(Vec<SkinEntry>),
    /// `/skin NAME` loaded the skin and tried to save the name.
    Applied {
        name: String,
        theme: Box<Theme>,
        notices: Vec<String>,
        saved: Result<(), String>,
    },
    /// `/skin NAME` named no skin; `known` lists the names that exist.
    Unknown { name: String, known: Vec<String> },
    /// The picker's choice was saved to `display.skin` (or not).
    Saved {
        name: String,
        saved: Result<(), String>,
    },
    /// The picker moved to a skin: show it.
    Preview(Arc<Theme>),
    /// The picker closed keeping this skin.
    Keep(SkinEntry),
    /// The picker closed without keeping one: back to this theme (what it opened with).
    Restore(Arc<Theme>),
}

/// `/skin [NAME]`.
pub fn command(app: &mut App, args: &str) {
    let home = app.home.clone();
    let options = app.skin.load_options(app.theme.depth);
    let tx = app.app_tx.clone();
    let name = args.trim().to_string();
    if name.is_empty() {
        tokio::task::spawn_blocking(move || {
            let entries = load_catalog(&home, &options);
            let _ = tx.send(AppEvent::Skin(SkinEvent::CatalogReady(entries)));
        });
        return;
    }
    tokio::task::spawn_blocking(move || {
        let _ = tx.send(AppEvent::Skin(apply_by_name(&home, &name, &options)));
    });
}

/// Loads every listed skin (built-ins, then user skins, as `skins::list` orders them).
pub fn load_catalog(home: &HermesHome, options: &skins::LoadOptions) -> Vec<SkinEntry> {
    let dir = home.skins_dir();
    skins::list(&dir)
        .into_iter()
        .map(|info| {
            let (theme, notices) = skins::load(&dir, &info.name, options);
            SkinEntry {
                origin: origin(&info),
                name: info.name,
                description: info.description,
                theme: Arc::new(theme),
                notices,
            }
        })
        .collect()
}

/// `/skin NAME` off the UI task: an unknown name lists the known ones; a known one is loaded
/// and saved as `display.skin`.
pub fn apply_by_name(home: &HermesHome, name: &str, options: &skins::LoadOptions) -> SkinEvent {
    let dir = home.skins_dir();
    let infos = skins::list(&dir);
    let found = infos
        .iter()
        .find(|i| i.name == name)
        .or_else(|| infos.iter().find(|i| i.name.eq_ignore_ascii_case(name)));
    let Some(info) = found else {
        return SkinEvent::Unknown {
            name: name.to_string(),
            known: infos.into_iter().map(|i| i.name).collect(),
        };
    };
    let (theme, notices) = skins::load(&dir, &info.name, options);
    SkinEvent::Applied {
        name: info.name.clone(),
        theme: Box::new(theme),
        notices,
        saved: save(home, &info.name),
    }
}

fn save(home: &HermesHome, name: &str) -> Result<(), String> {
    crate::config::edit::config_set(home, SKIN_KEY, name)
        .map(|_| ())
        .map_err(|err| err.to_string())
}

fn origin(info: &skins::SkinInfo) -> SkinOrigin {
    match info.source {
        skins::SkinSource::BuiltIn => SkinOrigin::BuiltIn,
        skins::SkinSource::User(_) => SkinOrigin::User,
    }
}

pub fn on_event(app: &mut App, event: SkinEvent) {
    match event {
        // A second `/skin` sent before the first picker opened: one picker is enough.
        SkinEvent::CatalogReady(_) if app.overlays.contains::<SkinPicker>() => {}
        SkinEvent::CatalogReady(entries) => {
            let original = Arc::clone(&app.theme);
            app.overlays
                .push(SkinPicker::new(entries, &app.skin.name, original));
        }
        SkinEvent::Applied {
            name,
            theme,
            notices,
            saved,
        } => {
            push_notices(app, &notices);
            app.theme = Arc::from(theme);
            notice(app, &format!("skin: {name}"));
            app.skin.name = name;
            saved_result(app, saved);
        }
        SkinEvent::Unknown { name, known } => notice(
            app,
            &format!("no skin named '{name}' — available: {}", known.join(", ")),
        ),
        SkinEvent::Saved { name, saved } => {
            tracing::debug!(skin = %name, ok = saved.is_ok(), "display.skin saved");
            saved_result(app, saved);
        }
        SkinEvent::Preview(theme) | SkinEvent::Restore(theme) => app.theme = theme,
        SkinEvent::Keep(entry) => keep(app, entry),
    }
    app.request_frame();
}

/// The picker closed keeping `entry`: apply it and save `display.skin` off the UI task.
fn keep(app: &mut App, entry: SkinEntry) {
    app.theme = Arc::clone(&entry.theme);
    push_notices(app, &entry.notices);
    notice(app, &format!("skin: {}", entry.name));
    app.skin.name = entry.name.clone();
    let home = app.home.clone();
    let tx = app.app_tx.clone();
    tokio::task::spawn_blocking(move || {
        let saved = save(&home, &entry.name);
        let _ = tx.send(AppEvent::Skin(SkinEvent::Saved {
            name: entry.name,
            saved,
        }));
    });
}

/// Start-up detection found `background`: remember it (skins loaded later use it), and when
/// the theme was made for the other one, render it again for this one. In memory: the
/// theme keeps the colours its file wrote (`Theme::adapt`), so no disk, no notices again.
pub fn background_detected(app: &mut App, rgb: (u8, u8, u8)) {
    let background = crate::theme::background::from_rgb(rgb.0, rgb.1, rgb.2);
    app.skin.background = Some(background);
    if app.skin.mode != ThemeMode::Auto {
        return;
    }
    if app.theme.background != background {
        let options = app.skin.load_options(app.theme.depth);
        app.theme = Arc::new(app.theme.adapt(&options));
    }
    // Contrast against the terminal's real colour (e.g. #282c34), not pure black or white.
    app.theme = Arc::new(app.theme.with_background_rgb(rgb.0, rgb.1, rgb.2));
    tracing::info!(?background, skin = %app.theme.name, "skin rendered for the terminal background");
    app.request_frame();
}

fn saved_result(app: &mut App, saved: Result<(), String>) {
    if let Err(reason) = saved {
        app.transcript.push_notice(
            NoticeLevel::Warning,
            &format!("could not save {SKIN_KEY}: {reason}"),
        );
    }
}

fn push_notices(app: &mut App, notices: &[String]) {
    for text in notices {
        app.transcript.push_notice(NoticeLevel::Warning, text);
    }
}

fn notice(app: &mut App, text: &str) {
    app.transcript.push_notice(NoticeLevel::Info, text);
}

#[cfg(test)]
#[path = "skins_flow_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "skin_screens_tests.rs"]
mod screen_tests;
