//! The built-in skins against Hermes Agent 0.19's own, as its code resolves them: the
//! fixture is written by the real Python code (`tests/fixtures/dump_hermes_skins.py`; the
//! command is in its docstring).

use std::collections::BTreeMap;

use ratatui::style::Color;
use serde::Deserialize;

use super::*;
use crate::theme::Palette;
use crate::theme::color::parse_color;
use crate::theme::color::to_hex;

const FIXTURE: &str = include_str!("../../tests/fixtures/hermes-skins-0.19.json");

#[derive(Deserialize)]
struct Fixture {
    skins: Vec<HermesSkin>,
}

#[derive(Deserialize)]
struct HermesSkin {
    name: String,
    description: String,
    colors: BTreeMap<String, String>,
    effective_colors: BTreeMap<String, String>,
    spinner: HermesSpinner,
    branding: BTreeMap<String, String>,
    tool_prefix: String,
    tool_emojis: BTreeMap<String, String>,
    banner_logo: String,
    banner_hero: String,
}

#[derive(Deserialize)]
struct HermesSpinner {
    waiting_faces: Vec<String>,
    thinking_faces: Vec<String>,
    thinking_verbs: Vec<String>,
    wings: Vec<(String, String)>,
}

fn rgb(hex: &str) -> Color {
    let (r, g, b) = parse_color(hex).unwrap_or_else(|| panic!("not a colour: {hex}"));
    Color::Rgb(r, g, b)
}

/// Every difference between one of our built-ins and Hermes's, as readable lines.
fn differences(ours: &Theme, hermes: &HermesSkin) -> Vec<String> {
    let mut out = Vec::new();
    let mut check = |what: &str, ours: String, theirs: String| {
        if ours != theirs {
            out.push(format!(
                "{}: {what}: ours {ours:?}, Hermes {theirs:?}",
                hermes.name
            ));
        }
    };
    check(
        "description",
        ours.description.clone(),
        hermes.description.clone(),
    );
    // What Hermes paints for each key: the skin's colour, else the CLI's fallback.
    let mut expected: BTreeMap<&str, Color> = BTreeMap::new();
    for (key, hex) in hermes.effective_colors.iter().chain(&hermes.colors) {
        expected.insert(key.as_str(), rgb(hex));
    }
    // Keys only Hermes's TUI draws, with its fallbacks.
    let current = expected["completion_menu_current_bg"];
    expected.entry("selection_bg").or_insert(current);
    expected.entry("shell_dollar").or_insert(rgb("#4dabf7"));
    for key in Palette::KEYS {
        match (ours.authored.colors.get(key), expected.get(key)) {
            (Some(o), Some(t)) => check(&format!("colors.{key}"), to_hex(o), to_hex(*t)),
            _ => check(
                &format!("colors.{key}"),
                "unset".into(),
                "not in the fixture".into(),
            ),
        }
    }
    let s = &ours.spinner;
    let h = &hermes.spinner;
    check(
        "spinner.waiting_faces",
        format!("{:?}", s.waiting_faces),
        format!("{:?}", h.waiting_faces),
    );
    check(
        "spinner.thinking_faces",
        format!("{:?}", s.thinking_faces),
        format!("{:?}", h.thinking_faces),
    );
    check(
        "spinner.thinking_verbs",
        format!("{:?}", s.thinking_verbs),
        format!("{:?}", h.thinking_verbs),
    );
    check(
        "spinner.wings",
        format!("{:?}", s.wings),
        format!("{:?}", h.wings),
    );
    let b = &ours.branding;
    for (key, value) in [
        ("agent_name", &b.agent_name),
        ("welcome", &b.welcome),
        ("goodbye", &b.goodbye),
        ("response_label", &b.response_label),
        ("prompt_symbol", &b.prompt_symbol),
        ("help_header", &b.help_header),
    ] {
        let theirs = hermes.branding.get(key).cloned().unwrap_or_default();
        check(&format!("branding.{key}"), value.clone(), theirs);
    }
    check(
        "tool_prefix",
        ours.tool_prefix.clone(),
        hermes.tool_prefix.clone(),
    );
    check(
        "tool_emojis",
        format!("{:?}", ours.tool_emojis),
        format!("{:?}", hermes.tool_emojis),
    );
    check(
        "banner_logo",
        ours.banner_logo.clone(),
        hermes.banner_logo.clone(),
    );
    check(
        "banner_hero",
        ours.banner_hero.clone(),
        hermes.banner_hero.clone(),
    );
    out
}

#[test]
fn every_built_in_is_hermes_0_19s_exactly() {
    let fixture: Fixture = serde_json::from_str(FIXTURE).unwrap();
    let theirs: Vec<&str> = fixture.skins.iter().map(|s| s.name.as_str()).collect();
    let ours: Vec<&str> = authored().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(ours, theirs, "the same skins in Hermes's order");
    let mut all = Vec::new();
    for hermes in &fixture.skins {
        all.extend(differences(find(&hermes.name).unwrap(), hermes));
    }
    assert!(
        all.is_empty(),
        "{} differences:\n{}",
        all.len(),
        all.join("\n")
    );
}

#[test]
fn the_comparison_catches_a_changed_colour() {
    let fixture: Fixture = serde_json::from_str(FIXTURE).unwrap();
    let mut ares = find("ares").unwrap().clone();
    ares.authored.colors.set("banner_border", rgb("#A93333"));
    let diffs = differences(&ares, &fixture.skins[1]);
    assert_eq!(diffs.len(), 1, "{diffs:?}");
    assert!(diffs[0].contains("colors.banner_border"));
}

#[test]
fn every_built_in_parses_without_notices() {
    for (name, text) in BUILTIN {
        let base = if name == "default" {
            blank()
        } else {
            default_skin()
        };
        let (_, notices) = skin::parse(text, &file_label(name), name, &base).unwrap();
        assert!(notices.is_empty(), "{name}: {notices:?}");
    }
}
