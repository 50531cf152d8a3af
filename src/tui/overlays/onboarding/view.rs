//! Draws the onboarding modal: a centered, bordered box over whatever is behind it, with one
//! body per step and a key-hint footer. The API key is only ever drawn as bullets. Pure
//! rendering from the state machine's fields; no state changes here.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::text::Span;
use ratatui::widgets::Clear;
use ratatui::widgets::Padding;
use ratatui::widgets::Paragraph;
use ratatui::widgets::Widget;
use ratatui::widgets::Wrap;
use unicode_width::UnicodeWidthChar;
use unicode_width::UnicodeWidthStr;

use super::Entry;
use super::HOSTED;
use super::LocalProbe;
use super::Onboarding;
use super::Step;
use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::probe::DEFAULT_LOCAL_PORTS;

const TITLE: &str = " Welcome to Hermes — choose a model provider ";
const MAX_WIDTH: u16 = 76;
const MAX_HEIGHT: u16 = 16;
/// Label column of the provider list.
const LABEL_COLS: usize = 30;
const CURSOR: &str = "▏";

/// Which text a field shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Masking {
    Plain,
    Bullets,
}

impl Onboarding {
    /// Draws the modal centered in `area`.
    /// The modal (`Overlay::render`).
    pub(super) fn draw(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let width = modal_width(area);
        // Borders and horizontal padding take 4 columns.
        let text_width = usize::from(width.saturating_sub(4)).max(1);
        let body = self.body(theme, text_width);
        let rows: usize = body
            .iter()
            .map(|line| line.width().div_ceil(text_width).max(1))
            .sum();
        // Borders, the top padding row, and a blank row plus the footer.
        let wanted = u16::try_from(rows + 5).unwrap_or(MAX_HEIGHT);
        let modal = centered(area, width, wanted);
        if modal.is_empty() {
            return;
        }
        Clear.render(modal, buf);
        let block =
            crate::tui::overlays::modal_block(TITLE, theme).padding(Padding::new(1, 1, 1, 0));
        let inner = block.inner(modal);
        block.render(modal, buf);
        if inner.is_empty() {
            return;
        }
        let footer_h = u16::from(inner.height > 1);
        let body_area = Rect {
            height: inner.height - footer_h,
            ..inner
        };
        Paragraph::new(body)
            .wrap(Wrap { trim: false })
            .render(body_area, buf);
        if footer_h == 1 {
            let footer = Rect {
                y: inner.y + inner.height - 1,
                height: 1,
                ..inner
            };
            Line::styled(self.footer(), theme.style(Role::Dim)).render(footer, buf);
        }
    }

