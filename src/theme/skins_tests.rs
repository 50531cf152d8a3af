#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use ratatui::style::{Color, Modifier};

use super::*;
use crate::theme::contrast::contrast_ratio;
use crate::theme::{Palette, Role};

const NO_DIR: &str = "/nonexistent/hermes-skins";
const NAMES: [&str; 9] = [
    "default",
    "ares",
    "mono",
    "slate",
    "daylight",
    "warm-lightmode",
    "poseidon",
    "sisyphus",
    "charizard",
];

fn options(background: Background) -> LoadOptions {
    LoadOptions {
        depth: ColorDepth::TrueColor,
        background: Some(background),
        mode: ThemeMode::Auto,
    }
}

fn rgb(color: Option<Color>) -> Option<(u8, u8, u8)> {
    match color {
        Some(Color::Rgb(r, g, b)) => Some((r, g, b)),
        _ => None,
    }
}

/// Contrast of a role's text with what it is drawn on: its own background, or the
/// terminal's. Roles without a colour of their own (`Text`, `Dim`, `Selection`'s text) use
/// the terminal's default foreground, taken as white on dark and black on light.
fn role_contrast(theme: &Theme, role: Role) -> f64 {
    let style = theme.style(role);
    let default_fg = match theme.background {
        Background::Dark => (255, 255, 255),
        Background::Light => (0, 0, 0),
    };
    let fg = rgb(style.fg).unwrap_or(default_fg);
    let bg = rgb(style.bg).unwrap_or(theme.background_rgb);
    contrast_ratio(fg, bg)
}

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn builtins_load_without_notices_in_order() {
    let infos = list(Path::new(NO_DIR));
    let names: Vec<&str> = infos.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, NAMES);
    for info in &infos {
        assert_eq!(info.source, SkinSource::BuiltIn);
        assert!(!info.description.is_empty(), "{}", info.name);
    }
    for name in NAMES {
        for background in [Background::Dark, Background::Light] {
            let (theme, notices) = load(Path::new(NO_DIR), name, &options(background));
            assert!(notices.is_empty(), "{name}: {notices:?}");
            assert_eq!(theme.name, name);
            assert_eq!(theme.background, background);
        }
    }
}

#[test]
fn every_builtin_has_every_key() {
    for name in NAMES {
        let (theme, _) = load(Path::new(NO_DIR), name, &LoadOptions::default());
        for key in Palette::KEYS {
            let color = theme.authored.colors.get(key).unwrap();
            assert!(matches!(color, Color::Rgb(..)), "{name}.colors.{key}");
            assert!(matches!(theme.palette.get(key), Some(Color::Rgb(..))));
        }
        let s = &theme.spinner;
        assert!(
            !s.waiting_faces.is_empty() && !s.thinking_faces.is_empty(),
            "{name}"
        );
        assert!(!s.thinking_verbs.is_empty(), "{name}");
        let b = &theme.branding;
        for value in [
            &b.agent_name,
            &b.welcome,
            &b.goodbye,
            &b.response_label,
            &b.prompt_symbol,
            &b.help_header,
            &theme.tool_prefix,
            &theme.banner_logo,
            &theme.banner_hero,
            &theme.description,
        ] {
            assert!(!value.trim().is_empty(), "{name}: an empty value");
        }
    }
}

#[test]
fn builtins_keep_their_own_values_and_inherit_the_rest() {
    let (ares, _) = load(Path::new(NO_DIR), "ares", &LoadOptions::default());
    assert_eq!(
        ares.authored.colors.banner_border,
        Color::Rgb(0x9F, 0x1C, 0x1C)
    );
    assert_eq!(ares.branding.agent_name, "Ares Agent");
    assert_eq!(ares.spinner.wings[0], ("⟪⚔".to_owned(), "⚔⟫".to_owned()));
    assert_eq!(ares.tool_prefix, "╎");
    // ares sets no completion menu colours: Hermes's fallback, as for every skin.
    assert_eq!(
        ares.authored.colors.completion_menu_meta_bg,
        Color::Rgb(0x1a, 0x1a, 0x2e)
    );
    // light_colors is not inherited from default.
    assert!(ares.authored.light_colors.is_empty());
    let (mono, _) = load(Path::new(NO_DIR), "mono", &LoadOptions::default());
    assert_eq!(mono.spinner, Theme::default().spinner);
    assert!(mono.spinner.wings.is_empty());
    assert_eq!(mono.banner_logo, Theme::default().banner_logo);
}

