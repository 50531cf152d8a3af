//! First-run onboarding: a centered modal that picks a model provider when none is configured.
//!
//! Steps: choose a provider (OpenRouter, OpenAI, Anthropic, Nous Portal, a custom
//! OpenAI-compatible URL, or a server found on 127.0.0.1) → for hosted providers the API key
//! (shown only as bullets) → the model id (prefilled) → "Testing the connection…". For a custom
//! URL: base URL → optional key → model. A local server goes straight to the model, prefilled
//! with its first model (↑↓ cycle its list). Success ends onboarding; a failure shows the error
//! and Enter goes back to edit (entries are kept), Esc back to the provider list.
//!
//! This is a pure state machine: a key returns an [`OverlayAction`] and the app does the I/O
//! (runs `probe::test_connection` on `AppEvent::TestConnection`, quits on `AppEvent::Quit`
//! (Esc on the first step, Ctrl+C), feeds `set_test_result`, runs
//! the local probe and feeds `set_local_servers`, calls [`save_choice`] when done). A test
//! result that arrives after the user left the testing step is ignored. Rendering is in
//! `onboarding/view.rs`; what a choice is and how it is saved is in `onboarding/choice.rs`.

mod choice;
mod view;

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyEventKind;
use crossterm::event::KeyModifiers;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

pub use self::choice::CUSTOM_KEY_ENV;
pub use self::choice::HOSTED;
pub use self::choice::Hosted;
pub use self::choice::ProviderChoice;
pub use self::choice::hosted_base_url;
pub use self::choice::save_choice;
use super::stack::Overlay;
use super::stack::OverlayAction;
use super::stack::Paste;
use crate::theme::Theme;
use crate::tui::app::AppEvent;
use crate::tui::probe::LocalServer;

/// One row of the provider list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    Hosted(usize),
    Custom,
    Local(usize),
}

/// The local-server probe's progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LocalProbe {
    Searching,
    Done(Vec<LocalServer>),
}

/// Where the user is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Choose,
    BaseUrl,
    ApiKey,
    Model,
    Testing,
    Failed(String),
    Done,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    Next,
    Previous,
}

/// The answers so far; kept when the user steps back.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Draft {
    base_url: String,
    api_key: String,
    model: String,
    /// Models a local server listed, for ↑↓.
    model_options: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Onboarding {
    step: Step,
    selected: usize,
    /// The entry the draft belongs to.
    entry: Entry,
    local: LocalProbe,
    draft: Draft,
    /// A one-line problem with the current input ("enter a key").
    hint: Option<String>,
    choice: Option<ProviderChoice>,
}

impl Default for Onboarding {
    fn default() -> Self {
        Self::new()
    }
}

impl Onboarding {
    pub fn new() -> Self {
        Self {
            step: Step::Choose,
            selected: 0,
            entry: Entry::Hosted(0),
            local: LocalProbe::Searching,
            draft: Draft::default(),
            hint: None,
            choice: None,
        }
    }

    pub fn step(&self) -> &Step {
        &self.step
    }

    pub fn is_done(&self) -> bool {
        self.step == Step::Done
    }

    /// The tested choice, once onboarding is done.
    pub fn result(&self) -> Option<&ProviderChoice> {
        self.choice.as_ref().filter(|_| self.is_done())
    }

    /// The local probe finished; found servers join the end of the list.
    pub fn set_local_servers(&mut self, servers: Vec<LocalServer>) {
        self.local = LocalProbe::Done(servers);
        self.selected = self.selected.min(self.entries().len().saturating_sub(1));
    }

    /// The connection test finished. Ignored unless the testing step is showing.
    pub fn set_test_result(&mut self, result: Result<(), String>) {
        if self.step != Step::Testing {
            return;
        }
        self.step = match result {
            Ok(()) => Step::Done,
            Err(message) => Step::Failed(message),
        };
    }

    /// The rows of the provider list, in order.
    pub fn entries(&self) -> Vec<Entry> {
        let local = match &self.local {
            LocalProbe::Searching => 0,
            LocalProbe::Done(servers) => servers.len(),
        };
        (0..HOSTED.len())
            .map(Entry::Hosted)
            .chain([Entry::Custom])
            .chain((0..local).map(Entry::Local))
            .collect()
    }

