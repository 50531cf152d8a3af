//! Colour values: parsing skin colour strings (`#RGB`, `#RRGGBB`, names, `rgb(r,g,b)`,
//! `color(N)`), writing them back as `#RRGGBB`, and emitting them at the terminal's colour
//! depth (24-bit, xterm-256, the 16 ANSI colours, or none).
//!
//! Not here: making colours legible (see `contrast`; `nearest_256_legible` only keeps a
//! 24-bit pair's contrast through quantizing) or which colour a role uses (see `mod.rs`).
//! Invariant: skin colours are always `Color::Rgb` inside a `Theme`; only `ColorDepth::apply`
//! turns them into indexed or named colours, at the last moment.

use ratatui::style::Color;

use super::contrast::{contrast_ratio, relative_luminance};

/// How many colours the terminal can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ColorDepth {
    /// 24-bit colour: `Color::Rgb` as authored.
    #[default]
    TrueColor,
    /// The xterm 256-colour palette (`Color::Indexed`).
    Ansi256,
    /// The 16 ANSI colours, whose exact shades the terminal's own palette decides.
    Ansi16,
    /// No colours at all (`NO_COLOR`): only bold / dim / italic / reverse.
    None,
}

impl ColorDepth {
    /// Depth from the environment: a non-empty `NO_COLOR` disables colour; `COLORTERM`
    /// `truecolor`/`24bit` means 24-bit; a `TERM` containing `256color` means 256; else 16.
    pub fn detect(env: &dyn Fn(&str) -> Option<String>) -> Self {
        if env("NO_COLOR").is_some_and(|v| !v.is_empty()) {
            return Self::None;
        }
        let colorterm = env("COLORTERM").unwrap_or_default().to_ascii_lowercase();
        if colorterm == "truecolor" || colorterm == "24bit" {
            return Self::TrueColor;
        }
        if env("TERM").is_some_and(|t| t.contains("256color")) {
            return Self::Ansi256;
        }
        Self::Ansi16
    }

    /// `color` as this depth emits it; `None` for `ColorDepth::None`. Non-RGB colours
    /// (already indexed or named) pass through unchanged at any colour depth.
    pub fn apply(self, color: Color) -> Option<Color> {
        match (self, color) {
            (Self::None, _) => None,
            (Self::TrueColor, c) => Some(c),
            (Self::Ansi256, Color::Rgb(r, g, b)) => Some(Color::Indexed(nearest_256(r, g, b))),
            (Self::Ansi16, Color::Rgb(r, g, b)) => Some(nearest_16(r, g, b)),
            (Self::Ansi256 | Self::Ansi16, c) => Some(c),
        }
    }
}

/// The six levels of each channel in the xterm 6×6×6 colour cube (indices 16–231).
const CUBE_LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];

fn distance2(a: (u8, u8, u8), b: (u8, u8, u8)) -> u32 {
    let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).unsigned_abs().pow(2);
    d(a.0, b.0) + d(a.1, b.1) + d(a.2, b.2)
}

fn nearest_level(v: u8) -> usize {
    (0..CUBE_LEVELS.len())
        .min_by_key(|&i| (i32::from(CUBE_LEVELS[i]) - i32::from(v)).unsigned_abs())
        .unwrap_or(0)
}

/// The nearest xterm-256 index among the colour cube and the grey ramp (232–255), by
/// distance in RGB. Indices 0–15 are skipped: terminals redefine them.
pub fn nearest_256(r: u8, g: u8, b: u8) -> u8 {
    let (ri, gi, bi) = (nearest_level(r), nearest_level(g), nearest_level(b));
    let cube = (CUBE_LEVELS[ri], CUBE_LEVELS[gi], CUBE_LEVELS[bi]);
    let cube_index = 16 + 36 * ri + 6 * gi + bi;
    // Grey ramp: 8, 18, …, 238.
    let mean = (u32::from(r) + u32::from(g) + u32::from(b)) / 3;
    let step = (mean.saturating_sub(3) / 10).min(23);
    let grey_level = (8 + 10 * step) as u8;
    let grey = (grey_level, grey_level, grey_level);
    let target = (r, g, b);
    if distance2(grey, target) < distance2(cube, target) {
        (232 + step) as u8
    } else {
        cube_index as u8
    }
}

