//! Drawing the composer: a top rule (focused or not, with the busy hint on the right), the
//! header rows the app asked for (left blank here: the attachment row goes there, see
//! `header_rect`), the skin's prompt symbol (`❯ ` by default), and the textarea beside it;
//! plus `desired_height`, which estimates the wrapped row count the same way the textarea
//! wraps (`WrapMode::WordOrGlyph`). `set_skin` takes the prompt symbol and the agent name
//! (for the placeholder) before the frame is laid out, so the height estimate uses the
//! prompt's real width.
//!
//! The estimate mirrors ratatui-textarea's word chunks only approximately (it has no Unicode
//! word segmentation); when it is off by a row the textarea scrolls to keep the cursor visible,
//! so the worst case is one blank or one hidden row, never a lost cursor.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::Line;
use ratatui::text::Span;
use ratatui::widgets::Block;
use ratatui::widgets::Borders;
use ratatui::widgets::Widget;
use unicode_width::UnicodeWidthChar;
use unicode_width::UnicodeWidthStr;

use super::BusyHint;
use super::Composer;
use super::ComposerFocus;
use super::ComposerView;
use crate::theme::Role;
use crate::theme::Theme;

/// The default prompt symbol (with its space) and its width in columns.
const PROMPT: &str = "❯ ";
const PROMPT_WIDTH: u16 = 2;
/// Widest prompt symbol drawn whole; a longer one is cut (it would squeeze the text).
const MAX_PROMPT_WIDTH: u16 = 8;
/// Most text rows the composer grows to before it scrolls.
pub const MAX_TEXT_ROWS: u16 = 10;
/// Matches the textarea's default tab length.
const TAB_WIDTH: usize = 4;

/// The rule hint while a turn runs; `mode_label` is what Enter does then.
pub fn busy_hint_text(mode_label: &str) -> String {
    match mode_label {
        "interrupt" => "agent working — Enter interrupts · Tab queues".to_owned(),
        "queue" => "agent working — Enter queues · Ctrl+C interrupts".to_owned(),
        "steer" => "agent working — Enter steers · Tab queues".to_owned(),
        other => format!("agent working — Enter: {other} · Tab queues"),
    }
}

/// What the skin changes in the composer: the prompt (symbol and one space) and the agent's
/// name in the placeholder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComposerSkin {
    /// The symbol as the skin gives it (to notice a change).
    symbol: String,
    prompt: String,
    prompt_width: u16,
    agent_name: String,
    placeholder: String,
}

impl Default for ComposerSkin {
    fn default() -> Self {
        Self {
            symbol: String::new(),
            prompt: PROMPT.to_string(),
            prompt_width: PROMPT_WIDTH,
            agent_name: String::new(),
            placeholder: super::PLACEHOLDER.to_string(),
        }
    }
}

impl Composer {
    /// The skin's prompt symbol (a bare token; one space is added) and agent name. Cheap
    /// when nothing changed, so the app calls it every frame.
    pub fn set_skin(&mut self, prompt_symbol: &str, agent_name: &str) {
        if self.skin.symbol != prompt_symbol {
            self.skin.symbol = prompt_symbol.to_string();
            let symbol = match prompt_symbol.trim() {
                "" => PROMPT.trim_end(),
                symbol => symbol,
            };
            let max = usize::from(MAX_PROMPT_WIDTH - 1);
            let symbol = crate::tui::markdown::wrap::truncate(symbol, max);
            self.skin.prompt = format!("{symbol} ");
            self.skin.prompt_width = u16::try_from(self.skin.prompt.width()).unwrap_or(1);
        }
        if self.skin.agent_name != agent_name {
            self.skin.agent_name = agent_name.to_string();
            self.skin.placeholder = placeholder(agent_name);
        }
        // A cleared draft gets a fresh textarea with the default placeholder.
        if self.textarea.placeholder_text() != self.skin.placeholder {
            self.textarea
                .set_placeholder_text(self.skin.placeholder.clone());
        }
    }

    /// Keeps `rows` rows between the rule and the input for the app to draw in (0: none).
    pub fn set_header_rows(&mut self, rows: u16) {
        self.header_rows = rows;
    }

    /// Where the header rows go when the composer is drawn in `area`: under the rule, never
    /// taking the input's one row.
    pub fn header_rect(&self, area: Rect) -> Rect {
        let below_rule = area.height.saturating_sub(1);
        Rect {
            y: area.y.saturating_add(1).min(area.bottom()),
            height: self.header_rows.min(below_rule.saturating_sub(1)),
            ..area
        }
    }

    /// Rows wanted at `width`: the wrapped text (1..=`MAX_TEXT_ROWS`), the header rows and
    /// the top rule.
    pub fn desired_height(&self, width: u16) -> u16 {
        let text_width = usize::from(width.saturating_sub(self.skin.prompt_width).max(1));
        let cap = usize::from(MAX_TEXT_ROWS);
        let mut rows = 0;
        for line in self.textarea.lines() {
            rows += wrapped_rows(line, text_width);
            if rows >= cap {
                break;
            }
        }
        u16::try_from(rows.clamp(1, cap)).unwrap_or(MAX_TEXT_ROWS) + 1 + self.header_rows
    }