    fn body(&self, theme: &Theme, width: usize) -> Vec<Line<'static>> {
        match &self.step {
            Step::Choose => self.choose_lines(theme),
            Step::BaseUrl => self.base_url_lines(theme, width),
            Step::ApiKey => self.api_key_lines(theme, width),
            Step::Model => self.model_lines(theme, width),
            Step::Testing => self.testing_lines(theme),
            Step::Failed(message) => failed_lines(theme, message),
            Step::Done => vec![Line::styled("Connected.", theme.style(Role::Ok))],
        }
    }

    fn footer(&self) -> &'static str {
        match &self.step {
            Step::Choose => "↑↓ choose · Enter select · Esc quit",
            Step::BaseUrl | Step::ApiKey => "Enter next · Esc back · Ctrl+U clear",
            Step::Model if !self.draft.model_options.is_empty() => {
                "↑↓ other models · Enter test the connection · Esc back"
            }
            Step::Model => "Enter test the connection · Esc back",
            Step::Testing => "Esc back",
            Step::Failed(_) => "Enter edit and retry · Esc choose another provider",
            Step::Done => "",
        }
    }

    fn choose_lines(&self, theme: &Theme) -> Vec<Line<'static>> {
        let mut lines = vec![
            Line::styled(
                "Hermes needs a model to talk to. Pick where it runs:",
                theme.style(Role::Text),
            ),
            Line::default(),
        ];
        for (row, entry) in self.entries().into_iter().enumerate() {
            let selected = row == self.selected;
            let (marker, label_role) = if selected {
                ("› ", Role::MenuCurrent)
            } else {
                ("  ", Role::Text)
            };
            let label = self.entry_label(entry);
            let blurb = match entry {
                Entry::Hosted(i) => HOSTED[i].blurb,
                Entry::Custom => "any server with an OpenAI-style /v1",
                Entry::Local(_) => "",
            };
            let pad = LABEL_COLS.saturating_sub(label.width());
            let mut spans = vec![
                Span::styled(marker, theme.style(Role::Accent)),
                Span::styled(label, theme.style(label_role)),
            ];
            if !blurb.is_empty() {
                spans.push(Span::raw(" ".repeat(pad.max(1))));
                spans.push(Span::styled(blurb, theme.style(Role::Dim)));
            }
            lines.push(Line::from(spans));
        }
        let status = match &self.local {
            LocalProbe::Searching => Some("Searching for local servers…".to_owned()),
            LocalProbe::Done(servers) if servers.is_empty() => {
                let ports: Vec<String> = DEFAULT_LOCAL_PORTS
                    .iter()
                    .map(|(_, p)| p.to_string())
                    .collect();
                Some(format!(
                    "No local servers found on 127.0.0.1 (ports {})",
                    ports.join(", ")
                ))
            }
            LocalProbe::Done(_) => None,
        };
        if let Some(status) = status {
            lines.push(Line::styled(format!("  {status}"), theme.style(Role::Dim)));
        }
        lines
    }

    fn base_url_lines(&self, theme: &Theme, width: usize) -> Vec<Line<'static>> {
        let mut lines = vec![
            heading("Custom OpenAI-compatible server", theme),
            Line::styled(
                "The base URL of its API, usually ending in /v1.",
                theme.style(Role::Dim),
            ),
            Line::default(),
            field("URL: ", &self.draft.base_url, Masking::Plain, width, theme),
        ];
        self.push_hint(&mut lines, theme);
        lines
    }

    fn api_key_lines(&self, theme: &Theme, width: usize) -> Vec<Line<'static>> {
        let (title, note) = match self.entry {
            Entry::Hosted(i) => (
                format!("{} API key", HOSTED[i].label),
                format!(
                    "Get one at {}. Saved in HERMES_HOME/.env as {} (readable only by you).",
                    HOSTED[i].key_url, HOSTED[i].key_env
                ),
            ),
            Entry::Custom | Entry::Local(_) => (
                "API key (optional)".to_owned(),
                format!(
                    "Leave empty if the server needs none. Saved in HERMES_HOME/.env as {}.",
                    super::CUSTOM_KEY_ENV
                ),
            ),
        };
        let mut lines = vec![
            heading(&title, theme),
            Line::styled(note, theme.style(Role::Dim)),
            Line::default(),
            field("Key: ", &self.draft.api_key, Masking::Bullets, width, theme),
        ];
        self.push_hint(&mut lines, theme);
        lines
    }

    fn model_lines(&self, theme: &Theme, width: usize) -> Vec<Line<'static>> {
        let note = match self.draft.model_options.len() {
            0 => "The model id as the provider spells it.".to_owned(),
            n => format!(
                "{} lists {n} model{}.",
                self.provider_name(),
                if n == 1 { "" } else { "s" }
            ),
        };
        let mut lines = vec![
            heading(&format!("Model for {}", self.provider_name()), theme),
            Line::styled(note, theme.style(Role::Dim)),
            Line::default(),
            field("Model: ", &self.draft.model, Masking::Plain, width, theme),
        ];
        self.push_hint(&mut lines, theme);
        lines
    }

    fn testing_lines(&self, theme: &Theme) -> Vec<Line<'static>> {
        let target = match self.entry {
            Entry::Hosted(i) => HOSTED[i].base_url.to_owned(),
            Entry::Custom | Entry::Local(_) => self.draft.base_url.clone(),
        };
        vec![
            heading("Testing the connection…", theme),
            Line::default(),
            Line::from(vec![
                Span::styled("Asking ", theme.style(Role::Dim)),
                Span::styled(target, theme.style(Role::Text)),
                Span::styled(" for its model list (model ", theme.style(Role::Dim)),
                Span::styled(self.draft.model.clone(), theme.style(Role::Text)),
                Span::styled(").", theme.style(Role::Dim)),
            ]),
        ]
    }

    fn push_hint(&self, lines: &mut Vec<Line<'static>>, theme: &Theme) {
        if let Some(hint) = &self.hint {
            lines.push(Line::default());
            lines.push(Line::styled(hint.clone(), theme.style(Role::Warn)));
        }
    }
}

fn failed_lines(theme: &Theme, message: &str) -> Vec<Line<'static>> {
    vec![
        Line::styled("The connection test failed", theme.style(Role::Error)),
        Line::default(),
        Line::styled(message.to_owned(), theme.style(Role::Text)),
        Line::default(),
        Line::styled(
            "Nothing was saved. Go back to fix the entry or pick another provider.",
            theme.style(Role::Dim),
        ),
    ]
}

fn heading(text: &str, theme: &Theme) -> Line<'static> {
    Line::styled(text.to_owned(), theme.style(Role::Heading))
}

/// `Label: value▏`, showing the end of the value when it is too long.
fn field(
    label: &'static str,
    value: &str,
    masking: Masking,
    width: usize,
    theme: &Theme,
) -> Line<'static> {
    let shown = match masking {
        Masking::Plain => value.to_owned(),
        Masking::Bullets => "•".repeat(value.chars().count()),
    };
    let room = width.saturating_sub(label.width() + CURSOR.width());
    Line::from(vec![
        Span::styled(label, theme.style(Role::Label)),
        Span::styled(tail(&shown, room), theme.style(Role::Text)),
        Span::styled(CURSOR, theme.style(Role::Accent)),
    ])
}

/// The last `room` columns of `text`.
fn tail(text: &str, room: usize) -> String {
    let mut used = 0;
    let mut chars: Vec<char> = Vec::new();
    for ch in text.chars().rev() {
        let w = ch.width().unwrap_or(0);
        if used + w > room {
            break;
        }
        used += w;
        chars.push(ch);
    }
    chars.into_iter().rev().collect()
}

/// The modal's width: up to `MAX_WIDTH`, the whole width when the terminal is small.
fn modal_width(area: Rect) -> u16 {
    if area.width < 44 {
        area.width
    } else {
        area.width.saturating_sub(4).min(MAX_WIDTH)
    }
}

/// The modal's rect: `width` × `wanted` rows (at most `MAX_HEIGHT` and the area), centered.
fn centered(area: Rect, width: u16, wanted: u16) -> Rect {
    let height = wanted.min(MAX_HEIGHT).min(area.height);
    Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    }
}
