//! WCAG 2 contrast and hue-keeping lightness adjustment.
//!
//! `legible` darkens or lightens a foreground until it reaches a contrast ratio against a
//! background, moving only OKLCH lightness (hue kept; chroma reduced only as far as the sRGB
//! gamut demands), and returns the smallest such change. `mirror_surface` moves a panel
//! background (status bar, menu, selection) to the other polarity, keeping its hue.
//!
//! Not here: which colours are checked against which backgrounds (`skin_render`).
//! Invariant: the result of `legible` really meets the target after rounding to 8-bit
//! channels, unless even black or white cannot (then the better of the two is returned).

use super::background::Background;

/// A colour as 8-bit sRGB channels.
pub type Rgb = (u8, u8, u8);

/// WCAG's body-text minimum (success criterion 1.4.3, level AA).
pub const MIN_TEXT_CONTRAST: f64 = 4.5;

fn to_linear(channel: u8) -> f64 {
    let c = f64::from(channel) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn from_linear(c: f64) -> u8 {
    let c = c.clamp(0.0, 1.0);
    let s = if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    };
    (s * 255.0).round().clamp(0.0, 255.0) as u8
}

/// WCAG relative luminance, 0 (black) to 1 (white).
pub fn relative_luminance((r, g, b): Rgb) -> f64 {
    0.2126 * to_linear(r) + 0.7152 * to_linear(g) + 0.0722 * to_linear(b)
}

/// WCAG contrast ratio, 1 to 21.
pub fn contrast_ratio(a: Rgb, b: Rgb) -> f64 {
    let (la, lb) = (relative_luminance(a), relative_luminance(b));
    let (hi, lo) = if la > lb { (la, lb) } else { (lb, la) };
    (hi + 0.05) / (lo + 0.05)
}

/// OKLCH: perceptual lightness, chroma and hue (radians).
#[derive(Debug, Clone, Copy)]
struct Lch {
    l: f64,
    c: f64,
    h: f64,
}

fn to_oklch((r, g, b): Rgb) -> Lch {
    let (r, g, b) = (to_linear(r), to_linear(g), to_linear(b));
    let l = (0.412_221_470_8 * r + 0.536_332_536_3 * g + 0.051_445_992_9 * b).cbrt();
    let m = (0.211_903_498_2 * r + 0.680_699_545_1 * g + 0.107_396_956_6 * b).cbrt();
    let s = (0.088_302_461_9 * r + 0.281_718_837_6 * g + 0.629_978_700_5 * b).cbrt();
    let big_l = 0.210_454_255_3 * l + 0.793_617_785 * m - 0.004_072_046_8 * s;
    let a = 1.977_998_495_1 * l - 2.428_592_205 * m + 0.450_593_709_9 * s;
    let bb = 0.025_904_037_1 * l + 0.782_771_766_2 * m - 0.808_675_766 * s;
    Lch {
        l: big_l,
        c: a.hypot(bb),
        h: bb.atan2(a),
    }
}

/// Linear sRGB channels of an OKLCH colour; may fall outside 0–1 (out of gamut).
fn oklch_to_linear(lch: Lch) -> (f64, f64, f64) {
    let (a, b) = (lch.c * lch.h.cos(), lch.c * lch.h.sin());
    let l = (lch.l + 0.396_337_777_4 * a + 0.215_803_757_3 * b).powi(3);
    let m = (lch.l - 0.105_561_345_8 * a - 0.063_854_172_8 * b).powi(3);
    let s = (lch.l - 0.089_484_177_5 * a - 1.291_485_548 * b).powi(3);
    (
        4.076_741_662_1 * l - 3.307_711_591_3 * m + 0.230_969_929_2 * s,
        -1.268_438_004_6 * l + 2.609_757_401_1 * m - 0.341_319_396_5 * s,
        -0.004_196_086_3 * l - 0.703_418_614_7 * m + 1.707_614_701 * s,
    )
}

fn in_gamut((r, g, b): (f64, f64, f64)) -> bool {
    const EPS: f64 = 1e-6;
    [r, g, b].iter().all(|c| (-EPS..=1.0 + EPS).contains(c))
}

