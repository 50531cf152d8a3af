//! Skins as a user meets them, through the real binary: `hermes skins list|show|validate`, a
//! Hermes user's skin file in `HERMES_HOME/skins/`, and, in tmux against the scripted provider,
//! `/skin NAME` switching the colours and branding on screen and persisting `display.skin`,
//! the `/skin` picker previewing and Esc restoring, and a broken skin file named at start-up
//! while the default skin is used.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;
use crate::support::env::CleanEnv;

use std::process::Command;
use std::time::Duration;

use support::Response;
use support::ScriptedServer;
use support::tmux::Tmux;
use support::tmux_app::TmuxApp;

const WAIT: Duration = Duration::from_secs(15);

fn hermes(home: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hermes"))
        .clean_env()
        .args(args)
        .env("HERMES_HOME", home)
        .env_remove("NO_COLOR")
        .output()
        .unwrap()
}

/// A Hermes user's skin: a few colours, a spinner and branding, one key we don't know.
const USER_SKIN: &str = r##"name: neon
description: "Hot pink on black"
colors:
  banner_title: "#FF1493"
  ui_accent: "#FF69B4"
  prompt: "#FFB6C1"
spinner:
  thinking_verbs: ["scheming", "plotting"]
branding:
  agent_name: "Neon Agent"
  response_label: " ✦ Neon "
  prompt_symbol: "✦"
sparkles: true
"##;

#[test]
fn list_show_and_validate_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path();
    std::fs::create_dir_all(home.join("skins")).unwrap();
    std::fs::write(home.join("skins/neon.yaml"), USER_SKIN).unwrap();

    let list = hermes(home, &["skins", "list"]);
    assert!(list.status.success());
    let text = String::from_utf8_lossy(&list.stdout);
    for name in [
        "default",
        "ares",
        "mono",
        "slate",
        "daylight",
        "warm-lightmode",
        "poseidon",
        "sisyphus",
        "charizard",
        "neon",
    ] {
        assert!(
            text.contains(&format!(" {name} ")),
            "{name} missing:\n{text}"
        );
    }
    assert!(
        text.contains("* default"),
        "the active skin is marked:\n{text}"
    );

    // `show` fills in what the user skin inherits from default.
    let show = hermes(home, &["skins", "show", "neon"]);
    assert!(
        show.status.success(),
        "{}",
        String::from_utf8_lossy(&show.stderr)
    );
    let yaml = String::from_utf8_lossy(&show.stdout);
    assert!(yaml.contains("Neon Agent"), "{yaml}");
    assert!(yaml.to_ascii_lowercase().contains("#ff1493"), "{yaml}");
    assert!(
        yaml.to_ascii_lowercase().contains("#4caf50"),
        "ui_ok inherited from default:\n{yaml}"
    );

    // `validate`: the unknown key is a warning, not an error.
    let neon = home.join("skins/neon.yaml");
    let ok = hermes(home, &["skins", "validate", neon.to_str().unwrap()]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert!(String::from_utf8_lossy(&ok.stderr).contains("sparkles"));

    // A wrong-typed value and a bad colour are errors naming the line and key.
    let bad = home.join("bad.yaml");
    std::fs::write(
        &bad,
        "name: bad\ncolors:\n  ui_accent: \"#12345\"\nspinner:\n  thinking_verbs: 7\n",
    )
    .unwrap();
    let out = hermes(home, &["skins", "validate", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.yaml:3"), "{err}");
    assert!(err.contains("ui_accent"), "{err}");
    assert!(err.contains("bad.yaml:5"), "{err}");
    assert!(err.contains("thinking_verbs"), "{err}");
}

/// Every skin Hermes 0.19 ships or documents, through `hermes skins validate`: its nine
/// built-ins (as its code resolves them, written out as skin files; the fixture comes from
/// the real Python code, see tests/fixtures/dump_hermes_skins.py) and the template in its
/// skin-engine docs, whose repeated `colors.status_bar_bg` is a warning naming both lines.
#[test]
fn every_skin_hermes_ships_or_documents_validates() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path();
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let dump: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixtures.join("hermes-skins-0.19.json")).unwrap(),
    )
    .unwrap();
    let skins = dump["skins"].as_array().unwrap();
    assert_eq!(skins.len(), 9);
    for skin in skins {
        let mut file = skin.as_object().unwrap().clone();
        // Not a skin key: what Hermes's CLI paints for the keys a skin leaves unset.
        file.remove("effective_colors");
        let name = file["name"].as_str().unwrap().to_string();
        let path = home.join(format!("{name}.yaml"));
        // JSON is YAML.
        std::fs::write(&path, serde_json::to_string_pretty(&file).unwrap()).unwrap();
        let out = hermes(home, &["skins", "validate", path.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{name}: {stderr}");
        assert!(stderr.is_empty(), "{name}: {stderr}");
    }

    let template = fixtures.join("hermes-skin-template.yaml");
    let text = std::fs::read_to_string(&template).unwrap();
    let lines: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with("status_bar_bg:"))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(lines.len(), 2, "the template repeats the key");
    let out = hermes(home, &["skins", "validate", template.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).ends_with(": ok\n"));
    assert_eq!(
        stderr.trim(),
        format!(
            "warning: {}:{}: colors.status_bar_bg: repeated (first on line {}); the last value is used, as Hermes does",
            template.display(),
            lines[1],
            lines[0]
        )
    );
}

