//! Markdown → already-wrapped ratatui lines for a given width.
//!
//! Handles paragraphs, headings (`Role::Heading`), emphasis/strong/strikethrough, inline code
//! (`Role::Code`), bullet and numbered lists with nested indentation, task markers, block
//! quotes, links (text plus the dimmed url), rules, and fenced code blocks highlighted by
//! syntect (unknown languages render as plain `Role::Code`). Tables are not parsed; their
//! pipes read fine as text.
//!
//! Streaming is newline-gated: `render_streaming` renders only the text up to the last `\n`,
//! so a half-typed line never shows (and headings or list markers never flicker while half
//! parsed); the tail appears when its line ends or the message completes.
//!
//! Not done here: caching (the chat pane caches per cell and width) and any layout outside the
//! text itself. Invariant: no returned line is wider than `width` (apart from single characters
//! wider than the whole width), so the caller's line count is the on-screen height.

mod highlight;
mod streaming;
pub mod wrap;

use pulldown_cmark::CodeBlockKind;
use pulldown_cmark::Event;
use pulldown_cmark::Options;
use pulldown_cmark::Parser;
use pulldown_cmark::Tag;
use pulldown_cmark::TagEnd;
use ratatui::style::Modifier;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::text::Span;

use crate::theme::Role;
use crate::theme::Theme;
use wrap::SpanLine;
use wrap::display_width;
use wrap::push_styled;

const BULLETS: [&str; 3] = ["• ", "◦ ", "▪ "];
const QUOTE_BAR: &str = "│ ";
const CODE_INDENT: &str = "  ";

/// Loads the syntax-highlighting assets (tens of milliseconds, once). Call it off the UI
/// task at startup so the first code block does not stall a frame.
pub fn preload() {
    highlight::preload();
}

/// Syntax-highlights `code` as `lang` (e.g. `bash` for an approval's command): one span list
/// per line, or `None` for an unknown language or an oversized block (render it plain).
pub fn highlight_code(code: &str, lang: &str, theme: &Theme) -> Option<Vec<Vec<Span<'static>>>> {
    highlight::highlight(code, lang, theme)
}

/// The part of a streaming text that may be shown: everything up to and including the last
/// newline (empty when no line is complete yet).
pub fn complete_lines(text: &str) -> &str {
    text.rfind('\n').map_or("", |i| &text[..=i])
}

/// Renders a message that is still streaming: complete words only, so a half-received word
/// never flickers and a long paragraph still appears as it arrives (gating on whole lines
/// would hide a newline-free paragraph until its end). Words only ever append at the end;
/// the one visible change is that an unclosed `**`/`` ` `` span restyles when it closes.
/// Finished blocks are rendered once and reused (`streaming`).
pub use streaming::render_streaming;

/// The part of a streaming text that may be shown: everything up to the last whitespace.
pub fn complete_words(text: &str) -> &str {
    text.rfind(char::is_whitespace).map_or("", |i| &text[..i])
}

/// Renders markdown to lines no wider than `width`.
pub fn render(text: &str, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let mut renderer = Renderer::new(theme, usize::from(width).max(1));
    let options = Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    for event in Parser::new_ext(text, options) {
        renderer.event(event);
    }
    renderer.finish()
}

enum Container {
    Quote,
    /// A list item: its marker shows on the item's first line only.
    Item {
        marker: String,
        pending: bool,
    },
}

struct Link {
    dest: String,
    text: String,
}

struct Renderer<'t> {
    theme: &'t Theme,
    width: usize,
    lines: Vec<Line<'static>>,
    inline: SpanLine,
    styles: Vec<Style>,
    containers: Vec<Container>,
    /// Next number of each open list (`None` for bullet lists).
    lists: Vec<Option<u64>>,
    code: Option<(String, String)>,
    links: Vec<Link>,
    need_blank: bool,
}

impl<'t> Renderer<'t> {
    fn new(theme: &'t Theme, width: usize) -> Self {
        Self {
            theme,
            width,
            lines: Vec::new(),
            inline: Vec::new(),
            styles: Vec::new(),
            containers: Vec::new(),
            lists: Vec::new(),
            code: None,
            links: Vec::new(),
            need_blank: false,
        }
    }

