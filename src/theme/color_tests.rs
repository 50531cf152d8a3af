#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
    move |key| {
        vars.iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| (*v).to_owned())
    }
}

#[test]
fn parses_hex_in_both_lengths_and_any_case() {
    assert_eq!(parse_color("#FFD700"), Some((255, 215, 0)));
    assert_eq!(parse_color("#ffd700"), Some((255, 215, 0)));
    assert_eq!(parse_color(" #4caf50 "), Some((0x4c, 0xaf, 0x50)));
    assert_eq!(parse_color("#fd0"), Some((255, 221, 0)));
    assert_eq!(parse_color("#F0A"), Some((255, 0, 170)));
}

#[test]
fn parses_names_in_rich_and_prompt_toolkit_spellings() {
    assert_eq!(parse_color("white"), Some((229, 229, 229)));
    assert_eq!(parse_color("Red"), Some((205, 0, 0)));
    assert_eq!(parse_color("bright_red"), Some((255, 0, 0)));
    assert_eq!(parse_color("ansibrightred"), Some((255, 0, 0)));
    assert_eq!(parse_color("ansiblue"), Some((0, 0, 238)));
    assert_eq!(parse_color("grey"), Some((128, 128, 128)));
    assert_eq!(parse_color("gray"), Some((128, 128, 128)));
    assert_eq!(parse_color("dark orange"), Some((255, 140, 0)));
    assert_eq!(parse_color("rgb(10, 20,30)"), Some((10, 20, 30)));
    assert_eq!(parse_color("color(196)"), Some((255, 0, 0)));
    assert_eq!(parse_color("color(244)"), Some((128, 128, 128)));
}

#[test]
fn rejects_what_is_not_a_colour() {
    for bad in [
        "",
        "#",
        "#12",
        "#12345",
        "#1234567",
        "#GGGGGG",
        "reddish",
        "rgb(1,2)",
        "rgb(1,2,300)",
        "color(256)",
        "FFD700",
    ] {
        assert_eq!(parse_color(bad), None, "{bad:?}");
    }
}

#[test]
fn writes_hex() {
    assert_eq!(to_hex(Color::Rgb(0x4c, 0xaf, 0x50)), "#4CAF50");
    assert_eq!(to_hex(Color::Indexed(196)), "#FF0000");
    assert_eq!(to_hex(Color::LightBlue), "#5C5CFF");
}

#[test]
fn nearest_256_uses_the_cube_and_the_grey_ramp() {
    assert_eq!(nearest_256(255, 0, 0), 196);
    assert_eq!(nearest_256(255, 215, 0), 220);
    assert_eq!(nearest_256(0, 0, 0), 16);
    assert_eq!(nearest_256(255, 255, 255), 231);
    // Greys go to the finer grey ramp.
    assert_eq!(nearest_256(128, 128, 128), 244);
    assert_eq!(nearest_256(0x1a, 0x1a, 0x1a), 234);
    // default's status bar (#1a1a2e): blue-ish dark, nearest is grey 234 (#1c1c1c).
    assert_eq!(nearest_256(0x1a, 0x1a, 0x2e), 234);
    // #4caf50 → cube (95,175,95) = 71.
    assert_eq!(nearest_256(0x4c, 0xaf, 0x50), 71);
    // Every index maps back to itself.
    for index in 16..=255u8 {
        let (r, g, b) = xterm_rgb(index);
        assert_eq!(nearest_256(r, g, b), index, "{index}");
    }
}

#[test]
fn nearest_16_goes_by_hue_then_brightness() {
    assert_eq!(nearest_16(0, 0, 0), Color::Black);
    assert_eq!(nearest_16(255, 255, 255), Color::White);
    assert_eq!(nearest_16(0xc0, 0xc0, 0xc0), Color::Gray);
    assert_eq!(nearest_16(0x80, 0x80, 0x80), Color::DarkGray);
    assert_eq!(nearest_16(0x1a, 0x1a, 0x2e), Color::Black);
    assert_eq!(nearest_16(255, 0, 0), Color::LightRed);
    assert_eq!(nearest_16(0xcd, 0, 0), Color::Red);
    assert_eq!(nearest_16(0x4c, 0xaf, 0x50), Color::Green);
    assert_eq!(nearest_16(0xff, 0xd7, 0x00), Color::LightYellow);
    assert_eq!(nearest_16(0xcd, 0x7f, 0x32), Color::Yellow);
    assert_eq!(nearest_16(0x5d, 0xb8, 0xf5), Color::LightBlue);
    assert_eq!(nearest_16(0x00, 0xcd, 0xcd), Color::Cyan);
    assert_eq!(nearest_16(0xff, 0x00, 0xff), Color::LightMagenta);
    assert_eq!(nearest_16(0x1d, 0x4e, 0xd8), Color::Blue);
}