#[test]
fn every_role_is_legible_in_every_builtin_on_both_backgrounds() {
    for name in NAMES {
        for background in [Background::Dark, Background::Light] {
            let (theme, _) = load(Path::new(NO_DIR), name, &options(background));
            for role in Role::ALL {
                let ratio = role_contrast(&theme, *role);
                let dim_by_modifier = theme.style(*role).add_modifier.contains(Modifier::DIM)
                    && theme.style(*role).fg.is_none();
                if !dim_by_modifier {
                    assert!(
                        ratio >= 4.5,
                        "{name} on {background:?}: {role:?} has contrast {ratio:.2}"
                    );
                }
            }
        }
    }
}

#[test]
fn every_role_stays_legible_in_256_colours() {
    for name in NAMES {
        for background in [Background::Dark, Background::Light] {
            let opts = LoadOptions {
                depth: ColorDepth::Ansi256,
                ..options(background)
            };
            let (theme, _) = load(Path::new(NO_DIR), name, &opts);
            for role in Role::ALL {
                let style = theme.style(*role);
                let Some(Color::Indexed(fg)) = style.fg else {
                    continue;
                };
                let bg = match style.bg {
                    Some(Color::Indexed(bg)) => crate::theme::color::xterm_rgb(bg),
                    _ => theme.background_rgb,
                };
                let ratio = contrast_ratio(crate::theme::color::xterm_rgb(fg), bg);
                assert!(
                    ratio >= 4.5,
                    "{name} on {background:?}: {role:?} {ratio:.2}"
                );
            }
        }
    }
}

#[test]
fn no_role_is_invisible_in_16_colours() {
    for name in NAMES {
        for background in [Background::Dark, Background::Light] {
            let opts = LoadOptions {
                depth: ColorDepth::Ansi16,
                ..options(background)
            };
            let (theme, _) = load(Path::new(NO_DIR), name, &opts);
            let shade = crate::theme::color::rgb_of;
            for role in Role::ALL {
                let style = theme.style(*role);
                let bg = style.bg.map_or(theme.background_rgb, shade);
                if let Some(fg) = style.fg {
                    let ratio = contrast_ratio(shade(fg), bg);
                    assert!(
                        ratio >= 2.0,
                        "{name} on {background:?}: {role:?} {ratio:.2}"
                    );
                }
            }
            // The selection differs from the terminal's background.
            let selection = theme.style(Role::Selection).bg.map(shade);
            assert_ne!(
                selection,
                Some(theme.background_rgb),
                "{name} {background:?}"
            );
        }
    }
}

#[test]
fn legible_on_the_real_background_colour() {
    for name in NAMES {
        for bg in [
            (0x1e, 0x1e, 0x1e),
            (0x28, 0x2c, 0x34),
            (0xfd, 0xf6, 0xe3),
            (0xee, 0xee, 0xee),
        ] {
            let background = crate::theme::background::from_rgb(bg.0, bg.1, bg.2);
            let (theme, _) = load(Path::new(NO_DIR), name, &options(background));
            let theme = theme.with_background_rgb(bg.0, bg.1, bg.2);
            assert_eq!(theme.background_rgb, bg);
            for role in [
                Role::Accent,
                Role::Code,
                Role::Tool,
                Role::Border,
                Role::Error,
            ] {
                let ratio = role_contrast(&theme, role);
                assert!(ratio >= 4.5, "{name} on {bg:?}: {role:?} {ratio:.2}");
            }
        }
    }
}

