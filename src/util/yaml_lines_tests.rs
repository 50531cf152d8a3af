use super::*;

const SAMPLE: &str = "\
# Hermes config
model:
  default: anthropic/claude-sonnet-4   # main model
  provider: openrouter

terminal:
  backend: local
  timeout: 180 # seconds
  env:
    FOO: bar
display:
  skin: ares
  prompt: |
    multi-line
    timeout: 5
agent:
  max_iterations: 90
";

#[test]
fn replaces_nested_value_keeping_comment_and_everything_else() {
    let out = set_scalar(SAMPLE, &["terminal", "timeout"], "300").unwrap();
    assert_eq!(
        out,
        SAMPLE.replace("timeout: 180 # seconds", "timeout: 300 # seconds")
    );
    let out = set_scalar(SAMPLE, &["model", "default"], "\"a: b\"").unwrap();
    assert_eq!(
        out,
        SAMPLE.replace(
            "default: anthropic/claude-sonnet-4   # main",
            "default: \"a: b\"   # main"
        )
    );
}

#[test]
fn block_scalar_body_is_not_a_key() {
    assert_eq!(locate(SAMPLE, &["display", "prompt", "timeout"]), None);
    let out = set_scalar(SAMPLE, &["agent", "max_iterations"], "10").unwrap();
    assert!(out.ends_with("agent:\n  max_iterations: 10\n"));
    assert!(out.contains("    timeout: 5\n"));
}

#[test]
fn inserts_missing_key_at_end_of_parent_block() {
    let out = set_scalar(SAMPLE, &["model", "base_url"], "http://localhost:8080/v1").unwrap();
    assert_eq!(
        out,
        SAMPLE.replace(
            "  provider: openrouter\n",
            "  provider: openrouter\n  base_url: http://localhost:8080/v1\n"
        )
    );
    let out = set_scalar(SAMPLE, &["terminal", "env", "BAZ"], "1").unwrap();
    assert!(
        out.contains("  env:\n    FOO: bar\n    BAZ: 1\ndisplay:"),
        "{out}"
    );
}

#[test]
fn inserts_missing_sections() {
    let out = set_scalar(SAMPLE, &["provider", "retry", "max"], "3").unwrap();
    assert!(
        out.ends_with("  max_iterations: 90\nprovider:\n  retry:\n    max: 3\n"),
        "{out}"
    );
    assert_eq!(set_scalar("", &["a", "b"], "1").unwrap(), "a:\n  b: 1\n");
    assert_eq!(
        set_scalar("# only\n", &["a"], "1").unwrap(),
        "# only\na: 1\n"
    );
    assert_eq!(set_scalar("x: 1", &["a"], "2").unwrap(), "x: 1\na: 2\n");
    // An empty parent gets its first child one step in.
    assert_eq!(
        set_scalar("model:\nx: 1\n", &["model", "default"], "m").unwrap(),
        "model:\n  default: m\nx: 1\n"
    );
}

#[test]
fn respects_file_indent_unit_and_crlf() {
    let text = "model:\r\n    default: a\r\nagent:\r\n    max_iterations: 1\r\n";
    let out = set_scalar(text, &["agent", "x", "y"], "2").unwrap();
    assert_eq!(out, format!("{text}    x:\r\n        y: 2\r\n"));
}

#[test]
fn empty_value_with_comment() {
    let out = set_scalar(
        "model:\n  default:   # pick one\n",
        &["model", "default"],
        "m",
    )
    .unwrap();
    assert_eq!(out, "model:\n  default: m # pick one\n");
}

#[test]
fn quoted_keys_and_values() {
    let text = "\"model\":\n  'default': \"x # not comment\" # real\n";
    let out = set_scalar(text, &["model", "default"], "y").unwrap();
    assert_eq!(out, "\"model\":\n  'default': y # real\n");
}

#[test]
fn refuses_what_it_cannot_edit() {
    let unsupported = |text: &str, path: &[&str]| {
        matches!(
            set_scalar(text, path, "1"),
            Err(LineEditError::Unsupported(_))
        )
    };
    assert!(unsupported("model: {default: a}\n", &["model", "default"]));
    assert!(unsupported("model: [a]\n", &["model", "x"]));
    assert!(unsupported("a: &x 1\n", &["a"]));
    assert!(unsupported("model: gpt\n", &["model", "default"]));
    assert!(unsupported("list:\n  - a\n", &["list", "x"]));
    assert!(unsupported("a: \"open\n  b\"\n", &["a"]));
    assert_eq!(
        set_scalar(SAMPLE, &["terminal", "env"], "1"),
        Err(LineEditError::IsSection)
    );
}

#[test]
fn locate_reports_value_position() {
    assert_eq!(locate(SAMPLE, &["terminal", "timeout"]), Some((8, 12)));
    assert_eq!(locate(SAMPLE, &["terminal"]), Some((6, 10)));
    assert_eq!(locate(SAMPLE, &["nope"]), None);
}

#[test]
fn blank_lines_after_a_block_scalar_stay_after_an_inserted_key_unless_kept() {
    let prompt = |text: &str| {
        let doc: serde_norway::Value = serde_norway::from_str(text).unwrap();
        doc["display"]["prompt"].as_str().unwrap().to_owned()
    };
    let clip = "display:\n  prompt: |\n    hi\n\nagent:\n  x: 1\n";
    let out = set_scalar(clip, &["display", "skin"], "ares").unwrap();
    assert_eq!(
        out,
        "display:\n  prompt: |\n    hi\n  skin: ares\n\nagent:\n  x: 1\n"
    );
    assert_eq!(prompt(&out), "hi\n");
    // With `+` the blank line is part of the value, so the key goes after it.
    let keep = clip.replace("|\n", "|+\n");
    let out = set_scalar(&keep, &["display", "skin"], "ares").unwrap();
    assert_eq!(
        out,
        "display:\n  prompt: |+\n    hi\n\n  skin: ares\nagent:\n  x: 1\n"
    );
    assert_eq!(prompt(&out), "hi\n\n");
}

