//! Semantic styles for every widget, from Hermes-compatible skins.
//!
//! Widgets ask for a `Role` (what the text *is*) and get a `Style`; only this module knows
//! colours. A `Theme` is one skin (Hermes's YAML schema: `colors`, `spinner`, `branding`,
//! `tool_prefix`, `tool_emojis`, banner art) rendered for one terminal: its background
//! polarity (light or dark, with contrast kept legible) and its colour depth.
//!
//! Layout: `role` (what widgets ask for), `palette` (the colour keys), `color` (parsing,
//! colour depth), `contrast` (WCAG contrast, hue-keeping adjustment), `background`
//! (parsing terminal background answers), `skin` (YAML schema and inheritance),
//! `skin_derived` (colours a skin leaves unset; notice lines come from `util::yaml_lines`),
//! `render` (skin → palette for a background), `builtin` (the nine embedded skins), `skins`
//! (catalog, load, validate, show).
//!
//! Invariant: no raw `Color` is used outside `theme/`; colours in a `Theme`'s palette are
//! RGB and already legible on `background_rgb`, and `style` converts them to `depth`.

// The one module that builds colours (clippy.toml bans them everywhere else).
#![allow(clippy::disallowed_types, clippy::disallowed_methods)]

pub mod background;
mod builtin;
pub mod color;
pub mod contrast;
mod palette;
mod render;
mod role;
mod skin;
mod skin_derived;
pub mod skins;

use std::borrow::Cow;
use std::collections::BTreeMap;

use ratatui::style::Color;
use ratatui::style::Modifier;
use ratatui::style::Style;

pub use background::{Background, ThemeMode};
pub use color::ColorDepth;
pub use palette::Palette;
pub use role::Role;
pub use skin::SkinColors;

use contrast::{MIN_TEXT_CONTRAST, Rgb};

/// Busy-indicator text (Hermes skin `spinner`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Spinner {
    pub waiting_faces: Vec<String>,
    pub thinking_faces: Vec<String>,
    pub thinking_verbs: Vec<String>,
    /// `(left, right)` decorations around the spinner; may be empty.
    pub wings: Vec<(String, String)>,
}

/// User-facing strings (Hermes skin `branding`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Branding {
    pub agent_name: String,
    pub welcome: String,
    pub goodbye: String,
    pub response_label: String,
    /// A bare token; one space is added when it is drawn.
    pub prompt_symbol: String,
    pub help_header: String,
}

/// One skin, rendered for one terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Theme {
    /// The name the skin is loaded by (its file name without `.yaml`).
    pub name: String,
    pub description: String,
    /// Effective colours: the skin's `colors`, the overlay for this background, and the
    /// contrast adjustments. Always RGB.
    pub palette: Palette,
    pub spinner: Spinner,
    pub branding: Branding,
    pub tool_prefix: String,
    /// The skin's own tool emoji; tools not listed use the built-in table.
    pub tool_emojis: BTreeMap<String, String>,
    /// Rich-markup banner art.
    pub banner_logo: String,
    pub banner_hero: String,
    /// How colours are emitted.
    pub depth: ColorDepth,
    /// The background the palette was made legible on.
    pub background: Background,
    /// That background's colour (assumed black or white unless the terminal told us).
    pub background_rgb: (u8, u8, u8),
    /// The colours as the skin file wrote them (with inheritance), so the theme can be
    /// rendered again for another background (`adapt`) or written out (`resolved_yaml`).
    pub authored: SkinColors,
}

impl Default for Theme {
    /// The built-in `default` skin in 24-bit colour on a dark background. Parsed once.
    fn default() -> Self {
        builtin::default_theme().clone()
    }
}

const FALLBACK_VERB: &str = "thinking";
const FALLBACK_THINKING_FACE: &str = "(◔_◔)";
const FALLBACK_WAITING_FACE: &str = "(｡◕‿◕｡)";

fn cycle<'a>(items: &'a [String], n: usize, fallback: &'static str) -> &'a str {
    if items.is_empty() {
        fallback
    } else {
        &items[n % items.len()]
    }
}

impl Theme {
    /// The style for `role`, in this theme's colour depth. Without colour (`NO_COLOR`) the
    /// modifiers stay, and selections, badges and the current menu row are reversed so they
    /// still stand out.
    pub fn style(&self, role: Role) -> Style {
        let colored = self.truecolor_style(role);
        match self.depth {
            ColorDepth::None => {
                let mut style = Style::default().add_modifier(colored.add_modifier);
                if matches!(role, Role::Selection | Role::Badge | Role::MenuCurrent) {
                    style = style.add_modifier(Modifier::REVERSED);
                }
                style
            }
            ColorDepth::Ansi256 => {
                let mut style = colored;
                style.fg = colored.fg.map(|fg| self.fg_256(fg, colored.bg));
                style.bg = colored.bg.and_then(|c| ColorDepth::Ansi256.apply(c));
                style
            }
            ColorDepth::Ansi16 => {
                let mut style = colored;
                let bg = colored.bg.and_then(|c| ColorDepth::Ansi16.apply(c));
                let shown_bg = bg.map_or(self.background_rgb, color::rgb_of);
                style.fg = colored.fg.map(|fg| match fg {
                    Color::Rgb(r, g, b) => color::nearest_16_legible((r, g, b), shown_bg),
                    other => other,
                });
                style.bg = match (role, bg) {
                    // A selection the same colour as the terminal would be invisible.
                    (Role::Selection, Some(Color::White))
                        if self.background == Background::Light =>
                    {
                        Some(Color::Gray)
                    }
                    (Role::Selection, Some(Color::Black))
                        if self.background == Background::Dark =>
                    {
                        Some(Color::DarkGray)
                    }
                    (_, bg) => bg,
                };
                style
            }
            ColorDepth::TrueColor => colored,
        }
    }