#[test]
fn light_background_uses_light_colors_and_forced_modes_win() {
    let (light, _) = load(Path::new(NO_DIR), "default", &options(Background::Light));
    // default.yaml's light_colors ui_ok #2E7D32 already has 5.1:1 on white: used as is.
    assert_eq!(light.palette.ui_ok, Color::Rgb(0x2E, 0x7D, 0x32));
    assert_eq!(light.palette.status_bar_bg, Color::Rgb(0xF5, 0xF5, 0xF5));
    let forced = LoadOptions {
        depth: ColorDepth::TrueColor,
        background: Some(Background::Dark),
        mode: ThemeMode::Light,
    };
    let (theme, _) = load(Path::new(NO_DIR), "default", &forced);
    assert_eq!(theme, light);
    // Unknown background counts as dark.
    let (unknown, _) = load(Path::new(NO_DIR), "default", &LoadOptions::default());
    assert_eq!(unknown, Theme::default());
    assert_eq!(unknown.background, Background::Dark);
}

#[test]
fn a_dark_skin_on_a_light_terminal_keeps_its_hierarchy() {
    let (theme, _) = load(Path::new(NO_DIR), "sisyphus", &options(Background::Light));
    let l = |c: Color| crate::theme::contrast::relative_luminance(rgb(Some(c)).unwrap());
    let p = &theme.palette;
    // On dark: title (#F5F5F5) brighter than text (#D3D3D3) brighter than ok (#919191).
    // On light the order reverses: the title is the darkest.
    assert!(l(p.banner_title) < l(p.banner_text), "{p:?}");
    assert!(l(p.banner_text) < l(p.ui_ok), "{p:?}");
}

#[test]
fn dark_only_skin_on_light_terminal_keeps_hues_and_flips_panels() {
    let (theme, _) = load(Path::new(NO_DIR), "poseidon", &options(Background::Light));
    // Panels move to light tints; text darkens.
    let bar = rgb(Some(theme.palette.status_bar_bg)).unwrap();
    assert_eq!(
        crate::theme::background::from_rgb(bar.0, bar.1, bar.2),
        Background::Light
    );
    let (r, g, b) = rgb(Some(theme.palette.ui_accent)).unwrap();
    assert!(b > r && b > g, "poseidon's accent stays blue: {r},{g},{b}");
    assert!(contrast_ratio((r, g, b), (255, 255, 255)) >= 4.5);
}

#[test]
fn dark_colors_overlay_applies_on_dark_only() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "paper.yaml",
        // Written for light terminals (dark body text), with a dark-terminal accent.
        "colors:\n  banner_text: \"#111111\"\n  ui_accent: \"#1D4ED8\"\ndark_colors:\n  ui_accent: \"#93C5FD\"\n",
    );
    let (dark, notices) = load(dir.path(), "paper", &options(Background::Dark));
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(dark.palette.ui_accent, Color::Rgb(0x93, 0xC5, 0xFD));
    let (light, _) = load(dir.path(), "paper", &options(Background::Light));
    assert_eq!(light.palette.ui_accent, Color::Rgb(0x1D, 0x4E, 0xD8));
}

#[test]
fn a_user_skin_with_a_byte_order_mark_loads_like_one_without() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "bom.yaml",
        "\u{feff}name: bom\ncolors:\n  ui_accent: \"#FF00FF\"\n",
    );
    let (theme, notices) = load(dir.path(), "bom", &LoadOptions::default());
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(theme.palette.ui_accent, Color::Rgb(0xFF, 0x00, 0xFF));
    assert_eq!(validate_file(&path), Ok(Vec::new()));
}