/// The xterm-256 index nearest to `fg` among those that keep at least `target` contrast
/// with `bg` (so quantizing never makes text harder to read than the 24-bit colour was
/// allowed to be); plain `nearest_256` when no index does.
pub fn nearest_256_legible(fg: (u8, u8, u8), bg: (u8, u8, u8), target: f64) -> u8 {
    let plain = nearest_256(fg.0, fg.1, fg.2);
    if contrast_ratio(xterm_rgb(plain), bg) >= target {
        return plain;
    }
    let luminance = luminance_table();
    let bg_l = relative_luminance(bg);
    let ratio = |l: f64| (l.max(bg_l) + 0.05) / (l.min(bg_l) + 0.05);
    (16..=255u8)
        .filter(|&i| ratio(luminance[usize::from(i)]) >= target)
        .min_by_key(|&i| distance2(xterm_rgb(i), fg))
        .unwrap_or(plain)
}

/// WCAG relative luminance of every xterm-256 colour, computed once.
fn luminance_table() -> &'static [f64; 256] {
    static TABLE: std::sync::OnceLock<[f64; 256]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [0.0; 256];
        for (i, slot) in table.iter_mut().enumerate() {
            *slot = relative_luminance(xterm_rgb(i as u8));
        }
        table
    })
}

/// The RGB value of an xterm-256 index (the standard xterm palette for 0–15).
pub fn xterm_rgb(index: u8) -> (u8, u8, u8) {
    match index {
        0..=15 => ANSI16[usize::from(index)].1,
        16..=231 => {
            let i = usize::from(index - 16);
            (
                CUBE_LEVELS[i / 36],
                CUBE_LEVELS[(i / 6) % 6],
                CUBE_LEVELS[i % 6],
            )
        }
        _ => {
            let v = 8 + 10 * (index - 232);
            (v, v, v)
        }
    }
}

/// The 16 ANSI colours with xterm's default shades, in index order.
const ANSI16: [(Color, (u8, u8, u8)); 16] = [
    (Color::Black, (0, 0, 0)),
    (Color::Red, (205, 0, 0)),
    (Color::Green, (0, 205, 0)),
    (Color::Yellow, (205, 205, 0)),
    (Color::Blue, (0, 0, 238)),
    (Color::Magenta, (205, 0, 205)),
    (Color::Cyan, (0, 205, 205)),
    (Color::Gray, (229, 229, 229)),
    (Color::DarkGray, (127, 127, 127)),
    (Color::LightRed, (255, 0, 0)),
    (Color::LightGreen, (0, 255, 0)),
    (Color::LightYellow, (255, 255, 0)),
    (Color::LightBlue, (92, 92, 255)),
    (Color::LightMagenta, (255, 0, 255)),
    (Color::LightCyan, (0, 255, 255)),
    (Color::White, (255, 255, 255)),
];

/// The nearest of the 16 ANSI colours. Plain RGB distance sends most muted colours to grey,
/// so this goes by hue instead: low-chroma colours pick a grey by lightness, the rest pick
/// the ANSI hue of their hue sector, bright when the colour is bright.
pub fn nearest_16(r: u8, g: u8, b: u8) -> Color {
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    let chroma = max - min;
    if chroma < 40 {
        let lightness = (u16::from(max) + u16::from(min)) / 2;
        return match lightness {
            0..=63 => Color::Black,
            64..=159 => Color::DarkGray,
            160..=223 => Color::Gray,
            _ => Color::White,
        };
    }
    let hue = hue_degrees(r, g, b);
    let bright = max >= 0xE0;
    let pick = |normal: Color, light: Color| if bright { light } else { normal };
    match hue {
        h if !(20.0..330.0).contains(&h) => pick(Color::Red, Color::LightRed),
        h if h < 70.0 => pick(Color::Yellow, Color::LightYellow),
        h if h < 160.0 => pick(Color::Green, Color::LightGreen),
        h if h < 200.0 => pick(Color::Cyan, Color::LightCyan),
        h if h < 260.0 => pick(Color::Blue, Color::LightBlue),
        _ => pick(Color::Magenta, Color::LightMagenta),
    }
}

