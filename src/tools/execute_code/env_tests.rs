use pretty_assertions::assert_eq;

use super::*;

fn vars(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn secrets_go_and_system_variables_stay() {
    let source = vars(&[
        ("PATH", "/usr/bin"),
        ("HOME", "/home/ada"),
        ("LANG", "C.UTF-8"),
        ("LC_ALL", "C"),
        ("OPENAI_API_KEY", "sk-1"),
        ("MY_SERVICE_TOKEN", "t"),
        ("DB_PASSWORD", "p"),
        ("SENTRY_DSN", "d"),
        ("GITHUB_AUTH", "a"),
        ("HERMES_HOME", "/home/ada/.hermes"),
        ("HERMES_GATEWAY_SECRET", "s"),
        ("HERMES_DEBUG", "1"),
        ("RANDOM_THING", "x"),
        ("XDG_CONFIG_HOME", "/c"),
        ("PATH_TOKEN", "looks safe by prefix, is a secret"),
    ]);
    let kept: Vec<String> = scrub(&source, &[]).into_iter().map(|(k, _)| k).collect();
    assert_eq!(
        kept,
        [
            "PATH",
            "HOME",
            "LANG",
            "LC_ALL",
            "HERMES_HOME",
            "XDG_CONFIG_HOME"
        ]
    );
}

#[test]
fn passthrough_names_are_kept_even_when_they_look_secret() {
    let source = vars(&[("GITHUB_TOKEN", "ghp"), ("OTHER_TOKEN", "x")]);
    assert_eq!(
        scrub(&source, &["GITHUB_TOKEN".to_string()]),
        vars(&[("GITHUB_TOKEN", "ghp")])
    );
}

#[test]
fn a_later_duplicate_wins_and_set_replaces() {
    let source = vars(&[("HOME", "/a"), ("PATH", "/bin"), ("HOME", "/b")]);
    let mut env = scrub(&source, &[]);
    assert_eq!(env, vars(&[("PATH", "/bin"), ("HOME", "/b")]));
    set(&mut env, "PATH", "/usr/bin");
    assert_eq!(env, vars(&[("HOME", "/b"), ("PATH", "/usr/bin")]));
    assert!(looks_secret("openai_api_key"), "case-insensitive");
}
