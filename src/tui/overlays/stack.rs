//! The one stack of modal overlays (onboarding, the secret prompt, `/rollback`, `/skin`,
//! `/reload-mcp`'s question, `/agents history`, `/sessions`, `/model`) and the [`Overlay`]
//! trait each of them implements. Modelled on helix's compositor (a `Vec` of layers, found
//! by type with a downcast) and codex's bottom-pane view stack (`is_complete`, the app acting
//! on what a view reports).
//!
//! One order everywhere: the topmost overlay (the newest) gets every key first and alone, a
//! paste goes to the topmost overlay that takes pastes (else to the composer), and
//! [`OverlayStack::render`] draws bottom to top, so the one that gets the keys is the one on
//! top of the screen. Opening an overlay puts it on top; one already open of the same type
//! is closed first (one per kind; a second `/model` picker replaces the first, a second
//! secret request replaces the first prompt, as before the stack). So a secret prompt that
//! arrives while the model picker is open is drawn over it and takes the keys until it is
//! answered; then the picker has them again.
//!
//! Overlays are widgets: they never touch the app. A key returns an [`OverlayAction`] and
//! [`on_key`] closes the overlay (on `Close` or when it reports [`Overlay::is_complete`])
//! before it sends the op or hands the app event to `App::on_app_event`. Engine answers for
//! one overlay (a checkpoint list, session matches) are fed by the module that asked, which
//! finds it with [`OverlayStack::find_mut`] and closes it with [`OverlayStack::remove`].
//!
//! Not here: the subagent monitor's log/details view (`overlays::subagent`, inside the
//! monitor pane, keys through `agents_flow`) and the composer's popups; they belong to a
//! pane, not to the screen. Adding an overlay: implement [`Overlay`] in its own file and
//! `app.overlays.push(...)` it where it opens.

use std::any::Any;

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::protocol::Op;
use crate::theme::Theme;
use crate::tui::app::App;
use crate::tui::app::AppEvent;

/// What the app does after an overlay handled a key.
#[derive(Debug)]
pub enum OverlayAction {
    None,
    /// Close this overlay.
    Close,
    /// Send this to the engine (the overlay stays open unless it is complete).
    Send(Op),
    /// Work only the app can do (the theme, the transcript, tasks), applied at once.
    App(AppEvent),
}

/// For tests: `None`, `Close` and `Send` compare as usual; `App` never equals anything
/// (`AppEvent` has no equality), so tests match those with `matches!`.
#[cfg(test)]
impl PartialEq for OverlayAction {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::None, Self::None) | (Self::Close, Self::Close) => true,
            (Self::Send(a), Self::Send(b)) => a == b,
            _ => false,
        }
    }
}

/// Whether an overlay took a paste.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paste {
    Consumed,
    Ignored,
}

/// A modal view drawn over the main screen.
pub trait Overlay: Any {
    /// What it is, for logs and tests (usually its frame's title).
    fn title(&self) -> &str;
    fn handle_key(&mut self, key: KeyEvent) -> OverlayAction;
    /// A paste; `Ignored` passes it to the overlay below (and at the bottom to the composer).
    fn handle_paste(&mut self, _text: &str) -> Paste {
        Paste::Ignored
    }
    /// Draw over `area` (the whole screen).
    fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme);
    /// Done (answered): the stack closes it after the action it returned.
    fn is_complete(&self) -> bool {
        false
    }
}

/// The open overlays, bottom first.
#[derive(Default)]
pub struct OverlayStack {
    layers: Vec<Box<dyn Overlay>>,
}

impl OverlayStack {
    /// Opens `overlay` on top, closing one of the same type first.
    pub fn push<T: Overlay>(&mut self, overlay: T) {
        self.remove::<T>();
        tracing::debug!(overlay = overlay.title(), "overlay opened");
        self.layers.push(Box::new(overlay));
    }

    pub fn is_empty(&self) -> bool {
        self.layers.is_empty()
    }

    /// The titles, bottom first.
    pub fn titles(&self) -> Vec<&str> {
        self.layers.iter().map(|layer| layer.title()).collect()
    }

    pub fn contains<T: Overlay>(&self) -> bool {
        self.find::<T>().is_some()
    }

    /// The open overlay of type `T`.
    pub fn find<T: Overlay>(&self) -> Option<&T> {
        self.layers
            .iter()
            .rev()
            .find_map(|layer| (layer.as_ref() as &dyn Any).downcast_ref::<T>())
    }

    pub fn find_mut<T: Overlay>(&mut self) -> Option<&mut T> {
        self.layers
            .iter_mut()
            .rev()
            .find_map(|layer| (layer.as_mut() as &mut dyn Any).downcast_mut::<T>())
    }

    /// Closes the open overlay of type `T`, wherever it is in the stack.
    pub fn remove<T: Overlay>(&mut self) -> Option<Box<dyn Overlay>> {
        let index = self
            .layers
            .iter()
            .rposition(|layer| (layer.as_ref() as &dyn Any).is::<T>())?;
        Some(self.close_at(index))
    }

    fn close_at(&mut self, index: usize) -> Box<dyn Overlay> {
        let closed = self.layers.remove(index);
        tracing::debug!(overlay = closed.title(), "overlay closed");
        closed
    }

    /// Draws every overlay, bottom first, so the topmost is drawn last.
    pub fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        for layer in &mut self.layers {
            layer.render(area, buf, theme);
        }
    }
}

/// A key: the topmost overlay's alone. `false` when none is open.
pub fn on_key(app: &mut App, key: KeyEvent) -> bool {
    let Some(top) = app.overlays.layers.last_mut() else {
        return false;
    };
    let action = top.handle_key(key);
    let index = app.overlays.layers.len() - 1;
    settle(app, index, action);
    true
}

/// A paste: the topmost overlay that takes it. `false` when none did.
pub fn on_paste(app: &mut App, text: &str) -> bool {
    let taken = app
        .overlays
        .layers
        .iter_mut()
        .rposition(|layer| layer.handle_paste(text) == Paste::Consumed);
    match taken {
        Some(index) => {
            settle(app, index, OverlayAction::None);
            true
        }
        None => false,
    }
}

/// Closes the overlay at `index` if it asked to or is complete, then acts on `action`.
fn settle(app: &mut App, index: usize, action: OverlayAction) {
    let done = matches!(action, OverlayAction::Close)
        || app
            .overlays
            .layers
            .get(index)
            .is_some_and(|o| o.is_complete());
    if done {
        app.overlays.close_at(index);
    }
    match action {
        OverlayAction::None | OverlayAction::Close => {}
        OverlayAction::Send(op) => app.send(op),
        OverlayAction::App(event) => app.on_app_event(event),
    }
}

#[cfg(test)]
#[path = "stack_tests.rs"]
mod tests;