/// Below this contrast (with xterm's shades) an ANSI colour counts as invisible: yellow on
/// white, blue on black. Deliberately low, because the terminal's own palette decides the
/// real shades and light-terminal palettes usually darken their yellows and greens.
const MIN_ANSI_CONTRAST: f64 = 2.0;

/// `nearest_16` for text on `bg`: when that ANSI colour would be near-invisible on it, its
/// normal/bright sibling, else black (light backgrounds) or white (dark ones).
pub fn nearest_16_legible(fg: (u8, u8, u8), bg: (u8, u8, u8)) -> Color {
    let visible = |c: Color| contrast_ratio(rgb_of(c), bg) >= MIN_ANSI_CONTRAST;
    let pick = nearest_16(fg.0, fg.1, fg.2);
    if visible(pick) {
        return pick;
    }
    let sibling = match pick {
        Color::Red => Color::LightRed,
        Color::LightRed => Color::Red,
        Color::Green => Color::LightGreen,
        Color::LightGreen => Color::Green,
        Color::Yellow => Color::LightYellow,
        Color::LightYellow => Color::Yellow,
        Color::Blue => Color::LightBlue,
        Color::LightBlue => Color::Blue,
        Color::Magenta => Color::LightMagenta,
        Color::LightMagenta => Color::Magenta,
        Color::Cyan => Color::LightCyan,
        Color::LightCyan => Color::Cyan,
        Color::Gray => Color::DarkGray,
        Color::DarkGray => Color::Gray,
        Color::Black => Color::DarkGray,
        Color::White => Color::Gray,
        other => other,
    };
    if visible(sibling) {
        sibling
    } else if relative_luminance(bg) > 0.18 {
        Color::Black
    } else {
        Color::White
    }
}

/// HSV hue in degrees, 0–360.
fn hue_degrees(r: u8, g: u8, b: u8) -> f64 {
    let (r, g, b) = (f64::from(r), f64::from(g), f64::from(b));
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    let c = max - min;
    if c == 0.0 {
        return 0.0;
    }
    let h = if max == r {
        ((g - b) / c).rem_euclid(6.0)
    } else if max == g {
        (b - r) / c + 2.0
    } else {
        (r - g) / c + 4.0
    };
    h * 60.0
}