/// The colour at lightness `l` with the hue of `lch` and as much of its chroma as fits.
fn at_lightness(lch: Lch, l: f64) -> Rgb {
    let mut candidate = Lch { l, ..lch };
    if !in_gamut(oklch_to_linear(candidate)) {
        let (mut lo, mut hi) = (0.0, lch.c);
        for _ in 0..14 {
            let mid = (lo + hi) / 2.0;
            if in_gamut(oklch_to_linear(Lch {
                c: mid,
                ..candidate
            })) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        candidate.c = lo;
    }
    let (r, g, b) = oklch_to_linear(candidate);
    (from_linear(r), from_linear(g), from_linear(b))
}

/// `fg` unchanged when it already reaches `target` against `bg`; otherwise the nearest
/// lighter or darker colour of the same hue that does (darker on light backgrounds).
pub fn legible(fg: Rgb, bg: Rgb, target: f64) -> Rgb {
    if contrast_ratio(fg, bg) >= target {
        return fg;
    }
    let bg_is_light = contrast_ratio((0, 0, 0), bg) >= contrast_ratio((255, 255, 255), bg);
    let toward = |end: f64| search_lightness(fg, bg, target, end);
    let (first, second) = if bg_is_light { (0.0, 1.0) } else { (1.0, 0.0) };
    toward(first).or_else(|| toward(second)).unwrap_or({
        if bg_is_light {
            (0, 0, 0)
        } else {
            (255, 255, 255)
        }
    })
}

/// The smallest move of OKLCH lightness from `fg` towards `end` (0 or 1) that reaches
/// `target`; `None` when even the end does not.
fn search_lightness(fg: Rgb, bg: Rgb, target: f64, end: f64) -> Option<Rgb> {
    let lch = to_oklch(fg);
    let extreme = at_lightness(lch, end);
    if contrast_ratio(extreme, bg) < target {
        return None;
    }
    let (mut near, mut far) = (lch.l, end);
    let mut best = extreme;
    for _ in 0..24 {
        let mid = (near + far) / 2.0;
        let candidate = at_lightness(lch, mid);
        if contrast_ratio(candidate, bg) >= target {
            best = candidate;
            far = mid;
        } else {
            near = mid;
        }
    }
    Some(best)
}

/// `legible`, remembered: syntax-highlighting colours come back on every frame, and the
/// search costs microseconds. The cache is small and cleared when full.
pub fn legible_cached(fg: Rgb, bg: Rgb, target: f64) -> Rgb {
    use std::collections::HashMap;
    use std::sync::Mutex;
    type Key = (Rgb, Rgb, u64);
    static CACHE: Mutex<Option<HashMap<Key, Rgb>>> = Mutex::new(None);
    const CAPACITY: usize = 4096;
    if contrast_ratio(fg, bg) >= target {
        return fg;
    }
    let key = (fg, bg, target.to_bits());
    let Ok(mut guard) = CACHE.lock() else {
        return legible(fg, bg, target);
    };
    let cache = guard.get_or_insert_with(HashMap::new);
    if let Some(hit) = cache.get(&key) {
        return *hit;
    }
    if cache.len() >= CAPACITY {
        cache.clear();
    }
    let result = legible(fg, bg, target);
    cache.insert(key, result);
    result
}

/// A text colour authored for the other polarity, with its OKLCH lightness mirrored so the
/// skin's hierarchy survives: on a dark skin the brightest text is the most prominent, so
/// on a light terminal it becomes the darkest. Hue is kept (chroma as far as the gamut
/// allows). The two directions are inverses of each other. `legible` still applies after.
pub fn mirror_text(text: Rgb, onto: Background) -> Rgb {
    // Dark-skin text lives in L≈0.5–1; it maps to L≈0.25–0.55 on white, and back.
    const DARKEST: f64 = 0.25;
    const SPAN: f64 = 0.6;
    let lch = to_oklch(text);
    let l = match onto {
        Background::Light => DARKEST + SPAN * (1.0 - lch.l),
        Background::Dark => 1.0 - (lch.l - DARKEST) / SPAN,
    };
    at_lightness(lch, l.clamp(0.0, 1.0))
}

/// A panel background authored for the other polarity, moved to this one: a dark status
/// bar becomes a pale tint of its hue on a light terminal, and a light one a deep shade
/// on a dark terminal. Its distance from the terminal background is kept roughly, so panels
/// still stand out.
pub fn mirror_surface(surface: Rgb, onto: Background) -> Rgb {
    let lch = to_oklch(surface);
    let l = match onto {
        Background::Light => (1.0 - (lch.l - 0.15) / 2.5).clamp(0.86, 0.97),
        Background::Dark => (0.15 + (1.0 - lch.l) * 2.5).clamp(0.18, 0.40),
    };
    at_lightness(lch, l)
}

#[cfg(test)]
#[path = "contrast_tests.rs"]
mod tests;
