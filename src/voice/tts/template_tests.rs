use super::*;

const NASTY: &[&str] = &[
    "plain",
    "with space",
    "it's",
    "$HOME `id` $(id) \"q\" \\ back",
    "",
    "line\nbreak",
    "ünïcödé ✓",
    "a'b\"c'd",
    "{output_path}",
];

/// Runs the rendered command with sh and returns its stdout.
fn sh(command: &str) -> String {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .output()
        .unwrap();
    assert!(out.status.success(), "{command}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn values_stay_literal_in_every_quoting_context() {
    for value in NASTY {
        let values = [("text", *value), ("output_path", "/tmp/never used")];
        let bare = render("printf '%s|' {text}", &values);
        assert_eq!(sh(&bare), format!("{value}|"), "bare: {bare}");
        let single = render("printf '%s|' 'x{text}y'", &values);
        assert_eq!(sh(&single), format!("x{value}y|"), "single: {single}");
        let double = render("printf '%s|' \"x{text}y\"", &values);
        assert_eq!(sh(&double), format!("x{value}y|"), "double: {double}");
    }
}

#[test]
fn quote_state_follows_the_template() {
    let values = [("v", "a b")];
    // After a closed single-quoted word the context is bare again; an escaped quote does not
    // open a string; a `'` inside double quotes does not open one either.
    assert_eq!(render("'x' {v}", &values), "'x' 'a b'");
    assert_eq!(render(r"\' {v}", &values), r"\' 'a b'");
    assert_eq!(render(r#""it's {v}""#, &values), r#""it's a b""#);
    assert_eq!(render(r#""\" {v}""#, &values), r#""\" a b""#);
}

#[test]
fn doubled_braces_are_literal_and_unknown_names_are_kept() {
    let values = [("voice", "en")];
    assert_eq!(render("{{voice}} {voice}", &values), "{voice} en");
    assert_eq!(render("x }} {{", &values), "x } {");
    assert_eq!(render("{unknown} {voice", &values), "{unknown} {voice");
    assert_eq!(render("awk '{{print $1}}'", &values), "awk '{print $1}'");
}

#[test]
fn safe_bare_values_are_not_quoted() {
    let values = [("p", "/tmp/a-b_c.wav"), ("s", "1.5"), ("e", "")];
    assert_eq!(render("x {p} {s} {e}", &values), "x /tmp/a-b_c.wav 1.5 ''");
}