    pub fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme, view: ComposerView) {
        // The skin's `input_rule` colour while the composer has the keyboard.
        let rule = match view.focus {
            ComposerFocus::Focused => Role::InputRule,
            ComposerFocus::Unfocused => Role::Border,
        };
        let mut block = Block::default()
            .borders(Borders::TOP)
            .border_style(theme.style(rule));
        if let BusyHint::Busy { mode_label } = view.busy {
            let hint = format!(" {} ", busy_hint_text(mode_label));
            block = block
                .title_top(Line::from(Span::styled(hint, theme.style(Role::Dim))).right_aligned());
        }
        let header = self.header_rect(area);
        let mut inner = block.inner(area);
        inner.y += header.height;
        inner.height -= header.height;
        block.render(area, buf);
        if inner.height == 0 || inner.width <= self.skin.prompt_width {
            return;
        }
        // The voice meter (`● [▁▂▃▅▇▇▅▂]`) takes the prompt's place while recording.
        let (prompt, prompt_width, prompt_role) = match &self.prompt_override {
            Some(text) => {
                let shown = format!("{text} ");
                let width = u16::try_from(shown.width()).unwrap_or(PROMPT_WIDTH);
                (shown, width, Role::Error)
            }
            None => (
                self.skin.prompt.clone(),
                self.skin.prompt_width,
                Role::Prompt,
            ),
        };
        if inner.width <= prompt_width {
            return;
        }
        buf.set_string(inner.x, inner.y, &prompt, theme.style(prompt_role));
        let text_area = Rect {
            x: inner.x + prompt_width,
            width: inner.width - prompt_width,
            ..inner
        };
        let text = theme.style(Role::Text);
        self.textarea.set_style(text);
        self.textarea.set_cursor_line_style(text);
        self.textarea.set_placeholder_style(theme.style(Role::Dim));
        self.textarea.set_cursor_style(match view.focus {
            ComposerFocus::Focused => text.add_modifier(Modifier::REVERSED),
            ComposerFocus::Unfocused => text,
        });
        (&self.textarea).render(text_area, buf);
    }
}

/// The empty composer's placeholder, naming the skin's agent.
pub fn placeholder(agent_name: &str) -> String {
    match agent_name.trim() {
        "" => super::PLACEHOLDER.to_string(),
        name => format!("Message {name}… (/ for commands, ! for shell)"),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Word,
    Space,
    Other,
}

fn class(c: char) -> Class {
    if c.is_whitespace() {
        Class::Space
    } else if (c.is_alphanumeric() || c == '_') && c.width() != Some(2) {
        Class::Word
    } else {
        Class::Other
    }
}

/// Splits a line like Unicode word boundaries roughly do: runs of word characters (joined
/// across `'`, `.`, `:` between letters), runs of spaces, and every other char alone.
fn chunks(line: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (start, c) = chars[i];
        let kind = class(c);
        let mut j = i + 1;
        if kind != Class::Other {
            while j < chars.len() {
                let next = chars[j].1;
                let joins_word = kind == Class::Word
                    && matches!(next, '\'' | '.' | ':' | '’')
                    && chars
                        .get(j + 1)
                        .is_some_and(|(_, n)| class(*n) == Class::Word);
                if class(next) == kind || joins_word {
                    j += 1 + usize::from(joins_word);
                } else {
                    break;
                }
            }
        }
        let end = chars.get(j).map_or(line.len(), |(b, _)| *b);
        out.push(&line[start..end]);
        i = j;
    }
    out
}

fn width_from(text: &str, start: usize) -> usize {
    text.chars().fold(start, |w, c| {
        if c == '\t' {
            w + TAB_WIDTH - (w % TAB_WIDTH)
        } else {
            w + c.width().unwrap_or(0)
        }
    }) - start
}

/// Rows a chunk wider than the row takes when split by glyph.
fn glyph_rows(chunk: &str, width: usize) -> usize {
    let mut rows = 1;
    let mut used = 0;
    for c in chunk.chars() {
        let w = width_from(c.encode_utf8(&mut [0; 4]), used);
        if used > 0 && used + w > width {
            rows += 1;
            used = 0;
        }
        used += w;
    }
    rows
}

/// Screen rows one logical line takes with word-or-glyph wrapping at `width`.
pub(super) fn wrapped_rows(line: &str, width: usize) -> usize {
    if width_from(line, 0) <= width {
        return 1;
    }
    let chunks = chunks(line);
    let mut rows = 0;
    let mut used = 0;
    let mut i = 0;
    while i < chunks.len() {
        let w = width_from(chunks[i], used);
        if used + w <= width {
            used += w;
            i += 1;
        } else if used > 0 {
            rows += 1;
            used = 0;
        } else {
            // The textarea splits an over-wide word by glyph and starts the next chunk afresh.
            rows += glyph_rows(chunks[i], width);
            i += 1;
        }
    }
    rows + usize::from(used > 0)
}

#[cfg(test)]
#[path = "render_tests.rs"]
mod tests;