    /// Pasted text goes into the field being edited (line breaks dropped).
    /// Not wired to terminal pastes (see `Overlay::handle_paste` below).
    pub fn paste_into_field(&mut self, text: &str) -> OverlayAction {
        let clean: String = text.chars().filter(|c| !c.is_control()).collect();
        match self.field_mut() {
            Some(field) => {
                field.push_str(clean.trim());
                self.hint = None;
                OverlayAction::None
            }
            None => OverlayAction::None,
        }
    }

    fn step_key(&mut self, key: KeyEvent) -> OverlayAction {
        if key.kind == KeyEventKind::Release {
            return OverlayAction::None;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            return OverlayAction::App(AppEvent::Quit);
        }
        match self.step.clone() {
            Step::Choose => self.choose_key(key),
            Step::BaseUrl | Step::ApiKey | Step::Model => self.input_key(key),
            Step::Testing => match key.code {
                KeyCode::Esc => self.go(Step::Model),
                _ => OverlayAction::None,
            },
            Step::Failed(_) => match key.code {
                KeyCode::Enter => self.go(self.first_input_step()),
                KeyCode::Esc => self.go(Step::Choose),
                _ => OverlayAction::None,
            },
            Step::Done => OverlayAction::None,
        }
    }

    fn go(&mut self, step: Step) -> OverlayAction {
        self.step = step;
        self.hint = None;
        OverlayAction::None
    }

