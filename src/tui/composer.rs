//! The composer: the multi-line input at the bottom of the screen. It turns keys and pastes into
//! edits of a `ratatui_textarea::TextArea` and into `ComposerAction`s for the app (send, queue,
//! open `$EDITOR`, interrupt, exit). It owns the input history (↑/↓), the slash-command popup,
//! the `@` path popup (`at_complete`) and the large-paste placeholders.
//!
//! It does not send anything, run commands or know whether the agent is busy, beyond the
//! `ComposerView` hint it is rendered with. `ComposerAction::None` means "key not used": the app
//! may give it its own meaning (Esc, Tab for focus, Ctrl+B, PageUp…).
//!
//! Queued messages: the composer does not know about them. The app checks ↑ on an empty draft
//! with a non-empty queue *before* routing the key here, and moves
//! `QueuedMessages::take_last` back in with `set_text`; otherwise ↑ recalls history.
//!
//! History: the composer recalls from it but does not record submissions itself; the app calls
//! `remember` with the form it wants recalled (e.g. the canonical `/name args`).
//!
//! Invariants: the textarea never holds a large paste, only its label (see `paste`); the cursor
//! is never left inside a label; `popup` is `Some` only while the draft is one line `/partial`
//! without whitespace that has matches and was not dismissed with Esc.

mod action;
mod at_complete;
mod paste;
mod render;

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyEventKind;
use crossterm::event::KeyModifiers;
use ratatui_textarea::CursorMove;
use ratatui_textarea::TextArea;
use ratatui_textarea::WrapMode;

pub use action::BusyHint;
pub use action::ComposerAction;
pub use action::ComposerFocus;
pub use action::ComposerView;
pub use action::Submission;
pub use paste::LARGE_PASTE_CHARS;
pub use render::busy_hint_text;

use crate::tui::history::InputHistory;
use crate::tui::popup::SlashPopup;
use crate::tui::slash;
use at_complete::AtState;
use paste::PendingPastes;

/// Placeholder shown in the empty composer.
pub const PLACEHOLDER: &str = "Message Hermes… (/ for commands, ! for shell)";
/// Longest entry kept in input history; bigger submissions (large pastes) are not recorded.
const MAX_HISTORY_ENTRY_BYTES: usize = 16 * 1024;

/// Which way the cursor moved, to push it out of a label on the side it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Snap {
    ToStart,
    ToEnd,
}

pub struct Composer {
    textarea: TextArea<'static>,
    history: InputHistory,
    pastes: PendingPastes,
    popup: Option<SlashPopup>,
    /// The draft line when Esc closed the popup; it stays closed until the line changes.
    popup_dismissed: Option<String>,
    /// The text history navigation last put in; editing away from it ends navigation.
    recalled: Option<String>,
    /// Skills the engine announced, offered by the popup after the built-ins.
    skills: Vec<slash::SkillCommand>,
    /// `@` path completion (see `at_complete`).
    at: AtState,
    /// Drawn instead of the `❯` prompt (the voice level meter while recording).
    prompt_override: Option<String>,
    /// The skin's prompt symbol and agent name (see `render::ComposerSkin`).
    skin: render::ComposerSkin,
    /// Rows kept between the rule and the input for the app (the attachment row).
    header_rows: u16,
}

fn new_textarea(lines: Vec<String>) -> TextArea<'static> {
    let mut textarea = TextArea::new(lines);
    textarea.set_placeholder_text(PLACEHOLDER);
    textarea.set_wrap_mode(WrapMode::WordOrGlyph);
    textarea.move_cursor(CursorMove::Bottom);
    textarea.move_cursor(CursorMove::End);
    textarea
}

impl Composer {
    pub fn new(history: InputHistory) -> Self {
        Self {
            textarea: new_textarea(Vec::new()),
            history,
            pastes: PendingPastes::default(),
            popup: None,
            popup_dismissed: None,
            recalled: None,
            skills: Vec::new(),
            at: AtState::default(),
            prompt_override: None,
            skin: render::ComposerSkin::default(),
            header_rows: 0,
        }
    }

    /// Show `prompt` instead of `❯` (the voice meter), or the usual prompt with `None`.
    pub fn set_prompt_override(&mut self, prompt: Option<String>) {
        self.prompt_override = prompt;
    }

    /// Replaces the skills offered alongside the built-in commands (from the engine's
    /// `SessionInfo`); cleaned up by `slash::skill_commands`, so none shadows a built-in.
    pub fn set_dynamic_commands(&mut self, commands: Vec<slash::SkillCommand>) {
        self.skills = slash::skill_commands(commands);
        self.popup = None;
        self.refresh_popup();
    }