#[test]
fn a_user_skin_overriding_one_key_inherits_the_rest_from_default() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "mine.yaml",
        "name: mine\ncolors:\n  ui_accent: \"#FF00FF\"\n",
    );
    let (theme, notices) = load(dir.path(), "mine", &LoadOptions::default());
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(
        load(dir.path(), "mine.yaml", &LoadOptions::default()).0,
        theme
    );
    assert_eq!(theme.palette.ui_accent, Color::Rgb(0xFF, 0x00, 0xFF));
    let default = Theme::default();
    let mut expected = default.authored.colors.clone();
    expected.ui_accent = Color::Rgb(0xFF, 0x00, 0xFF);
    assert_eq!(theme.authored.colors, expected);
    assert_eq!(theme.branding, default.branding);
    assert_eq!(theme.spinner, default.spinner);
    // default's light_colors are not inherited.
    assert!(theme.authored.light_colors.is_empty());
    let infos = list(dir.path());
    assert_eq!(infos.len(), 10);
    assert_eq!(infos[9].name, "mine");
    assert_eq!(infos[9].source, SkinSource::User(path));
}

#[test]
fn a_user_file_named_like_a_builtin_replaces_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "ares.yaml",
        "description: my ares\nbranding:\n  agent_name: Mars\n",
    );
    let infos = list(dir.path());
    assert_eq!(infos.len(), 9);
    assert_eq!(infos[1].name, "ares");
    assert_eq!(infos[1].description, "my ares");
    assert_eq!(infos[1].source, SkinSource::User(path));
    let (theme, _) = load(dir.path(), "ares", &LoadOptions::default());
    assert_eq!(theme.branding.agent_name, "Mars");
    // The user's file inherits from default, not from the built-in ares.
    assert_eq!(theme.tool_prefix, "┊");
}

/// A skin as Hermes users write them (the example in Hermes's docs, plus typical edits).
const HERMES_USER_SKIN: &str = r##"# ~/.hermes/skins/cyberpunk.yaml
name: cyberpunk
description: Neon-soaked terminal theme

colors:
  banner_border: "#FF00FF"
  banner_title: "#00FFFF"
  banner_accent: "#FF1493"
  banner_dim: "#8B008B"
  banner_text: "#E0E0E0"
  ui_accent: "#00FFFF"
  ui_label: "#FF00FF"
  ui_ok: "#39FF14"
  ui_error: "#FF0040"
  ui_warn: "#FFD700"
  prompt: "#E0E0E0"
  input_rule: "#FF00FF"
  response_border: "#00FFFF"
  session_label: "#FF1493"
  session_border: "#8B008B"
  status_bar_bg: "#0D0D0D"

spinner:
  waiting_faces: ["(⚡)", "(✧)", "(◈)"]
  thinking_faces: ["(⚡)", "(⌁)", "(◈)"]
  thinking_verbs: ["jacking in", "decrypting", "overclocking"]
  wings:
    - ["⟨⚡", "⚡⟩"]
    - ["⟨✧", "✧⟩"]

branding:
  agent_name: "Cyber Agent"
  welcome: "Welcome to Cyber Agent! Type your message or /help for commands."
  goodbye: "Jacking out! ⚡"
  response_label: " ⚡ Cyber "
  prompt_symbol: "⚡ ❯"
  help_header: "(⚡) Available Commands"

tool_prefix: "▏"

tool_emojis:
  terminal: "⚔"
  web_search: "🔮"

banner_logo: |
  [bold #FF00FF]CYBER AGENT[/]
"##;

#[test]
fn an_existing_hermes_user_skin_works_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "cyberpunk.yaml", HERMES_USER_SKIN);
    assert_eq!(validate_file(&path), Ok(Vec::new()));
    let (theme, notices) = load(dir.path(), "cyberpunk", &LoadOptions::default());
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(theme.branding.agent_name, "Cyber Agent");
    assert_eq!(theme.tool_emoji("terminal"), "⚔");
    assert_eq!(theme.tool_emoji("read_file"), "📖");
    assert_eq!(theme.spinner_verb(1), "decrypting");
    assert_eq!(theme.wings(1), Some(("⟨✧", "✧⟩")));
    assert_eq!(theme.banner_logo, "[bold #FF00FF]CYBER AGENT[/]\n");
    assert_eq!(theme.palette.ui_accent, Color::Rgb(0, 0xFF, 0xFF));
    // Not set: inherited from default.
    assert_eq!(
        theme.authored.colors.selection_bg,
        Theme::default().authored.colors.selection_bg
    );
    assert_eq!(theme.banner_hero, Theme::default().banner_hero);
}