    /// A foreground in 256 colours that keeps its 24-bit contrast (up to 4.5:1) with what
    /// it is drawn on: `bg` as quantized, or the terminal's background.
    fn fg_256(&self, fg: Color, bg: Option<Color>) -> Color {
        let Color::Rgb(r, g, b) = fg else {
            return fg;
        };
        let (true_bg, shown_bg) = match bg {
            Some(bg) => {
                let shown = ColorDepth::Ansi256.apply(bg).unwrap_or(bg);
                (color::rgb_of(bg), color::rgb_of(shown))
            }
            None => (self.background_rgb, self.background_rgb),
        };
        let target = contrast::contrast_ratio((r, g, b), true_bg).min(MIN_TEXT_CONTRAST);
        Color::Indexed(color::nearest_256_legible((r, g, b), shown_bg, target))
    }

    fn truecolor_style(&self, role: Role) -> Style {
        let p = &self.palette;
        let fg = |c: Color| Style::default().fg(c);
        let bold = Modifier::BOLD;
        // Text on a panel: its own background, and a foreground legible on it.
        let panel = |text: Color, bg: Color| {
            Style::default()
                .fg(on_surface(text, bg, MIN_TEXT_CONTRAST))
                .bg(bg)
        };
        match role {
            Role::Text => Style::default(),
            Role::Dim => Style::default().add_modifier(Modifier::DIM),
            Role::Accent => fg(p.ui_accent),
            Role::Label => fg(p.ui_label),
            Role::Ok => fg(p.ui_ok),
            Role::Warn => fg(p.ui_warn),
            Role::Error => fg(p.ui_error),
            Role::User => fg(p.banner_text).add_modifier(bold),
            Role::Assistant => fg(p.response_border),
            Role::Reasoning => Style::default().add_modifier(Modifier::DIM | Modifier::ITALIC),
            Role::Tool => fg(p.banner_accent),
            Role::ToolPrefix => fg(p.banner_dim),
            Role::Code => fg(p.banner_text),
            Role::Heading => fg(p.banner_title).add_modifier(bold),
            Role::Prompt => fg(p.prompt).add_modifier(bold),
            Role::InputRule => fg(p.input_rule),
            Role::ShellDollar => fg(p.shell_dollar).add_modifier(bold),
            Role::Border => fg(p.banner_dim),
            Role::BorderFocused => fg(p.banner_title).add_modifier(bold),
            Role::Title => fg(p.banner_title),
            Role::SessionLabel => fg(p.session_label),
            Role::SessionBorder => fg(p.session_border),
            Role::BannerBorder => fg(p.banner_border),
            Role::BannerTitle => fg(p.banner_title).add_modifier(bold),
            Role::BannerAccent => fg(p.banner_accent),
            Role::BannerDim => fg(p.banner_dim),
            Role::BannerText => fg(p.banner_text),
            Role::StatusBar => panel(p.status_bar_text, p.status_bar_bg),
            Role::StatusBarStrong => panel(p.status_bar_strong, p.status_bar_bg).add_modifier(bold),
            Role::StatusBarDim => panel(p.status_bar_dim, p.status_bar_bg),
            Role::StatusBarGood => panel(p.status_bar_good, p.status_bar_bg),
            Role::StatusBarWarn => panel(p.status_bar_warn, p.status_bar_bg),
            Role::StatusBarBad => panel(p.status_bar_bad, p.status_bar_bg),
            Role::StatusBarCritical => {
                panel(p.status_bar_critical, p.status_bar_bg).add_modifier(bold)
            }
            Role::VoiceStatus => panel(p.status_bar_text, p.voice_status_bg),
            Role::Badge => panel(p.status_bar_bg, p.ui_error).add_modifier(bold),
            Role::Selection => Style::default().bg(p.selection_bg),
            Role::Menu => panel(p.status_bar_text, p.completion_menu_bg),
            Role::MenuCurrent => {
                panel(p.banner_title, p.completion_menu_current_bg).add_modifier(bold)
            }
            Role::MenuMeta => panel(p.status_bar_dim, p.completion_menu_meta_bg),
            Role::MenuMetaCurrent => panel(p.status_bar_text, p.completion_menu_meta_current_bg),
        }
    }

