//! The nine built-in skins, embedded from `themes/*.yaml`, parsed once.
//!
//! Not here: user skins and the catalog (`skins`). Invariants: every built-in parses without
//! notices, and each one, after inheritance and derivation, has exactly the colours,
//! spinner, branding, tool prefix, tool emoji and banner art Hermes Agent 0.19 resolves for it
//! (unit tests check both; the second against `tests/fixtures/hermes-skins-0.19.json`).

use std::sync::OnceLock;

use super::Theme;
use super::skin::{self, SkinColors};
use super::skins::LoadOptions;
use super::{Branding, Spinner, render};

/// Name and YAML of each built-in skin, in Hermes's order.
pub(crate) const BUILTIN: [(&str, &str); 9] = [
    ("default", include_str!("../../themes/default.yaml")),
    ("ares", include_str!("../../themes/ares.yaml")),
    ("mono", include_str!("../../themes/mono.yaml")),
    ("slate", include_str!("../../themes/slate.yaml")),
    ("daylight", include_str!("../../themes/daylight.yaml")),
    (
        "warm-lightmode",
        include_str!("../../themes/warm-lightmode.yaml"),
    ),
    ("poseidon", include_str!("../../themes/poseidon.yaml")),
    ("sisyphus", include_str!("../../themes/sisyphus.yaml")),
    ("charizard", include_str!("../../themes/charizard.yaml")),
];

/// The path notices use for a built-in skin.
pub(crate) fn file_label(name: &str) -> String {
    format!("themes/{name}.yaml (built-in)")
}

/// A theme with nothing set: the base `default.yaml` is read on top of.
fn blank() -> Theme {
    Theme {
        name: String::new(),
        description: String::new(),
        palette: SkinColors::default().colors,
        spinner: Spinner::default(),
        branding: Branding::default(),
        tool_prefix: String::new(),
        tool_emojis: Default::default(),
        banner_logo: String::new(),
        banner_hero: String::new(),
        depth: Default::default(),
        background: Default::default(),
        background_rgb: (0, 0, 0),
        authored: SkinColors::default(),
    }
}

/// Every built-in skin as authored (inheritance applied, not yet rendered), in order.
pub(crate) fn authored() -> &'static [Theme] {
    static SKINS: OnceLock<Vec<Theme>> = OnceLock::new();
    SKINS.get_or_init(|| {
        let mut skins: Vec<Theme> = Vec::with_capacity(BUILTIN.len());
        for (name, text) in BUILTIN {
            let base = skins.first().cloned().unwrap_or_else(blank);
            let parsed = skin::parse(text, &file_label(name), name, &base);
            skins.push(parsed.map(|(theme, _)| theme).unwrap_or(base));
        }
        skins
    })
}

/// A built-in skin as authored, by name.
pub(crate) fn find(name: &str) -> Option<&'static Theme> {
    authored().iter().find(|t| t.name == name)
}

/// The authored `default` skin: the base every other skin inherits from.
pub(crate) fn default_skin() -> Theme {
    authored().first().cloned().unwrap_or_else(blank)
}

/// `Theme::default()`: the `default` skin in 24-bit colour on a dark background.
pub(crate) fn default_theme() -> &'static Theme {
    static THEME: OnceLock<Theme> = OnceLock::new();
    THEME.get_or_init(|| render::render(default_skin(), LoadOptions::default(), None))
}

#[cfg(test)]
#[path = "builtin_tests.rs"]
mod tests;
