//! The terminal's background polarity: parsing `COLORFGBG` and the reply to an OSC 11 query,
//! and classifying an RGB background as dark or light.
//!
//! Pure functions only: sending the query, reading the reply with a timeout and keeping it
//! off the UI path belong to the caller. Anything unparseable gives `None`, never a guess.

use super::color::xterm_rgb;
use super::contrast::relative_luminance;

/// Whether the terminal draws on a dark or a light background.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Background {
    #[default]
    Dark,
    Light,
}

/// `display.theme_mode`: follow the detected background, or force one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ThemeMode {
    #[default]
    Auto,
    Light,
    Dark,
}

impl ThemeMode {
    /// Parses `auto` / `light` / `dark` (any case; empty means `auto`). Anything else is
    /// `Auto` plus a warning for the user.
    pub fn parse(text: &str) -> (Self, Option<String>) {
        match text.trim().to_ascii_lowercase().as_str() {
            "" | "auto" => (Self::Auto, None),
            "light" => (Self::Light, None),
            "dark" => (Self::Dark, None),
            other => (
                Self::Auto,
                Some(format!(
                    "display.theme_mode: unknown value `{other}` (expected auto, light or dark); using auto"
                )),
            ),
        }
    }

    /// The background to style for: a forced mode wins; `Auto` uses the detected one,
    /// and an unknown background counts as dark (most terminals are).
    pub fn resolve(self, detected: Option<Background>) -> Background {
        match self {
            Self::Light => Background::Light,
            Self::Dark => Background::Dark,
            Self::Auto => detected.unwrap_or(Background::Dark),
        }
    }
}

/// Asks the terminal for its background colour (xterm OSC 11, ST-terminated).
pub const OSC11_QUERY: &str = "\x1b]11;?\x1b\\";

/// Background from `COLORFGBG` (`"fg;bg"`, rxvt also `"fg;xpm;bg"`): the last field is the
/// background's ANSI index, classified by its xterm shade. `default` or garbage → `None`.
pub fn from_colorfgbg(value: &str) -> Option<Background> {
    let last = value.rsplit(';').next()?.trim();
    let index: u8 = last.parse().ok()?;
    if index > 15 {
        return None;
    }
    let (r, g, b) = xterm_rgb(index);
    Some(from_rgb(r, g, b))
}

/// Parses an OSC 11 reply: `ESC ] 11 ; rgb:RRRR/GGGG/BBBB` (or `rgba:` with a fourth
/// channel) ended by `ESC \`, BEL or the 8-bit ST; 1–4 hex digits per channel. Bytes before
/// the reply (other answers, typed keys) are skipped.
pub fn parse_osc11_reply(bytes: &[u8]) -> Option<(u8, u8, u8)> {
    let start = find(bytes, b"\x1b]11;")? + 5;
    let rest = &bytes[start..];
    let end = rest
        .iter()
        .position(|&b| b == 0x07 || b == 0x1b || b == 0x9c)?;
    if rest[end] == 0x1b && rest.get(end + 1) != Some(&b'\\') {
        return None;
    }
    let body = std::str::from_utf8(&rest[..end]).ok()?;
    let (channels, count) = if let Some(c) = body.strip_prefix("rgb:") {
        (c, 3)
    } else if let Some(c) = body.strip_prefix("rgba:") {
        (c, 4)
    } else {
        return None;
    };
    let values: Vec<u8> = channels
        .split('/')
        .map(scale_channel)
        .collect::<Option<_>>()?;
    if values.len() != count {
        return None;
    }
    Some((values[0], values[1], values[2]))
}

/// `ffff` → 255, `80` → 128, `f` → 255: the channel as a fraction of its digit count.
fn scale_channel(hex: &str) -> Option<u8> {
    if hex.is_empty() || hex.len() > 4 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let value = u32::from_str_radix(hex, 16).ok()?;
    let max = (1u32 << (4 * hex.len())) - 1;
    u8::try_from((value * 255 + max / 2) / max).ok()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Light when black text contrasts better with it than white text does (WCAG relative
/// luminance above ~0.18).
pub fn from_rgb(r: u8, g: u8, b: u8) -> Background {
    let l = relative_luminance((r, g, b));
    // Contrast with black: (l+0.05)/0.05; with white: 1.05/(l+0.05). Equal at l≈0.179.
    if (l + 0.05) * (l + 0.05) > 1.05 * 0.05 {
        Background::Light
    } else {
        Background::Dark
    }
}

#[cfg(test)]
#[path = "background_tests.rs"]
mod tests;
