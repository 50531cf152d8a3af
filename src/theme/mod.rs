//! Semantic styles for every widget. Widgets ask for a `Role` (what the text *is*) and get a
//! `Style`; only this module knows colours. The palette follows Hermes's skin colour keys
//! (`ui_accent`, `ui_ok`, `status_bar_bg`, …) with the default skin's values, so loading Hermes
//! skin YAML later only has to fill a `Palette`.
//!
//! Invariant: no raw `Color` is used outside `theme/`.

use ratatui::style::Color;
use ratatui::style::Modifier;
use ratatui::style::Style;

/// What a piece of text is, for styling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Ordinary text.
    Text,
    /// Secondary text: hints, timestamps, previews.
    Dim,
    /// Highlights: the agent's name, links, focused things.
    Accent,
    /// Labels in lists and headers.
    Label,
    Ok,
    Warn,
    Error,
    /// The user's own messages.
    User,
    /// The assistant's response label and border.
    Assistant,
    /// Model reasoning (dimmed, italic).
    Reasoning,
    /// Tool names and tool cell headers.
    Tool,
    /// Inline code and code blocks without highlighting.
    Code,
    /// Markdown headings.
    Heading,
    /// The composer prompt symbol.
    Prompt,
    /// Pane borders.
    Border,
    /// The border of the focused pane.
    BorderFocused,
    /// Pane titles.
    Title,
    StatusBar,
    StatusBarStrong,
    StatusBarDim,
    StatusBarGood,
    StatusBarWarn,
    StatusBarBad,
    StatusBarCritical,
    /// A badge such as YOLO.
    Badge,
    /// Selected row in a list or popup.
    Selection,
    /// Completion popup background / meta text.
    Menu,
    MenuCurrent,
    MenuMeta,
}

/// Colours by Hermes skin key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Palette {
    pub banner_border: Color,
    pub banner_title: Color,
    pub banner_accent: Color,
    pub banner_dim: Color,
    pub banner_text: Color,
    pub ui_accent: Color,
    pub ui_label: Color,
    pub ui_ok: Color,
    pub ui_error: Color,
    pub ui_warn: Color,
    pub prompt: Color,
    pub input_rule: Color,
    pub response_border: Color,
    pub status_bar_bg: Color,
    pub status_bar_text: Color,
    pub status_bar_strong: Color,
    pub status_bar_dim: Color,
    pub status_bar_good: Color,
    pub status_bar_warn: Color,
    pub status_bar_bad: Color,
    pub status_bar_critical: Color,
    pub selection_bg: Color,
    pub completion_menu_bg: Color,
    pub completion_menu_current_bg: Color,
    pub completion_menu_meta_bg: Color,
}