#[test]
fn a_comment_after_a_tab_does_not_end_a_section() {
    let text = "model:\n  default: a\n\t# note\n  provider: b\n";
    assert_eq!(locate(text, &["model", "provider"]), Some((4, 13)));
    let out = set_scalar(text, &["model", "provider"], "c").unwrap();
    assert_eq!(out, text.replace("provider: b", "provider: c"));
}

#[test]
fn indent_unit_comes_from_nested_keys_not_block_scalar_bodies() {
    let text = "prompt: |\n    text\nmodel:\n  default: m\n";
    let out = set_scalar(text, &["agent", "x", "y"], "2").unwrap();
    assert_eq!(out, format!("{text}agent:\n  x:\n    y: 2\n"));
    assert_eq!(indent_unit(&split_lines("a:\n- x\nb:\n   - y\n")), 3);
}

// Key lines for skin notices (formerly `theme::skin_lines`).

const SKIN: &str = "# a skin\nname: x\ncolors:\n  # comment: not a key\n  ui_accent: \"#fff\"\n  \"ui_ok\": \"#0f0\"\nbanner_logo: |\n  colors:\n    ui_warn: inside art\nbranding: {agent_name: A}\nspinner:\n  wings:\n    - [\"<\", \">\"]\ntool_prefix: \"|\"\n";

#[test]
fn skin_keys_nested_and_quoted() {
    assert_eq!(nearest_key_line(SKIN, &["name"]), Some(2));
    assert_eq!(nearest_key_line(SKIN, &["colors", "ui_accent"]), Some(5));
    assert_eq!(nearest_key_line(SKIN, &["colors", "ui_ok"]), Some(6));
    assert_eq!(nearest_key_line(SKIN, &["spinner", "wings"]), Some(12));
    assert_eq!(nearest_key_line(SKIN, &["tool_prefix"]), Some(14));
}

#[test]
fn nearest_key_line_skips_block_scalars_and_falls_back_to_the_parent() {
    // `ui_warn` only appears inside the banner art: the nearest real key is `colors`.
    assert_eq!(nearest_key_line(SKIN, &["colors", "ui_warn"]), Some(3));
    // Inside a flow mapping: the enclosing key's line.
    assert_eq!(
        nearest_key_line(SKIN, &["branding", "agent_name"]),
        Some(10)
    );
    assert_eq!(nearest_key_line(SKIN, &["nothing"]), None);
}

#[test]
fn nearest_key_line_handles_crlf() {
    let text = "colors:\r\n  ui_ok: \"#0f0\"\r\n";
    assert_eq!(nearest_key_line(text, &["colors", "ui_ok"]), Some(2));
}

#[test]
fn key_lines_finds_every_line_of_a_repeated_key() {
    let text = "colors:\n  status_bar_bg: \"#111111\"\n  ui_ok: \"#0f0\"\n  status_bar_bg: \"#222222\"\nstatus_bar_bg: top\n";
    assert_eq!(key_lines(text, &["colors", "status_bar_bg"]), vec![2, 4]);
    assert_eq!(key_lines(text, &["status_bar_bg"]), vec![5]);
    assert!(key_lines(text, &["colors", "missing"]).is_empty());
}

fn items(names: &[&str]) -> Vec<String> {
    names.iter().map(ToString::to_string).collect()
}

#[test]
fn set_list_replaces_a_block_list_keeping_comments_and_indentation() {
    let text = "# top\nplatform_toolsets:\n  cli:  # mine\n    - web\n    - memory\n  # after the list\n  telegram:\n  - hermes-telegram\nother: 1\n";
    let out = set_list(
        text,
        &["platform_toolsets", "cli"],
        &items(&["file", "terminal"]),
    )
    .unwrap();
    assert_eq!(
        out,
        "# top\nplatform_toolsets:\n  cli: # mine\n    - file\n    - terminal\n  # after the list\n  telegram:\n  - hermes-telegram\nother: 1\n"
    );
}

#[test]
fn set_list_inserts_a_missing_key_one_step_under_its_parent() {
    let text = "model:\n  default: x # keep\n";
    let out = set_list(text, &["platform_toolsets", "cli"], &items(&["web"])).unwrap();
    assert_eq!(
        out,
        "model:\n  default: x # keep\nplatform_toolsets:\n  cli:\n    - web\n"
    );
    let out = set_list("", &["agent", "disabled_toolsets"], &items(&[])).unwrap();
    assert_eq!(out, "agent:\n  disabled_toolsets: []\n");
}

#[test]
fn set_list_rewrites_a_flow_list_and_an_indentless_one() {
    let text = "agent:\n  disabled_toolsets: [memory, tts]  # off\n  max_turns: 9\n";
    let out = set_list(text, &["agent", "disabled_toolsets"], &items(&["tts"])).unwrap();
    assert_eq!(
        out,
        "agent:\n  disabled_toolsets: # off\n    - tts\n  max_turns: 9\n"
    );
    let text = "a:\n  cli:\n  - x\n  - y\n  b: 2\n";
    let out = set_list(text, &["a", "cli"], &items(&["z"])).unwrap();
    assert_eq!(out, "a:\n  cli:\n  - z\n  b: 2\n");
}

#[test]
fn set_list_refuses_what_it_cannot_rewrite() {
    assert!(set_list("a:\n  cli: {x: 1}\n", &["a", "cli"], &items(&["y"])).is_err());
    assert!(set_list("a:\n  cli: |\n    text\n", &["a", "cli"], &items(&["y"])).is_err());
}