    /// The emoji shown before a tool call: the skin's `tool_emojis`, else the built-in table.
    ///
    /// Variation selector 16 is dropped: terminals disagree on how wide `⚙️` is (tmux draws it
    /// in one column, unicode-width counts two), and that disagreement shifts the rest of the
    /// line and pushes out the pane's border. Without it every terminal agrees on one column.
    pub fn tool_emoji(&self, tool: &str) -> Cow<'_, str> {
        let emoji = match self.tool_emojis.get(tool) {
            Some(emoji) => emoji.as_str(),
            None => default_tool_emoji(tool),
        };
        match emoji.contains(VARIATION_SELECTOR_16) {
            true => Cow::Owned(emoji.replace(VARIATION_SELECTOR_16, "")),
            false => Cow::Borrowed(emoji),
        }
    }

    /// Syntax-highlighting colours arrive as RGB from syntect; this is the one door through
    /// which they become styles, so widgets still never build colours themselves. The colour
    /// is made legible on this theme's background and converted to its depth.
    pub fn rgb(&self, r: u8, g: u8, b: u8) -> Style {
        let color = on_surface(
            Color::Rgb(r, g, b),
            rgb_color(self.background_rgb),
            MIN_TEXT_CONTRAST,
        );
        match (self.depth, color) {
            (ColorDepth::Ansi256, _) => Style::default().fg(self.fg_256(color, None)),
            (ColorDepth::Ansi16, Color::Rgb(r, g, b)) => {
                Style::default().fg(color::nearest_16_legible((r, g, b), self.background_rgb))
            }
            (depth, _) => match depth.apply(color) {
                Some(c) => Style::default().fg(c),
                None => Style::default(),
            },
        }
    }

    /// The `n`th thinking verb, cycling; a fallback word when the skin has none.
    pub fn spinner_verb(&self, n: usize) -> &str {
        cycle(&self.spinner.thinking_verbs, n, FALLBACK_VERB)
    }

    /// The `n`th thinking face, cycling; a fallback face when the skin has none.
    pub fn thinking_face(&self, n: usize) -> &str {
        cycle(&self.spinner.thinking_faces, n, FALLBACK_THINKING_FACE)
    }

    /// The `n`th waiting face, cycling; a fallback face when the skin has none.
    pub fn waiting_face(&self, n: usize) -> &str {
        cycle(&self.spinner.waiting_faces, n, FALLBACK_WAITING_FACE)
    }

    /// The `n`th pair of spinner wings, cycling; `None` when the skin has none.
    pub fn wings(&self, n: usize) -> Option<(&str, &str)> {
        if self.spinner.wings.is_empty() {
            return None;
        }
        let (left, right) = &self.spinner.wings[n % self.spinner.wings.len()];
        Some((left, right))
    }

    /// The same skin rendered for another terminal (background, depth or mode changed,
    /// e.g. when the OSC 11 reply arrives after start-up).
    pub fn adapt(&self, options: &skins::LoadOptions) -> Theme {
        render::render(self.clone(), *options, None)
    }

    /// The same theme made legible on the terminal's actual background colour (the OSC 11
    /// reply) rather than pure black or white. Ignored when the colour's polarity is not the
    /// one this theme was rendered for (e.g. `theme_mode: light` on a dark terminal).
    pub fn with_background_rgb(&self, r: u8, g: u8, b: u8) -> Theme {
        if background::from_rgb(r, g, b) != self.background {
            return self.clone();
        }
        let options = skins::LoadOptions {
            depth: self.depth,
            background: Some(self.background),
            mode: ThemeMode::Auto,
        };
        render::render(self.clone(), options, Some((r, g, b)))
    }
}

fn rgb_color((r, g, b): Rgb) -> Color {
    Color::Rgb(r, g, b)
}

/// `text` made legible on `bg` (both RGB; other colours pass through).
fn on_surface(text: Color, bg: Color, target: f64) -> Color {
    match (text, bg) {
        (Color::Rgb(r, g, b), Color::Rgb(br, bgg, bb)) => {
            rgb_color(contrast::legible_cached((r, g, b), (br, bgg, bb), target))
        }
        _ => text,
    }
}

/// Emoji-presentation selector; see [`Theme::tool_emoji`].
const VARIATION_SELECTOR_16: char = '\u{FE0F}';

/// Hermes's registry emoji for the core tools; a generic one for the rest. Where Hermes uses a
/// symbol that is only an emoji with variation selector 16 (`⚙️`, `✍️`, `🛠️`), this table uses
/// an emoji that is two columns wide in every terminal instead.
fn default_tool_emoji(tool: &str) -> &'static str {
    match tool {
        "terminal" => "💻",
        "process" => "🔩",
        "read_file" => "📖",
        "write_file" => "📝",
        "patch" => "🔧",
        "search_files" => "🔎",
        "todo" => "📋",
        "clarify" => "❓",
        // Hermes's emojis for its web, memory and delegation tools.
        "web_search" => "🔍",
        "web_extract" => "📄",
        "memory" => "🧠",
        "delegate_task" => "🔀",
        "execute_code" => "🐍",
        _ => "🔌",
    }
}

#[cfg(test)]
#[path = "mod_tests.rs"]
mod tests;