#[test]
fn unknown_keys_are_warned_about_and_the_rest_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "odd.yaml",
        "colors:\n  ui_acent: \"#123456\"\n  ui_ok: \"#00AA00\"\nspinner:\n  frames: [a]\nfavourite: 3\n",
    );
    let (theme, notices) = load(dir.path(), "odd", &LoadOptions::default());
    assert_eq!(theme.authored.colors.ui_ok, Color::Rgb(0, 0xAA, 0));
    let file = path.display().to_string();
    assert_eq!(
        notices,
        [
            format!("{file}:2: colors.ui_acent: unknown key (ignored) — did you mean `ui_accent`?"),
            format!("{file}:5: spinner.frames: unknown key (ignored)"),
            format!("{file}:6: favourite: unknown key (ignored)"),
        ]
    );
    let warnings = validate_file(&path).unwrap();
    assert_eq!(warnings, notices);
}

#[test]
fn wrong_typed_values_name_file_line_and_key_and_keep_the_inherited_value() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "typo.yaml",
        "colors:\n  ui_accent: 42\n  ui_label: \"#GGGGGG\"\n  ui_ok: #4caf50\n  ui_warn: \"#abc\"\nbranding:\n  agent_name: [a, b]\nspinner:\n  wings: [[\"<\"]]\n",
    );
    let (theme, notices) = load(dir.path(), "typo", &LoadOptions::default());
    let default = Theme::default();
    let file = path.display().to_string();
    assert_eq!(
        theme.authored.colors.ui_accent,
        default.authored.colors.ui_accent
    );
    assert_eq!(
        theme.authored.colors.ui_label,
        default.authored.colors.ui_label
    );
    assert_eq!(theme.authored.colors.ui_ok, default.authored.colors.ui_ok);
    assert_eq!(theme.authored.colors.ui_warn, Color::Rgb(0xAA, 0xBB, 0xCC));
    assert_eq!(theme.branding.agent_name, "Hermes Agent");
    assert_eq!(theme.spinner.wings, default.spinner.wings);
    assert_eq!(notices.len(), 5, "{notices:#?}");
    assert!(notices[0].starts_with(&format!("{file}:2: colors.ui_accent: expected a colour")));
    assert!(notices[0].contains("`42` (a number)"));
    assert!(notices[1].starts_with(&format!(
        "{file}:3: colors.ui_label: `#GGGGGG` is not a colour"
    )));
    assert!(notices[2].starts_with(&format!("{file}:4: colors.ui_ok: empty value")));
    assert!(notices[2].contains("quotes"));
    assert!(notices[3].starts_with(&format!("{file}:7: branding.agent_name: expected a string")));
    assert!(notices[4].starts_with(&format!(
        "{file}:9: spinner.wings: expected a list of [left, right]"
    )));
    let errors = validate_file(&path).unwrap_err();
    assert_eq!(errors, notices);
}

#[test]
fn malformed_yaml_gives_one_notice_with_line_and_column_and_the_default_skin() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "broken.yaml",
        "name: broken\ncolors:\n  ui_accent: \"#FF0000\n  ui_ok: [\n",
    );
    let (theme, notices) = load(dir.path(), "broken", &options(Background::Dark));
    assert_eq!(theme, Theme::default());
    assert_eq!(notices.len(), 1, "{notices:?}");
    let prefix = format!("{}:", path.display());
    assert!(notices[0].starts_with(&prefix), "{}", notices[0]);
    let location: Vec<&str> = notices[0][prefix.len()..].splitn(3, ':').collect();
    assert!(location[0].parse::<usize>().unwrap() >= 3, "{}", notices[0]);
    assert!(location[1].parse::<usize>().is_ok(), "{}", notices[0]);
    assert!(notices[0].contains("not valid YAML"));
    assert!(notices[0].ends_with("using the `default` skin"));
    let errors = validate_file(&path).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert!(errors[0].starts_with(&prefix));
}