#[test]
fn apply_converts_rgb_for_each_depth() {
    let gold = Color::Rgb(255, 215, 0);
    assert_eq!(ColorDepth::TrueColor.apply(gold), Some(gold));
    assert_eq!(ColorDepth::Ansi256.apply(gold), Some(Color::Indexed(220)));
    assert_eq!(ColorDepth::Ansi16.apply(gold), Some(Color::LightYellow));
    assert_eq!(ColorDepth::None.apply(gold), None);
    // Already-reduced colours pass through.
    assert_eq!(
        ColorDepth::Ansi16.apply(Color::Indexed(5)),
        Some(Color::Indexed(5))
    );
}

#[test]
fn detect_reads_no_color_colorterm_and_term() {
    let detect = |vars: &[(&str, &str)]| ColorDepth::detect(&env(vars));
    assert_eq!(detect(&[]), ColorDepth::Ansi16);
    assert_eq!(detect(&[("COLORTERM", "truecolor")]), ColorDepth::TrueColor);
    assert_eq!(detect(&[("COLORTERM", "24bit")]), ColorDepth::TrueColor);
    assert_eq!(detect(&[("COLORTERM", "TrueColor")]), ColorDepth::TrueColor);
    assert_eq!(detect(&[("TERM", "xterm-256color")]), ColorDepth::Ansi256);
    assert_eq!(
        detect(&[("TERM", "screen-256color"), ("COLORTERM", "yes")]),
        ColorDepth::Ansi256
    );
    assert_eq!(detect(&[("TERM", "xterm")]), ColorDepth::Ansi16);
    // NO_COLOR wins over everything, but only when non-empty.
    assert_eq!(
        detect(&[("NO_COLOR", "1"), ("COLORTERM", "truecolor")]),
        ColorDepth::None
    );
    assert_eq!(
        detect(&[("NO_COLOR", ""), ("COLORTERM", "truecolor")]),
        ColorDepth::TrueColor
    );
}

#[test]
fn nearest_256_legible_keeps_contrast() {
    use crate::theme::contrast::{contrast_ratio, legible};
    // #767676 has 4.54:1 on white; its nearest index (243, #767676) keeps it.
    assert_eq!(
        nearest_256_legible((0x76, 0x76, 0x76), (255, 255, 255), 4.5),
        243
    );
    let mut changed = 0;
    for bg in [
        (255, 255, 255),
        (0, 0, 0),
        (0xf5, 0xf5, 0xf5),
        (0x1a, 0x1a, 0x2e),
    ] {
        for v in (0..=255u8).step_by(5) {
            for fg in [(v, v, v), (v, v / 2, 0), (0, v / 2, v), (v / 3, v, v / 2)] {
                let fg = legible(fg, bg, 4.5);
                let index = nearest_256_legible(fg, bg, 4.5);
                assert!(
                    contrast_ratio(xterm_rgb(index), bg) >= 4.5,
                    "{fg:?} on {bg:?}"
                );
                changed += usize::from(index != nearest_256(fg.0, fg.1, fg.2));
            }
        }
    }
    // The plain nearest index would have lost contrast for some of these.
    assert!(changed > 0);
}

#[test]
fn nearest_16_legible_avoids_invisible_pairs() {
    const WHITE: (u8, u8, u8) = (255, 255, 255);
    const BLACK: (u8, u8, u8) = (0, 0, 0);
    // Dark brown text is "yellow" by hue: invisible on white, so black.
    assert_eq!(nearest_16(0x5c, 0x47, 0x18), Color::Yellow);
    assert_eq!(nearest_16_legible((0x5c, 0x47, 0x18), WHITE), Color::Black);
    // Dark grey on black: the lighter grey.
    assert_eq!(
        nearest_16_legible((0x30, 0x30, 0x30), BLACK),
        Color::DarkGray
    );
    // Pale yellow on white: neither yellow shows, so black.
    assert_eq!(nearest_16_legible((0xff, 0xf8, 0xdc), WHITE), Color::Black);
    // Fine pairs stay.
    assert_eq!(nearest_16_legible((0xc6, 0x28, 0x28), WHITE), Color::Red);
    assert_eq!(
        nearest_16_legible((0xff, 0xd7, 0x00), BLACK),
        Color::LightYellow
    );
}
