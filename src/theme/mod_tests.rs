#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use super::skins::{LoadOptions, load};
use super::*;

fn with_depth(depth: ColorDepth) -> Theme {
    Theme::default().adapt(&LoadOptions {
        depth,
        background: None,
        mode: ThemeMode::Auto,
    })
}

#[test]
fn default_is_the_default_skin_on_dark_in_truecolor() {
    let theme = Theme::default();
    assert_eq!(theme.name, "default");
    assert_eq!(theme.depth, ColorDepth::TrueColor);
    assert_eq!(theme.background, Background::Dark);
    assert_eq!(theme.branding.agent_name, "Hermes Agent");
    assert_eq!(
        theme.style(Role::Accent).fg,
        Some(Color::Rgb(0xFF, 0xBF, 0x00))
    );
    assert_eq!(Palette::default(), theme.palette);
}

#[test]
fn styles_follow_the_colour_depth() {
    let accent = |depth| with_depth(depth).style(Role::Accent).fg;
    assert_eq!(
        accent(ColorDepth::TrueColor),
        Some(Color::Rgb(0xFF, 0xBF, 0x00))
    );
    assert_eq!(accent(ColorDepth::Ansi256), Some(Color::Indexed(214)));
    assert_eq!(accent(ColorDepth::Ansi16), Some(Color::LightYellow));
    let bar = |depth| with_depth(depth).style(Role::StatusBar).bg;
    assert_eq!(bar(ColorDepth::Ansi256), Some(Color::Indexed(234)));
    assert_eq!(bar(ColorDepth::Ansi16), Some(Color::Black));
}

#[test]
fn no_color_keeps_modifiers_and_reverses_highlights() {
    let theme = with_depth(ColorDepth::None);
    for role in Role::ALL {
        let style = theme.style(*role);
        assert_eq!((style.fg, style.bg), (None, None), "{role:?}");
    }
    assert!(
        theme
            .style(Role::Heading)
            .add_modifier
            .contains(Modifier::BOLD)
    );
    assert!(theme.style(Role::Dim).add_modifier.contains(Modifier::DIM));
    assert!(
        theme
            .style(Role::Reasoning)
            .add_modifier
            .contains(Modifier::ITALIC)
    );
    for role in [Role::Selection, Role::Badge, Role::MenuCurrent] {
        assert!(theme.style(role).add_modifier.contains(Modifier::REVERSED));
    }
    assert_eq!(theme.rgb(1, 2, 3), Style::default());
}

#[test]
fn rgb_is_made_legible_and_converted() {
    let dark = Theme::default();
    assert_eq!(
        dark.rgb(0xc0, 0xc5, 0xce).fg,
        Some(Color::Rgb(0xc0, 0xc5, 0xce))
    );
    let (light, _) = load(
        Path::new("/nonexistent"),
        "default",
        &LoadOptions {
            depth: ColorDepth::TrueColor,
            background: Some(Background::Light),
            mode: ThemeMode::Auto,
        },
    );
    let Some(Color::Rgb(r, g, b)) = light.rgb(0xc0, 0xc5, 0xce).fg else {
        panic!("not rgb");
    };
    assert!(contrast::contrast_ratio((r, g, b), (255, 255, 255)) >= 4.5);
    assert_eq!(
        with_depth(ColorDepth::Ansi256).rgb(255, 0, 0).fg,
        Some(Color::Indexed(196))
    );
}

#[test]
fn spinner_text_cycles_and_never_panics() {
    let theme = Theme::default();
    let verbs = &theme.spinner.thinking_verbs;
    assert_eq!(theme.spinner_verb(0), verbs[0]);
    assert_eq!(theme.spinner_verb(verbs.len() + 2), verbs[2]);
    assert_eq!(theme.thinking_face(1), theme.spinner.thinking_faces[1]);
    assert_eq!(theme.waiting_face(0), theme.spinner.waiting_faces[0]);
    assert_eq!(theme.wings(0), None);
    let mut empty = theme.clone();
    empty.spinner = Spinner::default();
    assert_eq!(empty.spinner_verb(7), "thinking");
    assert!(!empty.thinking_face(3).is_empty());
    assert!(!empty.waiting_face(3).is_empty());
}

#[test]
fn tool_emoji_prefers_the_skin() {
    let mut theme = Theme::default();
    assert_eq!(theme.tool_emoji("terminal"), "💻");
    assert_eq!(theme.tool_emoji("mystery"), "🛠️");
    theme.tool_emojis.insert("terminal".into(), "⚔".into());
    assert_eq!(theme.tool_emoji("terminal"), "⚔");
    assert_eq!(theme.tool_emoji("patch"), "🔧");
}

#[test]
fn with_background_rgb_ignores_the_wrong_polarity() {
    let theme = Theme::default();
    assert_eq!(theme.with_background_rgb(255, 255, 255), theme);
    let grey = theme.with_background_rgb(0x30, 0x30, 0x30);
    assert_eq!(grey.background_rgb, (0x30, 0x30, 0x30));
    let Some(Color::Rgb(r, g, b)) = grey.style(Role::Border).fg else {
        panic!("not rgb");
    };
    assert!(contrast::contrast_ratio((r, g, b), (0x30, 0x30, 0x30)) >= 4.5);
}

/// Issue 10: widgets ask the theme for roles; no raw colours outside `theme/`. Scans the
/// non-test sources for `Color::…`, `style::Color` and ratatui's colour shorthands.
#[test]
fn no_raw_colours_outside_the_theme() {
    fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    const SHORTHANDS: &[&str] = &[
        "black",
        "red",
        "green",
        "yellow",
        "blue",
        "magenta",
        "cyan",
        "gray",
        "dark_gray",
        "light_red",
        "light_green",
        "light_yellow",
        "light_blue",
        "light_magenta",
        "light_cyan",
        "white",
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut offenders = Vec::new();
    for file in files {
        let relative = file
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let is_test = relative.ends_with("_tests.rs") || relative.contains("test_support");
        if relative.starts_with("theme/") || is_test {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        // Inline test modules sit at the end of a file; stop there.
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (n, line) in code.lines().enumerate() {
            let line = line.trim_start();
            if line.starts_with("//") {
                continue;
            }
            let raw_color = line.match_indices("Color::").any(|(at, _)| {
                !line[..at]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_')
            });
            let shorthand = SHORTHANDS.iter().any(|name| {
                line.contains(&format!(".{name}()")) || line.contains(&format!(".on_{name}()"))
            });
            if raw_color || line.contains("style::Color") || shorthand {
                offenders.push(format!("src/{relative}:{}: {line}", n + 1));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "raw colours outside theme/:\n{}",
        offenders.join("\n")
    );
}