#[test]
fn a_skin_that_is_not_a_mapping_falls_back_to_default() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "list.yaml", "- a\n- b\n");
    let (theme, notices) = load(dir.path(), "list", &LoadOptions::default());
    assert_eq!(theme, Theme::default());
    assert!(notices[0].contains("must be a mapping"), "{notices:?}");
}

#[test]
fn an_empty_file_is_the_default_skin_under_its_own_name() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "blank.yaml", "# nothing yet\n");
    let (theme, notices) = load(dir.path(), "blank", &LoadOptions::default());
    assert!(notices.is_empty());
    assert_eq!(theme.name, "blank");
    assert_eq!(theme.palette, Theme::default().palette);
}

#[test]
fn an_unknown_skin_name_lists_the_available_ones() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "zeta.yaml", "description: z\n");
    let (theme, notices) = load(dir.path(), "nope", &LoadOptions::default());
    assert_eq!(theme, Theme::default());
    assert_eq!(
        notices,
        [
            "unknown skin `nope` (available: default, ares, mono, slate, daylight, warm-lightmode, poseidon, sisyphus, charizard, zeta); using `default`"
        ]
    );
    let (_, notices) = load(dir.path(), "../etc/passwd", &LoadOptions::default());
    assert!(notices[0].contains("not a skin name"));
}

#[test]
fn resolved_yaml_round_trips_through_load() {
    let dir = tempfile::tempdir().unwrap();
    let cyber = write(dir.path(), "cyberpunk.yaml", HERMES_USER_SKIN);
    let mut names: Vec<&str> = NAMES.to_vec();
    names.push("cyberpunk");
    for name in names {
        for opts in [options(Background::Dark), options(Background::Light)] {
            let source = if name == "cyberpunk" {
                dir.path()
            } else {
                Path::new(NO_DIR)
            };
            let (theme, _) = load(source, name, &opts);
            let yaml = resolved_yaml(&theme);
            let out = tempfile::tempdir().unwrap();
            let path = write(out.path(), &format!("{name}.yaml"), &yaml);
            assert_eq!(validate_file(&path), Ok(Vec::new()), "{name}:\n{yaml}");
            let (again, notices) = load(out.path(), name, &opts);
            assert!(notices.is_empty(), "{notices:?}");
            assert_eq!(again, theme, "{name}:\n{yaml}");
        }
    }
    assert!(cyber.exists());
}

#[test]
fn resolved_yaml_shows_inherited_values() {
    let (theme, _) = load(Path::new(NO_DIR), "mono", &options(Background::Light));
    let yaml = resolved_yaml(&theme);
    assert!(yaml.contains("  banner_title: \"#E6EDF3\"\n"), "{yaml}");
    // Inherited from default (mono sets no meta colours, nor a spinner).
    assert!(yaml.contains("  completion_menu_meta_bg: \"#1A1A2E\"\n"));
    assert!(yaml.contains("    - \"pondering\"\n"));
    assert!(yaml.contains("banner_logo: |2-\n  [bold #FFD700]"));
    assert!(!yaml.contains("light_colors"));
}

#[test]
fn validate_reports_unreadable_files() {
    let errors = validate_file(Path::new("/nonexistent/skin.yaml")).unwrap_err();
    assert!(errors[0].starts_with("/nonexistent/skin.yaml: cannot read skin"));
}

/// Worst role per built-in skin on each background (run with `--nocapture` to see them).
#[test]
fn contrast_report() {
    for background in [Background::Dark, Background::Light] {
        for name in NAMES {
            let (theme, _) = load(Path::new(NO_DIR), name, &options(background));
            let (role, ratio) = Role::ALL
                .iter()
                .filter(|r| theme.style(**r).fg.is_some())
                .map(|r| (*r, role_contrast(&theme, *r)))
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .unwrap();
            println!("{background:?} {name}: worst {role:?} {ratio:.2}");
            assert!(ratio >= 4.5);
        }
    }
}
