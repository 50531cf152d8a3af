#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::theme::builtin::default_skin;

fn parse_ok(text: &str) -> (Theme, Vec<Notice>) {
    parse(text, "s.yaml", "s", &default_skin()).unwrap()
}

#[test]
fn inherits_key_by_key() {
    let (skin, notices) = parse_ok("colors:\n  ui_ok: \"#010203\"\nbranding:\n  goodbye: bye\n");
    assert!(notices.is_empty());
    let base = default_skin();
    assert_eq!(skin.authored.colors.ui_ok, Color::Rgb(1, 2, 3));
    assert_eq!(skin.authored.colors.ui_error, base.authored.colors.ui_error);
    assert_eq!(skin.branding.goodbye, "bye");
    assert_eq!(skin.branding.agent_name, base.branding.agent_name);
    assert_eq!(skin.name, "s");
    assert_eq!(skin.description, "");
}

#[test]
fn light_dark_colors_and_tool_emojis_are_not_inherited() {
    let base = default_skin();
    assert!(!base.authored.light_colors.is_empty());
    let (skin, _) = parse_ok("description: d\n");
    assert!(skin.authored.light_colors.is_empty());
    assert!(skin.authored.dark_colors.is_empty());
    assert!(skin.tool_emojis.is_empty());
    let (skin, _) = parse_ok("light_colors:\n  ui_ok: \"#000\"\ntool_emojis:\n  terminal: \">\"\n");
    assert_eq!(skin.authored.light_colors["ui_ok"], Color::Rgb(0, 0, 0));
    assert_eq!(skin.tool_emojis["terminal"], ">");
}

#[test]
fn empty_spinner_lists_inherit_but_empty_wings_do_not() {
    let (skin, notices) =
        parse_ok("spinner:\n  thinking_verbs: []\n  wings: []\n  waiting_faces:\n");
    assert!(notices.is_empty());
    let base = default_skin();
    assert_eq!(skin.spinner.thinking_verbs, base.spinner.thinking_verbs);
    assert_eq!(skin.spinner.waiting_faces, base.spinner.waiting_faces);
    assert!(skin.spinner.wings.is_empty());
}

#[test]
fn unknown_keys_are_warnings_with_suggestions() {
    let (_, notices) = parse_ok("colours:\n  ui_ok: \"#000\"\nbranding:\n  agent: x\n");
    assert_eq!(notices.len(), 2);
    assert!(notices.iter().all(|n| n.severity == Severity::Warning));
    assert_eq!(
        notices[0].text,
        "s.yaml:1: colours: unknown key (ignored) — did you mean `colors`?"
    );
    assert_eq!(
        notices[1].text,
        "s.yaml:4: branding.agent: unknown key (ignored)"
    );
}

#[test]
fn wrong_types_are_errors_for_that_key() {
    let (skin, notices) =
        parse_ok("tool_prefix: 3\ncolors: [a]\ntool_emojis:\n  terminal: 1\n  patch: p\n");
    assert_eq!(skin.tool_prefix, default_skin().tool_prefix);
    assert_eq!(skin.tool_emojis.len(), 1);
    let texts: Vec<&str> = notices.iter().map(|n| n.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "s.yaml:1: tool_prefix: expected a string, found `3` (a number); using the inherited value",
            "s.yaml:2: colors: expected a mapping, found a list; using the inherited value",
            "s.yaml:4: tool_emojis.terminal: expected a string, found `1` (a number); using the inherited value",
        ]
    );
    assert!(notices.iter().all(|n| n.severity == Severity::Error));
}

#[test]
fn syntax_errors_carry_line_and_column() {
    let err = parse("a: b\n  c: d\n", "s.yaml", "s", &default_skin()).unwrap_err();
    assert!(err.text.starts_with("s.yaml:2:"), "{}", err.text);
    assert!(!err.text.contains(" at line "), "{}", err.text);
    let err = parse("[1, 2", "s.yaml", "s", &default_skin()).unwrap_err();
    assert!(err.text.contains("not valid YAML"));
}

#[test]
fn near_misses_suggest_the_closest_key() {
    assert_eq!(closest("wingz", SPINNER_KEYS), Some("wings"));
    assert_eq!(closest("zzzzzz", SPINNER_KEYS), None);
}

#[test]
fn a_repeated_key_keeps_the_last_value_with_a_warning_naming_its_lines() {
    let text = "name: dup\ncolors:\n  status_bar_bg: \"#111111\"\n  ui_ok: \"#00ff00\"\n  status_bar_bg: \"#222222\"\n";
    let (skin, notices) = parse_ok(text);
    assert_eq!(
        skin.authored.colors.status_bar_bg,
        Color::Rgb(0x22, 0x22, 0x22)
    );
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(notices[0].severity, Severity::Warning);
    assert_eq!(
        notices[0].text,
        "s.yaml:5: colors.status_bar_bg: repeated (first on line 3); the last value is used, as Hermes does"
    );
}

#[test]
fn unset_colours_are_derived_from_the_skins_own_as_hermes_paints_them() {
    let text = "colors:\n  banner_dim: \"#102030\"\n  banner_text: \"#405060\"\n  status_bar_bg: \"#000011\"\n  completion_menu_current_bg: \"#445566\"\n  status_bar_bad: \"#ABCDEF\"\n";
    let (skin, notices) = parse_ok(text);
    assert!(notices.is_empty());
    let c = &skin.authored.colors;
    assert_eq!(
        c.status_bar_dim,
        Color::Rgb(0x10, 0x20, 0x30),
        "from banner_dim"
    );
    assert_eq!(
        c.status_bar_text,
        Color::Rgb(0x40, 0x50, 0x60),
        "from banner_text"
    );
    assert_eq!(
        c.voice_status_bg,
        Color::Rgb(0, 0, 0x11),
        "from status_bar_bg"
    );
    assert_eq!(
        c.status_bar_bad,
        Color::Rgb(0xAB, 0xCD, 0xEF),
        "set, so kept"
    );
    assert_eq!(
        c.completion_menu_bg,
        Color::Rgb(0x1a, 0x1a, 0x2e),
        "Hermes's fixed default"
    );
    assert_eq!(
        c.completion_menu_meta_current_bg,
        Color::Rgb(0x44, 0x55, 0x66)
    );
    assert_eq!(c.selection_bg, Color::Rgb(0x44, 0x55, 0x66));
    // Keys the default skin sets are inherited, not derived.
    assert_eq!(c.ui_ok, default_skin().authored.colors.ui_ok);
}