    fn choose_key(&mut self, key: KeyEvent) -> OverlayAction {
        let last = self.entries().len().saturating_sub(1);
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => self.selected = (self.selected + 1).min(last),
            KeyCode::Home => self.selected = 0,
            KeyCode::End => self.selected = last,
            KeyCode::Enter => return self.pick(),
            KeyCode::Esc => return OverlayAction::App(AppEvent::Quit),
            _ => return OverlayAction::None,
        }
        OverlayAction::None
    }

    fn pick(&mut self) -> OverlayAction {
        let Some(entry) = self.entries().get(self.selected).copied() else {
            return OverlayAction::None;
        };
        if entry != self.entry {
            self.draft = Draft::default();
        }
        self.entry = entry;
        match entry {
            Entry::Hosted(i) => {
                if self.draft.model.is_empty() {
                    self.draft.model = HOSTED[i].default_model.to_owned();
                }
            }
            Entry::Custom => {}
            Entry::Local(i) => {
                let server = self.local_server(i).cloned();
                if let Some(server) = server {
                    self.draft.base_url = server.base_url;
                    if self.draft.model.is_empty() {
                        self.draft.model = server.models.first().cloned().unwrap_or_default();
                    }
                    self.draft.model_options = server.models;
                }
            }
        }
        self.go(self.first_input_step())
    }

    fn first_input_step(&self) -> Step {
        match self.entry {
            Entry::Hosted(_) => Step::ApiKey,
            Entry::Custom => Step::BaseUrl,
            Entry::Local(_) => Step::Model,
        }
    }

    fn previous_step(&self) -> Step {
        match (&self.step, self.entry) {
            (Step::Model, Entry::Hosted(_) | Entry::Custom) => Step::ApiKey,
            (Step::ApiKey, Entry::Custom) => Step::BaseUrl,
            _ => Step::Choose,
        }
    }

    fn field_mut(&mut self) -> Option<&mut String> {
        match self.step {
            Step::BaseUrl => Some(&mut self.draft.base_url),
            Step::ApiKey => Some(&mut self.draft.api_key),
            Step::Model => Some(&mut self.draft.model),
            _ => None,
        }
    }

    fn input_key(&mut self, key: KeyEvent) -> OverlayAction {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        match key.code {
            KeyCode::Esc => return self.go(self.previous_step()),
            KeyCode::Enter => return self.submit(),
            KeyCode::Up | KeyCode::Down if self.step == Step::Model => {
                let direction = match key.code {
                    KeyCode::Up => Direction::Previous,
                    _ => Direction::Next,
                };
                self.cycle_model(direction);
            }
            KeyCode::Char('u') if ctrl => {
                if let Some(field) = self.field_mut() {
                    field.clear();
                }
            }
            KeyCode::Char(c) if !ctrl && !alt => {
                if let Some(field) = self.field_mut() {
                    field.push(c);
                }
            }
            KeyCode::Backspace => {
                if let Some(field) = self.field_mut() {
                    field.pop();
                }
            }
            _ => return OverlayAction::None,
        }
        self.hint = None;
        OverlayAction::None
    }

    fn cycle_model(&mut self, direction: Direction) {
        let options = &self.draft.model_options;
        if options.is_empty() {
            return;
        }
        let current = options.iter().position(|m| *m == self.draft.model);
        let next = match (current, direction) {
            (None, _) => 0,
            (Some(i), Direction::Next) => (i + 1) % options.len(),
            (Some(i), Direction::Previous) => (i + options.len() - 1) % options.len(),
        };
        self.draft.model = options[next].clone();
    }

    fn submit(&mut self) -> OverlayAction {
        match self.step {
            Step::BaseUrl => {
                let url = self.draft.base_url.trim().trim_end_matches('/').to_owned();
                let valid = reqwest::Url::parse(&url).is_ok_and(|u| {
                    matches!(u.scheme(), "http" | "https") && u.host_str().is_some()
                });
                if !valid {
                    return self.complain("enter a URL like http://127.0.0.1:8080/v1");
                }
                self.draft.base_url = url;
                self.go(Step::ApiKey)
            }
            Step::ApiKey => {
                self.draft.api_key = self.draft.api_key.trim().to_owned();
                if self.draft.api_key.is_empty() && matches!(self.entry, Entry::Hosted(_)) {
                    return self.complain("paste or type your API key");
                }
                self.go(Step::Model)
            }
            Step::Model => {
                self.draft.model = self.draft.model.trim().to_owned();
                if self.draft.model.is_empty() {
                    return self.complain("enter a model id");
                }
                let choice = self.build_choice();
                self.choice = Some(choice.clone());
                self.go(Step::Testing);
                OverlayAction::App(AppEvent::TestConnection(choice))
            }
            _ => OverlayAction::None,
        }
    }

    fn complain(&mut self, hint: &str) -> OverlayAction {
        self.hint = Some(hint.to_owned());
        OverlayAction::None
    }

    fn build_choice(&self) -> ProviderChoice {
        let key = Some(self.draft.api_key.clone()).filter(|k| !k.is_empty());
        let (provider, base_url, key_env) = match self.entry {
            Entry::Hosted(i) => (HOSTED[i].id, None, Some(HOSTED[i].key_env)),
            Entry::Custom | Entry::Local(_) => (
                "custom",
                Some(self.draft.base_url.clone()),
                key.as_ref().map(|_| CUSTOM_KEY_ENV),
            ),
        };
        ProviderChoice {
            provider: provider.to_owned(),
            base_url,
            api_key: key,
            api_key_env: key_env,
            model: self.draft.model.clone(),
        }
    }

    fn local_server(&self, i: usize) -> Option<&LocalServer> {
        match &self.local {
            LocalProbe::Searching => None,
            LocalProbe::Done(servers) => servers.get(i),
        }
    }

    /// The list label of an entry.
    pub fn entry_label(&self, entry: Entry) -> String {
        match entry {
            Entry::Hosted(i) => HOSTED[i].label.to_owned(),
            Entry::Custom => "Custom OpenAI-compatible URL".to_owned(),
            Entry::Local(i) => self
                .local_server(i)
                .map(LocalServer::label)
                .unwrap_or_default(),
        }
    }

    /// The name of the provider being set up, for step headings.
    fn provider_name(&self) -> String {
        match self.entry {
            Entry::Hosted(i) => HOSTED[i].label.to_owned(),
            Entry::Custom => "your server".to_owned(),
            Entry::Local(i) => self
                .local_server(i)
                .map_or_else(|| "your server".to_owned(), |s| s.name.clone()),
        }
    }
}

impl Overlay for Onboarding {
    fn title(&self) -> &str {
        "onboarding"
    }

    fn handle_key(&mut self, key: KeyEvent) -> OverlayAction {
        self.step_key(key)
    }

    /// Swallowed: a paste while onboarding is open has never reached its fields (nor the
    /// composer below); [`Onboarding::paste_into_field`] exists but was never wired.
    fn handle_paste(&mut self, _text: &str) -> Paste {
        Paste::Consumed
    }

    fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        self.draw(area, buf, theme);
    }
}

#[cfg(test)]
#[path = "onboarding_tests.rs"]
mod tests;