    /// The skills offered by the popup, sorted by name (for `/help`).
    pub fn dynamic_commands(&self) -> &[slash::SkillCommand] {
        &self.skills
    }

    pub fn history(&self) -> &InputHistory {
        &self.history
    }

    pub fn history_mut(&mut self) -> &mut InputHistory {
        &mut self.history
    }

    /// The open completion popup, for the app to place and draw with `popup::render_popup`.
    pub fn popup(&self) -> Option<&SlashPopup> {
        self.popup.as_ref()
    }

    /// True when nothing is typed (whitespace counts as typed).
    pub fn is_empty(&self) -> bool {
        self.textarea.is_empty()
    }

    /// The draft as displayed, with placeholder labels (not expanded).
    pub fn display_text(&self) -> String {
        self.textarea.lines().join("\n")
    }

    /// The draft with large pastes expanded.
    pub fn text(&self) -> String {
        self.pastes.expand(&self.display_text())
    }

    pub fn clear(&mut self) {
        self.set_text("");
    }

    /// Replaces the draft (cursor at the end), dropping pastes and ending history navigation.
    pub fn set_text(&mut self, text: &str) {
        self.pastes.clear();
        self.history.reset_navigation();
        self.recalled = None;
        self.replace_text(text);
    }

    /// A bracketed paste. Newlines are normalised; a paste over `LARGE_PASTE_CHARS` characters
    /// becomes one atomic `[Pasted N lines]` label.
    pub fn handle_paste(&mut self, text: String) {
        if paste::is_large(&text) {
            let label = self.pastes.add(text);
            self.textarea.insert_str(label);
        } else {
            self.textarea.insert_str(paste::normalise_newlines(&text));
        }
        self.after_edit();
    }

