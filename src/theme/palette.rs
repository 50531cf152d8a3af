//! `Palette`: one colour per Hermes skin colour key, with by-name access so the YAML loader,
//! the overlays (`light_colors` / `dark_colors`) and `hermes skins show` share one key list.
//!
//! Not here: what the colours mean to widgets (`Theme::style`) or where they come from.

use ratatui::style::Color;

macro_rules! palette {
    ($($(#[$doc:meta])* $key:ident,)*) => {
        /// Colours by Hermes skin key (`colors:` in a skin file).
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct Palette {
            $($(#[$doc])* pub $key: Color,)*
        }

        impl Palette {
            /// Every colour key, in Hermes's documented order.
            pub const KEYS: &'static [&'static str] = &[$(stringify!($key),)*];

            /// Every key set to `color`.
            pub fn filled(color: Color) -> Self {
                Self { $($key: color,)* }
            }

            /// The colour for a skin key; `None` for an unknown key.
            pub fn get(&self, key: &str) -> Option<Color> {
                match key {
                    $(stringify!($key) => Some(self.$key),)*
                    _ => None,
                }
            }

            /// Sets a skin key; `false` (nothing changed) for an unknown key.
            pub fn set(&mut self, key: &str, color: Color) -> bool {
                match key {
                    $(stringify!($key) => { self.$key = color; true })*
                    _ => false,
                }
            }
        }
    };
}

palette! {
    banner_border,
    banner_title,
    banner_accent,
    banner_dim,
    banner_text,
    ui_accent,
    ui_label,
    ui_ok,
    ui_error,
    ui_warn,
    /// The composer's input text.
    prompt,
    /// The rule above the composer.
    input_rule,
    response_border,
    status_bar_bg,
    status_bar_text,
    status_bar_strong,
    status_bar_dim,
    status_bar_good,
    status_bar_warn,
    status_bar_bad,
    status_bar_critical,
    session_label,
    session_border,
    voice_status_bg,
    selection_bg,
    completion_menu_bg,
    completion_menu_current_bg,
    completion_menu_meta_bg,
    completion_menu_meta_current_bg,
    /// The `$` before a `!shell` command.
    shell_dollar,
}

impl Default for Palette {
    /// The built-in `default` skin's colours, adapted to a dark background.
    fn default() -> Self {
        super::Theme::default().palette
    }
}

/// Whether a palette key is drawn on the terminal's own background (text, rules, borders)
/// rather than being, or being drawn on, a panel background.
pub(crate) fn on_terminal_background(key: &str) -> bool {
    !key.starts_with("status_bar_")
        && !key.starts_with("completion_menu_")
        && key != "selection_bg"
        && key != "voice_status_bg"
}

/// The panel backgrounds.
pub(crate) const SURFACE_KEYS: &[&str] = &[
    "status_bar_bg",
    "voice_status_bg",
    "selection_bg",
    "completion_menu_bg",
    "completion_menu_current_bg",
    "completion_menu_meta_bg",
    "completion_menu_meta_current_bg",
];

/// Status-bar text colours, drawn on `status_bar_bg`.
pub(crate) const STATUS_BAR_TEXT_KEYS: &[&str] = &[
    "status_bar_text",
    "status_bar_strong",
    "status_bar_dim",
    "status_bar_good",
    "status_bar_warn",
    "status_bar_bad",
    "status_bar_critical",
];