/// Named colours skins may use: the ANSI names (Rich / prompt_toolkit spellings, `ansi`
/// prefix optional) with xterm's shades, and a few common web names.
const NAMED: &[(&str, (u8, u8, u8))] = &[
    ("black", (0, 0, 0)),
    ("red", (205, 0, 0)),
    ("green", (0, 205, 0)),
    ("yellow", (205, 205, 0)),
    ("blue", (0, 0, 238)),
    ("magenta", (205, 0, 205)),
    ("cyan", (0, 205, 205)),
    ("white", (229, 229, 229)),
    ("bright_black", (127, 127, 127)),
    ("bright_red", (255, 0, 0)),
    ("bright_green", (0, 255, 0)),
    ("bright_yellow", (255, 255, 0)),
    ("bright_blue", (92, 92, 255)),
    ("bright_magenta", (255, 0, 255)),
    ("bright_cyan", (0, 255, 255)),
    ("bright_white", (255, 255, 255)),
    ("gray", (128, 128, 128)),
    ("grey", (128, 128, 128)),
    ("dark_gray", (169, 169, 169)),
    ("dark_grey", (169, 169, 169)),
    ("light_gray", (211, 211, 211)),
    ("light_grey", (211, 211, 211)),
    ("silver", (192, 192, 192)),
    ("orange", (255, 165, 0)),
    ("dark_orange", (255, 140, 0)),
    ("gold", (255, 215, 0)),
    ("purple", (128, 0, 128)),
    ("violet", (238, 130, 238)),
    ("pink", (255, 192, 203)),
    ("brown", (165, 42, 42)),
    ("maroon", (128, 0, 0)),
    ("navy", (0, 0, 128)),
    ("navy_blue", (0, 0, 128)),
    ("teal", (0, 128, 128)),
    ("olive", (128, 128, 0)),
    ("lime", (0, 255, 0)),
    ("aqua", (0, 255, 255)),
    ("fuchsia", (255, 0, 255)),
    ("turquoise", (64, 224, 208)),
    ("coral", (255, 127, 80)),
    ("salmon", (250, 128, 114)),
    ("khaki", (240, 230, 140)),
    ("tan", (210, 180, 140)),
    ("crimson", (220, 20, 60)),
    ("indigo", (75, 0, 130)),
];

/// Parses a skin colour value. `None` when it is not a colour this module understands.
pub fn parse_color(text: &str) -> Option<(u8, u8, u8)> {
    let t = text.trim();
    if let Some(hex) = t.strip_prefix('#') {
        return parse_hex(hex);
    }
    let lower = t.to_ascii_lowercase();
    if let Some(args) = lower
        .strip_prefix("rgb(")
        .and_then(|rest| rest.strip_suffix(')'))
    {
        let parts: Vec<u8> = args
            .split(',')
            .map(|p| p.trim().parse::<u8>())
            .collect::<Result<_, _>>()
            .ok()?;
        return match parts[..] {
            [r, g, b] => Some((r, g, b)),
            _ => None,
        };
    }
    if let Some(index) = lower
        .strip_prefix("color(")
        .and_then(|rest| rest.strip_suffix(')'))
    {
        return index.trim().parse::<u8>().ok().map(xterm_rgb);
    }
    let name = lower.replace([' ', '-'], "_");
    let name = name.strip_prefix("ansi").unwrap_or(&name);
    // prompt_toolkit spells them `ansibrightred`; Rich `bright_red`.
    let name = match name.strip_prefix("bright") {
        Some(rest) if !rest.starts_with('_') => format!("bright_{rest}"),
        _ => name.to_owned(),
    };
    NAMED.iter().find(|(n, _)| *n == name).map(|(_, rgb)| *rgb)
}

fn parse_hex(hex: &str) -> Option<(u8, u8, u8)> {
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let digit = |i: usize| u8::from_str_radix(&hex[i..=i], 16).ok();
    match hex.len() {
        3 => Some((digit(0)? * 17, digit(1)? * 17, digit(2)? * 17)),
        6 => {
            let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
            Some((byte(0)?, byte(2)?, byte(4)?))
        }
        _ => None,
    }
}

/// `#RRGGBB` (upper case) for an RGB colour; other colours as xterm RGB where known.
pub fn to_hex(color: Color) -> String {
    let (r, g, b) = rgb_of(color);
    format!("#{r:02X}{g:02X}{b:02X}")
}

/// The RGB value of any ratatui colour (named and indexed ones by xterm's palette;
/// `Reset` as black, which is the dark-background assumption).
pub fn rgb_of(color: Color) -> (u8, u8, u8) {
    match color {
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Indexed(i) => xterm_rgb(i),
        Color::Reset => (0, 0, 0),
        named => ANSI16
            .iter()
            .find(|(c, _)| *c == named)
            .map_or((0, 0, 0), |(_, rgb)| *rgb),
    }
}

#[cfg(test)]
#[path = "color_tests.rs"]
mod tests;