    pub fn handle_key(&mut self, key: KeyEvent) -> ComposerAction {
        if key.kind == KeyEventKind::Release {
            return ComposerAction::None;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        let shift = key.modifiers.contains(KeyModifiers::SHIFT);
        if let Some(action) = self.path_popup_key(key) {
            return action;
        }
        match key.code {
            KeyCode::Enter if shift || alt => self.edit(TextArea::insert_newline),
            KeyCode::Char('j') if ctrl => self.edit(TextArea::insert_newline),
            KeyCode::Enter => self.on_enter(),
            KeyCode::Tab if !ctrl && !alt && !shift => self.on_tab(),
            KeyCode::BackTab => self.popup_step(SlashPopup::select_prev),
            KeyCode::Esc => self.on_esc(),
            KeyCode::Up if !ctrl && !alt => self.on_up(),
            KeyCode::Down if !ctrl && !alt => self.on_down(),
            KeyCode::Char('d') if ctrl && self.is_empty() => ComposerAction::Exit,
            KeyCode::Char('c') if ctrl => self.on_ctrl_c(),
            KeyCode::Char('g') if ctrl => ComposerAction::OpenEditor,
            KeyCode::Char('u') if ctrl => self.edit(TextArea::delete_line_by_head),
            KeyCode::Char('k') if ctrl => self.edit(TextArea::delete_line_by_end),
            KeyCode::Char('z') if ctrl => self.edit(TextArea::undo),
            KeyCode::Char('y') if ctrl => self.edit(TextArea::redo),
            KeyCode::Char('w') if ctrl => self.delete_back(TextArea::delete_word),
            KeyCode::Char('h') if ctrl => self.delete_back(TextArea::delete_char),
            KeyCode::Backspace if alt || ctrl => self.delete_back(TextArea::delete_word),
            KeyCode::Backspace => self.delete_back(TextArea::delete_char),
            KeyCode::Char('d') if ctrl => self.delete_forward(TextArea::delete_next_char),
            KeyCode::Char('d') if alt => self.delete_forward(TextArea::delete_next_word),
            KeyCode::Delete if alt || ctrl => self.delete_forward(TextArea::delete_next_word),
            KeyCode::Delete => self.delete_forward(TextArea::delete_next_char),
            KeyCode::Char('a') if ctrl => self.move_to(CursorMove::Head, Snap::ToStart),
            KeyCode::Char('e') if ctrl => self.move_to(CursorMove::End, Snap::ToEnd),
            KeyCode::Char('b') if alt => self.move_to(CursorMove::WordBack, Snap::ToStart),
            KeyCode::Char('f') if alt => self.move_to(CursorMove::WordForward, Snap::ToEnd),
            KeyCode::Home => self.move_to(CursorMove::Head, Snap::ToStart),
            KeyCode::End => self.move_to(CursorMove::End, Snap::ToEnd),
            KeyCode::Left if ctrl || alt => self.move_to(CursorMove::WordBack, Snap::ToStart),
            KeyCode::Right if ctrl || alt => self.move_to(CursorMove::WordForward, Snap::ToEnd),
            KeyCode::Left => self.move_to(CursorMove::Back, Snap::ToStart),
            KeyCode::Right => self.move_to(CursorMove::Forward, Snap::ToEnd),
            KeyCode::Char(c) if !ctrl && !alt => {
                self.textarea.insert_char(c);
                self.after_edit();
                ComposerAction::Changed
            }
            _ => ComposerAction::None,
        }
    }

    fn on_enter(&mut self) -> ComposerAction {
        if let Some(command) = self.incomplete_popup_choice() {
            // A bare `/` chose nothing yet: complete it, but never run e.g. /clear unasked.
            let typed_something = self.popup.as_ref().is_some_and(|p| !p.query().is_empty());
            self.accept(command.name());
            if command.takes_args() || !typed_something {
                return ComposerAction::Changed;
            }
            return self.submit();
        }
        if self.at_continuation_backslash() {
            // `\` + Enter continues on a new line, as in Hermes.
            self.textarea.delete_char();
            return self.edit(TextArea::insert_newline);
        }
        self.submit()
    }

    /// The highlighted command, when the popup is open and the typed name is not already a
    /// command or alias (then Enter sends what was typed).
    fn incomplete_popup_choice(&self) -> Option<slash::Candidate> {
        let popup = self.popup.as_ref()?;
        if popup.names_a_command() {
            return None;
        }
        popup.selected().map(|m| m.command.clone())
    }

    fn at_continuation_backslash(&self) -> bool {
        let (row, col) = self.cursor();
        let line = self.line(row);
        col == line.chars().count() && line.ends_with('\\')
    }

    fn submit(&mut self) -> ComposerAction {
        let text = self.text();
        if text.trim().is_empty() {
            return ComposerAction::None;
        }
        let submission = Submission::from_text(&text);
        self.clear();
        ComposerAction::Submit(submission)
    }

    /// Records a sent entry in input history (skipped when over 16 KiB: a large paste).
    pub fn remember(&mut self, entry: &str) {
        if entry.len() <= MAX_HISTORY_ENTRY_BYTES {
            self.history.push(entry);
        }
    }

    /// Saves input history synchronously (small and bounded); see `InputHistory::snapshot` for
    /// saving off the UI task.
    pub fn save_history(&self) -> std::io::Result<()> {
        self.history.save()
    }

    fn on_tab(&mut self) -> ComposerAction {
        if let Some(command) = self.popup.as_ref().and_then(|p| p.selected()) {
            let name = command.command.name().to_owned();
            self.accept(&name);
            return ComposerAction::Changed;
        }
        if self.text().trim().is_empty() {
            return ComposerAction::None;
        }
        ComposerAction::QueueCurrent
    }

    /// Replaces the draft with `/name ` (the space closes the popup, ready for arguments).
    fn accept(&mut self, name: &str) {
        self.set_text(&format!("/{name} "));
    }

    fn popup_step(&mut self, step: fn(&mut SlashPopup)) -> ComposerAction {
        match self.popup.as_mut() {
            Some(popup) => {
                step(popup);
                ComposerAction::Changed
            }
            None => ComposerAction::None,
        }
    }

    fn on_esc(&mut self) -> ComposerAction {
        if self.popup.take().is_none() {
            return ComposerAction::None;
        }
        self.popup_dismissed = Some(self.line(0).to_owned());
        ComposerAction::Changed
    }

    fn on_ctrl_c(&mut self) -> ComposerAction {
        if self.is_empty() {
            return ComposerAction::Interrupt;
        }
        // Keep the cleared draft recoverable with ↑.
        let text = self.text();
        self.remember(&text);
        self.clear();
        ComposerAction::Changed
    }

    fn on_up(&mut self) -> ComposerAction {
        if self.popup.is_some() {
            return self.popup_step(SlashPopup::select_prev);
        }
        if self.recalled.is_some() || self.cursor().0 == 0 {
            let draft = self.display_text();
            if let Some(entry) = self.history.older(&draft).map(str::to_owned) {
                self.show_recalled(&entry);
                return ComposerAction::Changed;
            }
            if self.cursor().0 == 0 {
                return ComposerAction::None;
            }
        }
        self.move_to(CursorMove::Up, Snap::ToEnd)
    }

    fn on_down(&mut self) -> ComposerAction {
        if self.popup.is_some() {
            return self.popup_step(SlashPopup::select_next);
        }
        let on_last = self.cursor().0 + 1 >= self.textarea.lines().len();
        if self.recalled.is_some()
            && let Some(entry) = self.history.newer().map(str::to_owned)
        {
            if self.history.is_navigating() {
                self.show_recalled(&entry);
            } else {
                // Back at the draft: navigation is over.
                self.recalled = None;
                self.replace_text(&entry);
            }
            return ComposerAction::Changed;
        }
        if on_last {
            return ComposerAction::None;
        }
        self.move_to(CursorMove::Down, Snap::ToEnd)
    }

    fn show_recalled(&mut self, entry: &str) {
        self.recalled = Some(entry.to_owned());
        self.replace_text(entry);
        // A recalled `/cmd` or `@word` must not open a popup, or ↑/↓ would stop walking history.
        if self.popup.take().is_some() {
            self.popup_dismissed = Some(self.line(0).to_owned());
        }
        self.dismiss_path_popup();
    }

    /// Swaps the textarea contents without touching history navigation or pastes.
    fn replace_text(&mut self, text: &str) {
        let text = paste::normalise_newlines(text);
        self.textarea = new_textarea(text.split('\n').map(str::to_owned).collect());
        self.popup = None;
        self.popup_dismissed = None;
        self.refresh_popup();
        self.refresh_path_popup();
    }

    /// Runs a textarea edit, then the bookkeeping every edit needs.
    fn edit<R>(&mut self, op: impl FnOnce(&mut TextArea<'static>) -> R) -> ComposerAction {
        op(&mut self.textarea);
        self.after_edit();
        ComposerAction::Changed
    }

    /// A backward delete; next to a label it deletes the whole label instead.
    fn delete_back(&mut self, op: fn(&mut TextArea<'static>) -> bool) -> ComposerAction {
        let (row, col) = self.cursor();
        match self.pastes.label_ending_at(self.line(row), col) {
            Some(len) => self.edit(|t| {
                for _ in 0..len {
                    t.move_cursor(CursorMove::Back);
                }
                t.delete_str(len);
            }),
            None => self.edit(op),
        }
    }

    /// A forward delete; next to a label it deletes the whole label instead.
    fn delete_forward(&mut self, op: fn(&mut TextArea<'static>) -> bool) -> ComposerAction {
        let (row, col) = self.cursor();
        match self.pastes.label_starting_at(self.line(row), col) {
            Some(len) => self.edit(|t| {
                t.delete_str(len);
            }),
            None => self.edit(op),
        }
    }

    fn move_to(&mut self, movement: CursorMove, snap: Snap) -> ComposerAction {
        self.textarea.move_cursor(movement);
        self.snap_out_of_label(snap);
        self.refresh_path_popup();
        ComposerAction::Changed
    }

    /// Labels are atomic: a cursor that lands inside one moves to its edge.
    fn snap_out_of_label(&mut self, snap: Snap) {
        let (row, col) = self.cursor();
        let Some((start, end)) = self.pastes.label_around(self.line(row), col) else {
            return;
        };
        let (target, step) = match snap {
            Snap::ToStart => (start, CursorMove::Back),
            Snap::ToEnd => (end, CursorMove::Forward),
        };
        for _ in 0..col.abs_diff(target) {
            self.textarea.move_cursor(step);
        }
    }

    fn after_edit(&mut self) {
        if self.recalled.is_some() && self.recalled.as_deref() != Some(&self.display_text()) {
            // An edited recall is the user's draft now.
            self.recalled = None;
            self.history.reset_navigation();
        }
        self.snap_out_of_label(Snap::ToEnd);
        self.refresh_popup();
        self.refresh_path_popup();
    }

    /// Opens, updates or closes the popup to match the draft.
    fn refresh_popup(&mut self) {
        let lines = self.textarea.lines();
        let query = match lines {
            [line] if line.starts_with('/') && !line.contains(char::is_whitespace) => line.clone(),
            _ => {
                self.popup = None;
                self.popup_dismissed = None;
                return;
            }
        };
        if self.popup_dismissed.as_deref() == Some(query.as_str()) {
            return;
        }
        self.popup_dismissed = None;
        let query = &query[1..];
        let skills = &self.skills;
        let kept = self
            .popup
            .as_mut()
            .is_some_and(|popup| popup.update(query, skills));
        if !kept {
            self.popup = SlashPopup::new(query, skills);
        }
    }

    /// Cursor as (row, char column).
    fn cursor(&self) -> (usize, usize) {
        let c = self.textarea.cursor();
        (c.0, c.1)
    }

    fn line(&self, row: usize) -> &str {
        self.textarea.lines().get(row).map_or("", String::as_str)
    }
}

#[cfg(test)]
#[path = "composer_tests.rs"]
mod tests;
