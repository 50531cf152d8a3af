//! The colour keys Hermes's default skin leaves unset, and what Hermes paints for them when a
//! skin does not set them either: derived from the skin's own colours, so a skin that sets
//! `banner_dim` but not `status_bar_dim` looks as it does in Hermes.
//!
//! Not here: inheritance from the default skin (`skin`). Invariant: a key the skin or its base
//! wrote (`SkinColors::explicit`) is never changed.

use ratatui::style::Color;

use super::skin::SkinColors;

/// Where an unset colour key comes from.
#[derive(Debug, Clone, Copy)]
enum Derived {
    /// The skin's own value for another key.
    Key(&'static str),
    /// A fixed colour.
    Rgb(u8, u8, u8),
}

/// The colour keys Hermes's default skin leaves unset, and what Hermes paints for them when a
/// skin does not set them either, in dependency order. The status bar, voice bar and
/// completion menu follow the classic CLI (`get_prompt_toolkit_style_overrides` in
/// `hermes_cli/skin_engine.py`); `selection_bg` and `shell_dollar`, which only Hermes's TUI
/// draws, follow it (`fromSkin` in `ui-tui`).
const DERIVED: [(&str, Derived); 14] = [
    ("status_bar_text", Derived::Key("banner_text")),
    ("status_bar_strong", Derived::Key("banner_title")),
    ("status_bar_dim", Derived::Key("banner_dim")),
    ("status_bar_good", Derived::Key("ui_ok")),
    ("status_bar_warn", Derived::Key("ui_warn")),
    ("status_bar_bad", Derived::Key("banner_accent")),
    ("status_bar_critical", Derived::Key("ui_error")),
    ("voice_status_bg", Derived::Key("status_bar_bg")),
    ("completion_menu_bg", Derived::Rgb(0x1a, 0x1a, 0x2e)),
    ("completion_menu_current_bg", Derived::Rgb(0x33, 0x33, 0x55)),
    (
        "completion_menu_meta_bg",
        Derived::Key("completion_menu_bg"),
    ),
    (
        "completion_menu_meta_current_bg",
        Derived::Key("completion_menu_current_bg"),
    ),
    ("selection_bg", Derived::Key("completion_menu_current_bg")),
    ("shell_dollar", Derived::Rgb(0x4d, 0xab, 0xf7)),
];

/// Fill every derived key the skin (and its base) left unset.
pub(crate) fn derive_unset(colors: &mut SkinColors) {
    for (key, source) in DERIVED {
        if colors.explicit.contains(key) {
            continue;
        }
        let value = match source {
            Derived::Key(from) => colors.colors.get(from),
            Derived::Rgb(r, g, b) => Some(Color::Rgb(r, g, b)),
        };
        if let Some(value) = value {
            colors.colors.set(key, value);
        }
    }
}
