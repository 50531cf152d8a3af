#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

const WHITE: Rgb = (255, 255, 255);
const BLACK: Rgb = (0, 0, 0);

fn hue_degrees(c: Rgb) -> f64 {
    to_oklch(c).h.to_degrees()
}

#[test]
fn contrast_ratio_matches_wcag_examples() {
    assert!((contrast_ratio(BLACK, WHITE) - 21.0).abs() < 1e-9);
    assert!((contrast_ratio(WHITE, WHITE) - 1.0).abs() < 1e-9);
    // #767676 on white is the classic 4.54:1.
    let grey = contrast_ratio((0x76, 0x76, 0x76), WHITE);
    assert!((grey - 4.54).abs() < 0.01, "{grey}");
    assert!((relative_luminance(WHITE) - 1.0).abs() < 1e-9);
}

#[test]
fn legible_leaves_good_colours_alone() {
    assert_eq!(legible((0x2e, 0x7d, 0x32), WHITE, 4.5), (0x2e, 0x7d, 0x32));
    assert_eq!(legible((0xff, 0xd7, 0x00), BLACK, 4.5), (0xff, 0xd7, 0x00));
}

#[test]
fn legible_darkens_on_light_and_keeps_the_hue() {
    let gold = (0xff, 0xd7, 0x00);
    let fixed = legible(gold, WHITE, 4.5);
    let ratio = contrast_ratio(fixed, WHITE);
    assert!((4.5..4.7).contains(&ratio), "{fixed:?} {ratio}");
    assert!(relative_luminance(fixed) < relative_luminance(gold));
    assert!((hue_degrees(fixed) - hue_degrees(gold)).abs() < 3.0);
}

#[test]
fn legible_lightens_on_dark_and_keeps_the_hue() {
    let navy = (0x1d, 0x4e, 0xd8);
    let fixed = legible(navy, BLACK, 4.5);
    let ratio = contrast_ratio(fixed, BLACK);
    assert!((4.5..4.7).contains(&ratio), "{fixed:?} {ratio}");
    assert!((hue_degrees(fixed) - hue_degrees(navy)).abs() < 3.0);
}

#[test]
fn legible_reaches_the_target_for_every_grey_and_primary() {
    for bg in [
        WHITE,
        BLACK,
        (0x1a, 0x1a, 0x2e),
        (0xf5, 0xf0, 0xe8),
        (0x77, 0x77, 0x77),
    ] {
        for v in (0..=255u8).step_by(15) {
            for fg in [(v, v, v), (v, 0, 0), (0, v, 0), (0, 0, v), (v, v, 0)] {
                let fixed = legible(fg, bg, 4.5);
                let best = contrast_ratio(BLACK, bg).max(contrast_ratio(WHITE, bg));
                assert!(
                    contrast_ratio(fixed, bg) >= 4.5_f64.min(best),
                    "{fg:?} on {bg:?} → {fixed:?}"
                );
            }
        }
    }
}

#[test]
fn an_unreachable_target_gives_black_or_white() {
    // Nothing reaches 10:1 on mid grey: the better extreme is returned.
    let grey = (0x77, 0x77, 0x77);
    let fixed = legible((0x70, 0x70, 0x70), grey, 10.0);
    assert!(fixed == BLACK || fixed == WHITE);
}

#[test]
fn legible_cached_matches_legible() {
    let fg = (0xc0, 0xc5, 0xce);
    assert_eq!(legible_cached(fg, WHITE, 4.5), legible(fg, WHITE, 4.5));
    assert_eq!(legible_cached(fg, WHITE, 4.5), legible(fg, WHITE, 4.5));
}

#[test]
fn mirror_surface_flips_polarity_and_keeps_the_hue() {
    let navy = (0x0f, 0x24, 0x40);
    let light = mirror_surface(navy, Background::Light);
    assert!(relative_luminance(light) > 0.6, "{light:?}");
    assert!((hue_degrees(light) - hue_degrees(navy)).abs() < 5.0);
    let pale = (0xe5, 0xed, 0xf8);
    let dark = mirror_surface(pale, Background::Dark);
    assert!(relative_luminance(dark) < 0.05, "{dark:?}");
}

#[test]
fn mirror_text_reverses_the_lightness_order() {
    let bright = mirror_text((0xf5, 0xf5, 0xf5), Background::Light);
    let medium = mirror_text((0xb7, 0xb7, 0xb7), Background::Light);
    assert!(relative_luminance(bright) < relative_luminance(medium));
    // And back again, close to where it started.
    let back = mirror_text(
        mirror_text((0xb7, 0xb7, 0xb7), Background::Light),
        Background::Dark,
    );
    assert!(contrast_ratio(back, (0xb7, 0xb7, 0xb7)) < 1.05, "{back:?}");
}
