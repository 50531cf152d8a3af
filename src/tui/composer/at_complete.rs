//! `@` path completion: while the word under the cursor starts with `@`, a `PathPopup` lists
//! matching paths; Tab (or Enter, unless the word already names a path) puts the highlighted
//! one in its place.
//!
//! The listing is the app's to build, off the UI task: when `wants_path_candidates` turns true
//! the app calls `note_path_candidates_requested`, runs `references::list_paths` in
//! `spawn_blocking`, and hands the result to `set_path_candidates`. One listing is asked for per
//! `@` word, so files the agent just wrote show up the next time; until it arrives the previous
//! listing (or none) is used.
//!
//! Invariants: `popup` is `Some` only while an `@` word is under the cursor, the slash popup is
//! closed, the word overlaps no paste label, and it was not dismissed with Esc.

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyModifiers;
use ratatui_textarea::CursorMove;

use super::Composer;
use super::ComposerAction;
use crate::tui::path_popup;
use crate::tui::path_popup::AtToken;
use crate::tui::path_popup::PathPopup;

#[derive(Debug, Default)]
pub(super) struct AtState {
    candidates: Vec<String>,
    /// A listing arrived since the current `@` word started.
    fresh: bool,
    /// The app is building a listing.
    requested: bool,
    /// An `@` word is under the cursor.
    active: bool,
    popup: Option<PathPopup>,
    /// (row, word start, query) when Esc closed the popup; it stays closed until that changes.
    dismissed: Option<(usize, usize, String)>,
}

impl Composer {
    /// The open `@` path popup, for the app to place and draw with
    /// `path_popup::render_path_popup` (where it draws the slash popup; at most one is open).
    pub fn path_popup(&self) -> Option<&PathPopup> {
        self.at.popup.as_ref()
    }

    /// True when an `@` word is being typed and no listing was handed over for it yet (and
    /// none is being built): the app should build one and call `set_path_candidates`.
    pub fn wants_path_candidates(&self) -> bool {
        self.at.active && !self.at.fresh && !self.at.requested
    }

    /// The app started building a listing; `wants_path_candidates` is false until it arrives.
    pub fn note_path_candidates_requested(&mut self) {
        self.at.requested = true;
    }

    /// The listing to complete from: paths relative to the working directory, `/`-separated,
    /// folders ending in `/` (what `references::list_paths` returns). Refreshes the popup.
    pub fn set_path_candidates(&mut self, paths: Vec<String>) {
        self.at.candidates = paths;
        self.at.fresh = self.at.active;
        self.at.requested = false;
        self.refresh_path_popup();
    }

    /// The `@` word under the cursor and its row, when completion applies.
    fn at_word(&self) -> Option<(usize, AtToken)> {
        if self.popup.is_some() {
            return None;
        }
        let (row, col) = self.cursor();
        let line = self.line(row);
        let token = path_popup::at_token(line, col)?;
        let start = line[..token.start].chars().count();
        let end = start + line[token.start..token.end].chars().count();
        let on_label = self
            .pastes
            .spans_in(line)
            .into_iter()
            .any(|(a, b)| start < b && a < end);
        (!on_label).then_some((row, token))
    }

    /// Opens, updates or closes the path popup to match the word under the cursor.
    pub(super) fn refresh_path_popup(&mut self) {
        let Some((row, token)) = self.at_word() else {
            self.at.active = false;
            self.at.popup = None;
            self.at.dismissed = None;
            return;
        };
        if !self.at.active {
            self.at.active = true;
            self.at.fresh = false;
        }
        let key = (row, token.start, token.query.clone());
        if self.at.dismissed.as_ref() == Some(&key) {
            return;
        }
        self.at.dismissed = None;
        let at = &mut self.at;
        let kept = at
            .popup
            .as_mut()
            .is_some_and(|popup| popup.update(&token.query, &at.candidates));
        if !kept {
            at.popup = PathPopup::new(&token.query, &at.candidates);
        }
    }

    /// Keys the open path popup takes: Tab accepts, Enter accepts unless the word already
    /// names a path (then it sends as usual), ↑/↓/BackTab move, Esc closes. `None`: not taken.
    pub(super) fn path_popup_key(&mut self, key: KeyEvent) -> Option<ComposerAction> {
        let popup = self.at.popup.as_mut()?;
        let plain = !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
        match key.code {
            KeyCode::Tab if plain => Some(self.accept_path()),
            KeyCode::Enter if plain => {
                let query = popup.query();
                let named = query == path_popup::DIFF
                    || self.at.candidates.iter().any(|c| c.as_str() == query);
                (!named).then(|| self.accept_path())
            }
            KeyCode::Down if plain => {
                popup.select_next();
                Some(ComposerAction::Changed)
            }
            KeyCode::Up | KeyCode::BackTab if plain || key.code == KeyCode::BackTab => {
                popup.select_prev();
                Some(ComposerAction::Changed)
            }
            KeyCode::Esc => {
                self.dismiss_path_popup();
                Some(ComposerAction::Changed)
            }
            _ => None,
        }
    }

    /// Closes the path popup until the `@` word changes (Esc, or a draft recalled from history
    /// so ↑/↓ keep walking it).
    pub(super) fn dismiss_path_popup(&mut self) {
        if self.at.popup.take().is_some() {
            self.at.dismissed = self
                .at_word()
                .map(|(row, token)| (row, token.start, token.query));
        }
    }

    /// Replaces the `@` word with the highlighted path.
    fn accept_path(&mut self) -> ComposerAction {
        let choice = self.at.popup.as_ref().and_then(PathPopup::selected);
        let (Some(choice), Some((row, token))) = (choice.map(str::to_owned), self.at_word()) else {
            return ComposerAction::None;
        };
        let line = self.line(row);
        let start = line[..token.start].chars().count();
        let len = line[token.start..token.end].chars().count();
        let (Ok(row), Ok(start)) = (u16::try_from(row), u16::try_from(start)) else {
            return ComposerAction::None;
        };
        self.textarea.move_cursor(CursorMove::Jump(row, start));
        self.textarea.delete_str(len);
        self.textarea
            .insert_str(path_popup::completion_text(&choice));
        self.at.popup = None;
        self.after_edit();
        ComposerAction::Changed
    }
}

#[cfg(test)]
#[path = "at_complete_tests.rs"]
mod tests;
