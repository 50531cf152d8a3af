#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

#[test]
fn colorfgbg_classifies_the_background_index() {
    assert_eq!(from_colorfgbg("15;0"), Some(Background::Dark));
    assert_eq!(from_colorfgbg("0;15"), Some(Background::Light));
    assert_eq!(from_colorfgbg("0;7"), Some(Background::Light));
    assert_eq!(from_colorfgbg("7;4"), Some(Background::Dark));
    // rxvt's three fields: the last is the background.
    assert_eq!(from_colorfgbg("0;default;15"), Some(Background::Light));
    assert_eq!(from_colorfgbg("default;default"), None);
    assert_eq!(from_colorfgbg(""), None);
    assert_eq!(from_colorfgbg("15;99"), None);
    assert_eq!(from_colorfgbg("garbage"), None);
}

#[test]
fn osc11_replies_with_either_terminator_and_any_digit_count() {
    assert_eq!(
        parse_osc11_reply(b"\x1b]11;rgb:ffff/ffff/ffff\x1b\\"),
        Some((255, 255, 255))
    );
    assert_eq!(
        parse_osc11_reply(b"\x1b]11;rgb:0000/0000/0000\x07"),
        Some((0, 0, 0))
    );
    assert_eq!(
        parse_osc11_reply(b"\x1b]11;rgb:1e1e/1e1e/2e2e\x07"),
        Some((0x1e, 0x1e, 0x2e))
    );
    assert_eq!(
        parse_osc11_reply(b"\x1b]11;rgb:fd/f6/e3\x07"),
        Some((0xfd, 0xf6, 0xe3))
    );
    assert_eq!(
        parse_osc11_reply(b"\x1b]11;rgb:f/8/0\x07"),
        Some((255, 136, 0))
    );
    assert_eq!(
        parse_osc11_reply(b"\x1b]11;rgb:800/800/800\x07"),
        Some((128, 128, 128))
    );
    assert_eq!(
        parse_osc11_reply(b"\x1b]11;rgba:ffff/0000/0000/ffff\x1b\\"),
        Some((255, 0, 0))
    );
    // Other bytes before the reply are skipped.
    assert_eq!(
        parse_osc11_reply(b"x\x1b[?1;2c\x1b]11;rgb:ffff/ffff/ffff\x07"),
        Some((255, 255, 255))
    );
}

#[test]
fn osc11_garbage_is_none() {
    for bad in [
        &b""[..],
        b"garbage",
        b"\x1b]11;rgb:ffff/ffff/ffff",
        b"\x1b]11;rgb:ffff/ffff\x07",
        b"\x1b]11;rgb:fffff/ffff/ffff\x07",
        b"\x1b]11;rgb:gg/00/00\x07",
        b"\x1b]11;rgb://\x07",
        b"\x1b]11;?\x07",
        b"\x1b]10;rgb:ffff/ffff/ffff\x07",
        b"\x1b]11;rgb:ffff/ffff/ffff\x1bX",
    ] {
        assert_eq!(parse_osc11_reply(bad), None, "{bad:?}");
    }
}

#[test]
fn from_rgb_uses_relative_luminance() {
    assert_eq!(from_rgb(0, 0, 0), Background::Dark);
    assert_eq!(from_rgb(255, 255, 255), Background::Light);
    assert_eq!(from_rgb(0x1e, 0x1e, 0x1e), Background::Dark);
    assert_eq!(from_rgb(0xfd, 0xf6, 0xe3), Background::Light);
    // Saturated blue is dark even though one channel is full.
    assert_eq!(from_rgb(0, 0, 255), Background::Dark);
    // Around the crossover (luminance ≈ 0.18, about #767676).
    assert_eq!(from_rgb(0x70, 0x70, 0x70), Background::Dark);
    assert_eq!(from_rgb(0x7c, 0x7c, 0x7c), Background::Light);
}

#[test]
fn theme_mode_parses_and_resolves() {
    assert_eq!(ThemeMode::parse("auto"), (ThemeMode::Auto, None));
    assert_eq!(ThemeMode::parse(" Light "), (ThemeMode::Light, None));
    assert_eq!(ThemeMode::parse("DARK"), (ThemeMode::Dark, None));
    assert_eq!(ThemeMode::parse(""), (ThemeMode::Auto, None));
    let (mode, warning) = ThemeMode::parse("sepia");
    assert_eq!(mode, ThemeMode::Auto);
    assert!(warning.unwrap().contains("`sepia`"));
    assert_eq!(ThemeMode::Auto.resolve(None), Background::Dark);
    assert_eq!(
        ThemeMode::Auto.resolve(Some(Background::Light)),
        Background::Light
    );
    assert_eq!(
        ThemeMode::Dark.resolve(Some(Background::Light)),
        Background::Dark
    );
    assert_eq!(ThemeMode::Light.resolve(None), Background::Light);
}

#[test]
fn the_query_is_osc_11() {
    assert_eq!(OSC11_QUERY.as_bytes(), b"\x1b]11;?\x1b\\");
}
