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
    assert_eq!(theme.tool_emoji("mystery"), "🔌");
    theme.tool_emojis.insert("terminal".into(), "⚔".into());
    assert_eq!(theme.tool_emoji("terminal"), "⚔");
    assert_eq!(theme.tool_emoji("patch"), "🔧");
}

#[test]
fn tool_emoji_have_one_width_in_every_terminal() {
    use unicode_width::UnicodeWidthStr;
    let mut theme = Theme::default();
    for tool in [
        "terminal",
        "process",
        "read_file",
        "write_file",
        "patch",
        "search_files",
        "todo",
        "clarify",
        "web_search",
        "web_extract",
        "memory",
        "delegate_task",
        "execute_code",
        "mcp_files_read",
    ] {
        let emoji = theme.tool_emoji(tool);
        assert!(!emoji.contains('\u{FE0F}'), "{tool}: {emoji}");
        assert_eq!(emoji.width(), 2, "{tool}: {emoji}");
    }
    // A skin's `⚙️` (text symbol + VS16) is drawn as the one-column symbol.
    theme.tool_emojis.insert("process".into(), "⚙️".into());
    assert_eq!(theme.tool_emoji("process"), "⚙");
    assert_eq!(theme.tool_emoji("process").width(), 1);
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