/// The screen with its colours (`capture-pane -e`).
fn coloured_screen(tmux: &Tmux) -> String {
    let out = Command::new("tmux")
        .args(["capture-pane", "-e", "-p", "-t", tmux.name()])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The SGR truecolor foreground for `#RRGGBB`.
fn fg(hex: &str) -> String {
    let n = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
    format!("38;2;{};{};{}", n >> 16, (n >> 8) & 0xFF, n & 0xFF)
}

#[test]
fn switch_skins_live_and_keep_the_choice() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let server = ScriptedServer::start_on_own_thread([
        Response::text(["First answer."]),
        Response::text(["Second answer."]),
    ]);
    let app = TmuxApp::new(&server, "");
    let truecolor = [
        ("COLORTERM", "truecolor".to_string()),
        ("COLORFGBG", "15;0".to_string()),
    ];
    let tmux = app.start_with("env -u NO_COLOR", &truecolor);
    tmux.type_text("hello");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("First answer.", WAIT);
    assert!(
        coloured_screen(&tmux).contains(&fg("#FFD700")),
        "default gold"
    );

    tmux.type_text("/skin ares");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("⚔", WAIT);
    // The repaint may still be on its way to the terminal when the first ⚔ shows: wait
    // (bounded) for a whole frame in the new colours before judging it.
    let deadline = std::time::Instant::now() + WAIT;
    let mut screen = coloured_screen(&tmux);
    while screen.contains(&fg("#FFD700")) && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        screen = coloured_screen(&tmux);
    }
    assert!(screen.contains("Ares"), "ares branding:\n{screen}");
    assert!(screen.contains(&fg("#C7A96B")), "ares bronze:\n{screen}");
    assert!(
        !screen.contains(&fg("#FFD700")),
        "default gold is gone:\n{screen}"
    );
    let config = std::fs::read_to_string(app.home().join("config.yaml")).unwrap();
    assert!(config.contains("skin: ares"), "{config}");

    // The picker previews while moving and Esc puts ares back.
    tmux.type_text("/skin");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("charizard", WAIT);
    tmux.keys(&["Down"]);
    std::thread::sleep(Duration::from_millis(500));
    let previewed = tmux.screen();
    tmux.keys(&["Escape"]);
    tmux.wait_for("the picker to close", WAIT, |s| !s.contains("charizard"));
    assert!(tmux.screen().contains("⚔"), "Esc restores ares");
    assert_ne!(previewed, tmux.screen());
    drop(tmux);

    // Next start: ares again.
    let again = app.start_with("env -u NO_COLOR", &truecolor);
    again.wait_for_text("⚔", WAIT);
}

#[test]
fn a_broken_user_skin_is_named_and_the_default_skin_is_used() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let server = ScriptedServer::start_on_own_thread([]);
    let app = TmuxApp::new(&server, "");
    let home = app.home();
    std::fs::create_dir_all(home.join("skins")).unwrap();
    std::fs::write(
        home.join("skins/broken.yaml"),
        "name: broken\ncolors:\n  ui_accent: [unclosed\n",
    )
    .unwrap();
    let mut config = std::fs::read_to_string(home.join("config.yaml")).unwrap();
    config.push_str("display:\n  skin: broken\n");
    std::fs::write(home.join("config.yaml"), config).unwrap();
    let tmux = app.start_with("", &[]);
    let screen = tmux.wait_for_text("broken.yaml", WAIT);
    // The parser notices the unclosed list at the end of the file.
    assert!(
        screen.contains("broken.yaml:4:1: not valid YAML"),
        "{screen}"
    );
    assert!(screen.contains("using the `default` skin"), "{screen}");
    assert!(screen.contains("❯"), "the default prompt symbol:\n{screen}");
}

#[test]
fn a_light_terminal_gets_readable_colours_and_no_color_gets_none() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let server = ScriptedServer::start_on_own_thread([Response::text(["Readable."])]);
    let app = TmuxApp::new(&server, "");
    // COLORFGBG "0;15": black text on a white background.
    let light = app.start_with(
        "env -u NO_COLOR",
        &[
            ("COLORTERM", "truecolor".to_string()),
            ("COLORFGBG", "0;15".to_string()),
        ],
    );
    light.type_text("hi");
    light.keys(&["Enter"]);
    light.wait_for_text("Readable.", WAIT);
    let screen = coloured_screen(&light);
    assert!(screen.contains("38;2;"), "truecolor output:\n{screen}");
    // Gold #FFD700 on white has a contrast of 1.4:1; it must not be used as text.
    assert!(!screen.contains(&fg("#FFD700")), "{screen}");
    drop(light);

    let plain = app.start_with("env NO_COLOR=1", &[("COLORTERM", "truecolor".to_string())]);
    let screen = coloured_screen(&plain);
    assert!(
        !screen.contains("38;2;") && !screen.contains("38;5;"),
        "{screen}"
    );
}
