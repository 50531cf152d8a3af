//! Rendering a skin for one terminal: pick the overlay for the background polarity
//! (`light_colors` / `dark_colors`); for a skin written for the other polarity, mirror the
//! lightness of its remaining text colours and move its panel backgrounds across (hues
//! kept); then make every text colour legible (WCAG ≥ 4.5:1) on what it is drawn on.
//!
//! Not here: colour depth (applied per style in `Theme::style`). Invariant: the output's
//! palette is a function of `theme.authored` and the options only, so rendering twice, or
//! rendering an already rendered theme for other options, gives the same result.

use ratatui::style::Color;

use super::Theme;
use super::background::{Background, from_rgb};
use super::contrast::{MIN_TEXT_CONTRAST, Rgb, legible, mirror_surface, mirror_text};
use super::palette::{Palette, STATUS_BAR_TEXT_KEYS, SURFACE_KEYS, on_terminal_background};
use super::skins::LoadOptions;

const BLACK: Rgb = (0, 0, 0);
const WHITE: Rgb = (255, 255, 255);

/// `theme` with its palette, depth and background set for `options`. `background_rgb` is
/// the terminal's real background colour if known; it is used only when its polarity
/// agrees with the resolved background, else pure black or white is assumed.
pub(crate) fn render(mut theme: Theme, options: LoadOptions, background_rgb: Option<Rgb>) -> Theme {
    let background = options.mode.resolve(options.background);
    let background_rgb = background_rgb
        .filter(|&(r, g, b)| from_rgb(r, g, b) == background)
        .unwrap_or(match background {
            Background::Dark => BLACK,
            Background::Light => WHITE,
        });
    theme.palette = palette_for(&theme, background, background_rgb);
    theme.depth = options.depth;
    theme.background = background;
    theme.background_rgb = background_rgb;
    theme
}

fn rgb(color: Color) -> Option<Rgb> {
    match color {
        Color::Rgb(r, g, b) => Some((r, g, b)),
        _ => None,
    }
}

fn palette_for(theme: &Theme, background: Background, background_rgb: Rgb) -> Palette {
    let authored = &theme.authored;
    let mut palette = authored.colors.clone();
    let overlay = match background {
        Background::Light => &authored.light_colors,
        Background::Dark => &authored.dark_colors,
    };
    for (key, color) in overlay {
        palette.set(key, *color);
    }
    // Text of a skin authored for the other polarity (no overlay value): mirror its
    // lightness so bright-on-dark becomes dark-on-light with the same hues and ordering.
    if authored_for(&authored.colors) != background {
        for key in Palette::KEYS {
            let text = on_terminal_background(key) || STATUS_BAR_TEXT_KEYS.contains(key);
            if !text || overlay.contains_key(*key) {
                continue;
            }
            if let Some(color) = palette.get(key).and_then(rgb) {
                let (r, g, b) = mirror_text(color, background);
                palette.set(key, Color::Rgb(r, g, b));
            }
        }
    }
    // Panels authored for the other polarity (a dark status bar on a white terminal) move
    // across unless the overlay chose a value for this background on purpose.
    for key in SURFACE_KEYS {
        if overlay.contains_key(*key) {
            continue;
        }
        if let Some((r, g, b)) = palette.get(key).and_then(rgb)
            && from_rgb(r, g, b) != background
        {
            let (r, g, b) = mirror_surface((r, g, b), background);
            palette.set(key, Color::Rgb(r, g, b));
        }
    }
    for key in Palette::KEYS {
        if on_terminal_background(key) {
            make_legible(&mut palette, key, background_rgb);
        }
    }
    if let Some(bar) = rgb(palette.status_bar_bg) {
        for key in STATUS_BAR_TEXT_KEYS {
            make_legible(&mut palette, key, bar);
        }
    }
    palette
}

/// The background a skin was written for, judged by its body text colour: light text
/// means a dark background.
fn authored_for(colors: &Palette) -> Background {
    match rgb(colors.banner_text) {
        Some((r, g, b)) if from_rgb(r, g, b) == Background::Light => Background::Dark,
        Some(_) => Background::Light,
        None => Background::Dark,
    }
}

fn make_legible(palette: &mut Palette, key: &str, background: Rgb) {
    if let Some(fg) = palette.get(key).and_then(rgb) {
        let (r, g, b) = legible(fg, background, MIN_TEXT_CONTRAST);
        palette.set(key, Color::Rgb(r, g, b));
    }
}