    fn finish(mut self) -> Vec<Line<'static>> {
        self.flush();
        if let Some((lang, code)) = self.code.take() {
            self.emit_code(&lang, &code);
        }
        self.lines
    }

    fn style(&self) -> Style {
        self.styles.last().copied().unwrap_or_default()
    }

    fn push_style(&mut self, patch: Style) {
        let style = self.style().patch(patch);
        self.styles.push(style);
    }

    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(text) => self.text(&text),
            Event::Code(code) => {
                let style = self.theme.style(Role::Code);
                self.inline_text(&code, style);
            }
            Event::InlineMath(text) | Event::DisplayMath(text) | Event::FootnoteReference(text) => {
                self.text(&text);
            }
            Event::Html(html) | Event::InlineHtml(html) => {
                let style = self.theme.style(Role::Dim);
                for (i, line) in html.split('\n').enumerate() {
                    if i > 0 {
                        self.flush();
                    }
                    self.inline_text(line, style);
                }
            }
            // Models write single newlines meaning "new line" (lists without markers,
            // poems, addresses); joining them as CommonMark does garbles that.
            Event::SoftBreak | Event::HardBreak => self.flush(),
            Event::Rule => {
                self.flush();
                self.block_start();
                let avail = self.width.saturating_sub(self.prefix_width()).max(1);
                let rule = Span::styled("─".repeat(avail), self.theme.style(Role::Dim));
                self.emit(vec![rule]);
                self.need_blank = true;
            }
            Event::TaskListMarker(done) => {
                let mark = if done { "[x] " } else { "[ ] " };
                self.inline_text(mark, self.theme.style(Role::Dim));
            }
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph | Tag::HtmlBlock => self.block_start(),
            Tag::Heading { level, .. } => {
                self.flush();
                self.block_start();
                self.push_style(self.theme.style(Role::Heading));
                let hashes = "#".repeat(level as usize);
                self.inline_text(&format!("{hashes} "), self.style());
            }
            Tag::BlockQuote(_) => {
                self.flush();
                self.block_start();
                self.containers.push(Container::Quote);
            }
            Tag::CodeBlock(kind) => {
                self.flush();
                self.block_start();
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => fence_language(&info),
                    CodeBlockKind::Indented => String::new(),
                };
                self.code = Some((lang, String::new()));
            }
            Tag::List(start) => {
                self.flush();
                if self.lists.is_empty() {
                    self.block_start();
                }
                self.lists.push(start);
            }
            Tag::Item => {
                self.flush();
                let depth = self.lists.len().saturating_sub(1);
                let marker = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        let marker = format!("{n}. ");
                        *n += 1;
                        marker
                    }
                    _ => BULLETS[depth % BULLETS.len()].to_string(),
                };
                self.containers.push(Container::Item {
                    marker,
                    pending: true,
                });
            }
            Tag::Emphasis => self.push_style(Style::default().add_modifier(Modifier::ITALIC)),
            Tag::Strong => self.push_style(Style::default().add_modifier(Modifier::BOLD)),
            Tag::Strikethrough => {
                self.push_style(Style::default().add_modifier(Modifier::CROSSED_OUT));
            }
            Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. } => {
                self.push_style(
                    self.theme
                        .style(Role::Accent)
                        .add_modifier(Modifier::UNDERLINED),
                );
                self.links.push(Link {
                    dest: dest_url.to_string(),
                    text: String::new(),
                });
            }
            // Not enabled in the parser options; their text still arrives as text.
            Tag::FootnoteDefinition(_)
            | Tag::DefinitionList
            | Tag::DefinitionListTitle
            | Tag::DefinitionListDefinition
            | Tag::Table(_)
            | Tag::TableHead
            | Tag::TableRow
            | Tag::TableCell
            | Tag::Superscript
            | Tag::Subscript
            | Tag::MetadataBlock(_) => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph | TagEnd::HtmlBlock => {
                self.flush();
                self.need_blank = true;
            }
            TagEnd::Heading(_) => {
                self.flush();
                self.styles.pop();
                self.need_blank = true;
            }
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.containers.pop();
                self.need_blank = true;
            }
            TagEnd::CodeBlock => {
                if let Some((lang, code)) = self.code.take() {
                    self.emit_code(&lang, &code);
                }
                self.need_blank = true;
            }
            TagEnd::List(_) => {
                self.flush();
                self.lists.pop();
                if self.lists.is_empty() {
                    self.need_blank = true;
                }
            }
            TagEnd::Item => {
                self.flush();
                // An empty item still shows its marker.
                if let Some(Container::Item { pending: true, .. }) = self.containers.last() {
                    self.emit(Vec::new());
                }
                self.containers.pop();
            }
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough => {
                self.styles.pop();
            }
            TagEnd::Link | TagEnd::Image => {
                self.styles.pop();
                if let Some(link) = self.links.pop() {
                    let shown = link.dest.strip_prefix("mailto:").unwrap_or(&link.dest);
                    if !link.dest.is_empty() && shown != link.text {
                        let url = format!(" ({})", link.dest);
                        self.inline_text(&url, self.theme.style(Role::Dim));
                    }
                }
            }
            TagEnd::FootnoteDefinition
            | TagEnd::DefinitionList
            | TagEnd::DefinitionListTitle
            | TagEnd::DefinitionListDefinition
            | TagEnd::Table
            | TagEnd::TableHead
            | TagEnd::TableRow
            | TagEnd::TableCell
            | TagEnd::Superscript
            | TagEnd::Subscript
            | TagEnd::MetadataBlock(_) => {}
        }
    }

    fn text(&mut self, text: &str) {
        if let Some((_, code)) = self.code.as_mut() {
            code.push_str(text);
            return;
        }
        if let Some(link) = self.links.last_mut() {
            link.text.push_str(text);
        }
        self.inline_text(text, self.style());
    }

    fn inline_text(&mut self, text: &str, style: Style) {
        push_styled(
            &mut self.inline,
            &wrap::sanitize(text).replace('\n', " "),
            style,
        );
    }

    /// Starts a block, separating it from the previous one by a blank line.
    fn block_start(&mut self) {
        if self.need_blank && !self.lines.is_empty() {
            let mut prefix = self.prefix(PrefixKind::Continuation);
            if let Some(last) = prefix.last_mut() {
                let trimmed = last.content.trim_end().to_string();
                last.content = trimmed.into();
            }
            self.lines.push(Line::from(prefix));
        }
        self.need_blank = false;
    }

    /// Wraps the pending inline text and emits it.
    fn flush(&mut self) {
        if self.inline.is_empty() {
            return;
        }
        let inline = std::mem::take(&mut self.inline);
        let avail = self.width.saturating_sub(self.prefix_width()).max(1);
        for line in wrap::wrap_spans(&inline, avail) {
            self.emit(line);
        }
    }

    /// Emits one already-wrapped line behind the container prefix.
    fn emit(&mut self, content: SpanLine) {
        let mut spans = self.prefix(PrefixKind::Next);
        spans.extend(content);
        self.lines.push(Line::from(spans));
    }

    fn prefix_width(&self) -> usize {
        self.containers
            .iter()
            .map(|c| match c {
                Container::Quote => display_width(QUOTE_BAR),
                Container::Item { marker, .. } => display_width(marker),
            })
            .sum()
    }

    /// The container prefix; `PrefixKind::Next` uses (and consumes) pending list markers.
    fn prefix(&mut self, kind: PrefixKind) -> SpanLine {
        let dim = self.theme.style(Role::Dim);
        let marker_style = self.theme.style(Role::Accent);
        let mut spans = Vec::new();
        for container in &mut self.containers {
            match container {
                Container::Quote => push_styled(&mut spans, QUOTE_BAR, dim),
                Container::Item { marker, pending } => {
                    if *pending && kind == PrefixKind::Next {
                        *pending = false;
                        push_styled(&mut spans, marker, marker_style);
                    } else {
                        let pad = " ".repeat(display_width(marker));
                        push_styled(&mut spans, &pad, Style::default());
                    }
                }
            }
        }
        spans
    }

    fn emit_code(&mut self, lang: &str, code: &str) {
        let code = wrap::sanitize(code);
        let code = code.strip_suffix('\n').unwrap_or(&code);
        let highlighted = highlight::highlight(code, lang, self.theme);
        let plain = self.theme.style(Role::Code);
        let avail = self
            .width
            .saturating_sub(self.prefix_width() + CODE_INDENT.len())
            .max(1);
        for (i, text) in code.split('\n').enumerate() {
            let spans = match highlighted.as_ref().and_then(|h| h.get(i)) {
                Some(spans) => spans.clone(),
                None => vec![Span::styled(text.to_string(), plain)],
            };
            for piece in wrap::hard_wrap(&spans, avail) {
                let mut line = vec![Span::raw(CODE_INDENT)];
                line.extend(piece);
                self.emit(line);
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PrefixKind {
    /// The prefix of the next content line (shows a pending list marker).
    Next,
    /// A continuation prefix (blank separator lines).
    Continuation,
}

/// The language of a fence info string: its first word, without `{}` or attributes.
fn fence_language(info: &str) -> String {
    info.split(|c: char| c.is_whitespace() || c == ',' || c == '{' || c == '}')
        .find(|s| !s.is_empty())
        .unwrap_or_default()
        .to_string()
}

#[cfg(test)]
#[path = "markdown_tests.rs"]
mod tests;