impl Default for Palette {
    /// Hermes's default skin ("Classic Hermes", gold).
    fn default() -> Self {
        Self {
            banner_border: Color::Rgb(0xCD, 0x7F, 0x32),
            banner_title: Color::Rgb(0xFF, 0xD7, 0x00),
            banner_accent: Color::Rgb(0xFF, 0xBF, 0x00),
            banner_dim: Color::Rgb(0xB8, 0x86, 0x0B),
            banner_text: Color::Rgb(0xFF, 0xF8, 0xDC),
            ui_accent: Color::Rgb(0xFF, 0xBF, 0x00),
            ui_label: Color::Rgb(0xDA, 0xA5, 0x20),
            ui_ok: Color::Rgb(0x4C, 0xAF, 0x50),
            ui_error: Color::Rgb(0xEF, 0x53, 0x50),
            ui_warn: Color::Rgb(0xFF, 0xA7, 0x26),
            prompt: Color::Rgb(0xFF, 0xF8, 0xDC),
            input_rule: Color::Rgb(0xCD, 0x7F, 0x32),
            response_border: Color::Rgb(0xFF, 0xD7, 0x00),
            status_bar_bg: Color::Rgb(0x1A, 0x1A, 0x2E),
            status_bar_text: Color::Rgb(0xC0, 0xC0, 0xC0),
            status_bar_strong: Color::Rgb(0xFF, 0xD7, 0x00),
            status_bar_dim: Color::Rgb(0x88, 0x88, 0x88),
            status_bar_good: Color::Rgb(0x8F, 0xBC, 0x8F),
            status_bar_warn: Color::Rgb(0xFF, 0xD7, 0x00),
            status_bar_bad: Color::Rgb(0xFF, 0x8C, 0x00),
            status_bar_critical: Color::Rgb(0xFF, 0x6B, 0x6B),
            selection_bg: Color::Rgb(0x3A, 0x3A, 0x5A),
            completion_menu_bg: Color::Rgb(0x1A, 0x1A, 0x2E),
            completion_menu_current_bg: Color::Rgb(0x33, 0x33, 0x55),
            completion_menu_meta_bg: Color::Rgb(0x1A, 0x1A, 0x2E),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Theme {
    pub name: String,
    pub palette: Palette,
}

impl Theme {
    pub fn style(&self, role: Role) -> Style {
        let p = &self.palette;
        let fg = |c: Color| Style::default().fg(c);
        let bar = Style::default().bg(p.status_bar_bg);
        match role {
            Role::Text => Style::default(),
            Role::Dim => Style::default().add_modifier(Modifier::DIM),
            Role::Accent => fg(p.ui_accent),
            Role::Label => fg(p.ui_label),
            Role::Ok => fg(p.ui_ok),
            Role::Warn => fg(p.ui_warn),
            Role::Error => fg(p.ui_error),
            Role::User => fg(p.banner_text).add_modifier(Modifier::BOLD),
            Role::Assistant => fg(p.response_border),
            Role::Reasoning => Style::default().add_modifier(Modifier::DIM | Modifier::ITALIC),
            Role::Tool => fg(p.banner_accent),
            Role::Code => fg(p.banner_text),
            Role::Heading => fg(p.banner_title).add_modifier(Modifier::BOLD),
            Role::Prompt => fg(p.prompt).add_modifier(Modifier::BOLD),
            Role::Border => fg(p.banner_dim),
            Role::BorderFocused => fg(p.banner_title).add_modifier(Modifier::BOLD),
            Role::Title => fg(p.banner_title),
            Role::StatusBar => bar.fg(p.status_bar_text),
            Role::StatusBarStrong => bar.fg(p.status_bar_strong).add_modifier(Modifier::BOLD),
            Role::StatusBarDim => bar.fg(p.status_bar_dim),
            Role::StatusBarGood => bar.fg(p.status_bar_good),
            Role::StatusBarWarn => bar.fg(p.status_bar_warn),
            Role::StatusBarBad => bar.fg(p.status_bar_bad),
            Role::StatusBarCritical => bar.fg(p.status_bar_critical).add_modifier(Modifier::BOLD),
            Role::Badge => Style::default()
                .fg(p.status_bar_bg)
                .bg(p.ui_error)
                .add_modifier(Modifier::BOLD),
            Role::Selection => Style::default().bg(p.selection_bg),
            Role::Menu => Style::default()
                .bg(p.completion_menu_bg)
                .fg(p.status_bar_text),
            Role::MenuCurrent => Style::default()
                .bg(p.completion_menu_current_bg)
                .fg(p.banner_title)
                .add_modifier(Modifier::BOLD),
            Role::MenuMeta => Style::default()
                .bg(p.completion_menu_meta_bg)
                .fg(p.status_bar_dim),
        }
    }

    /// The emoji shown before a tool call (Hermes skins' `tool_emojis`; these are the
    /// default skin's).
    pub fn tool_emoji(&self, tool_name: &str) -> &'static str {
        match tool_name {
            "terminal" => "💻",
            "process" => "⚙️",
            "read_file" => "📖",
            "write_file" => "✍️",
            "patch" => "🔧",
            "search_files" => "🔎",
            "todo" => "📋",
            "clarify" => "❓",
            _ => "🛠️",
        }
    }

    /// Syntax-highlighting colours arrive as RGB from syntect; this is the one door through
    /// which they become styles, so widgets still never build colours themselves.
    pub fn rgb(&self, r: u8, g: u8, b: u8) -> Style {
        Style::default().fg(Color::Rgb(r, g, b))
    }
}
