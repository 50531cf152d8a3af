use super::*;
use pretty_assertions::assert_eq;

fn names(matches: &[Match]) -> Vec<&'static str> {
    matches.iter().map(|m| m.command.name).collect()
}

#[test]
fn registry_holds_exactly_the_implemented_commands() {
    let mut have: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
    have.sort_unstable();
    let mut want = vec![
        "help",
        "new",
        "clear",
        "model",
        "usage",
        "status",
        "stop",
        "retry",
        "queue",
        "steer",
        "verbose",
        "statusbar",
        "yolo",
        "copy",
        "quit",
        // The knowledge layer's session commands.
        "resume",
        "sessions",
        "title",
        "branch",
        "undo",
        "history",
    ];
    want.sort_unstable();
    assert_eq!(have, want);
}

#[test]
fn names_and_aliases_are_unique_lowercase() {
    let mut all: Vec<&str> = COMMANDS
        .iter()
        .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
        .collect();
    for n in &all {
        assert_eq!(*n, n.to_ascii_lowercase());
        assert!(!n.starts_with('/'));
    }
    let before = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), before);
}

#[test]
fn find_resolves_names_and_aliases() {
    assert_eq!(find("new").map(|c| c.name), Some("new"));
    assert_eq!(find("reset").map(|c| c.name), Some("new"));
    assert_eq!(find("/Q").map(|c| c.name), Some("queue"));
    assert_eq!(find("sb").map(|c| c.name), Some("statusbar"));
    assert_eq!(find("exit").map(|c| c.name), Some("quit"));
    assert_eq!(find("nope"), None);
    assert_eq!(find("").map(|c| c.name), None);
}

#[test]
fn args_hints_match_the_spec() {
    let hint = |n: &str| find(n).map(|c| c.args_hint);
    assert_eq!(hint("model"), Some("[name|provider:model]"));
    assert_eq!(hint("queue"), Some("<prompt>"));
    assert_eq!(hint("steer"), Some("<prompt>"));
    assert_eq!(hint("copy"), Some("[N]"));
    assert_eq!(hint("status"), Some(""));
}

#[test]
fn complete_ranks_prefix_before_subsequence() {
    let m = complete("st");
    assert_eq!(
        names(&m),
        vec!["status", "statusbar", "steer", "stop", "history"]
    );
    assert!(m[..4].iter().all(|m| m.kind == MatchKind::Prefix));
    assert_eq!(m[4].kind, MatchKind::Subsequence);

    // "sb" is exactly an alias of statusbar, so it comes first.
    let m = complete("sb");
    assert_eq!(m[0].command.name, "statusbar");
    assert_eq!(m[0].kind, MatchKind::Exact);

    // "ue": no prefix; a subsequence of queue, resume and usage (names only, not aliases).
    let m = complete("ue");
    assert!(m.iter().all(|m| m.kind == MatchKind::Subsequence));
    assert_eq!(names(&m), vec!["queue", "resume", "usage"]);
}

#[test]
fn complete_exact_alias_beats_prefix() {
    let m = complete("q");
    assert_eq!(names(&m), vec!["queue", "quit"]);
    assert_eq!(m[0].kind, MatchKind::Exact);
    assert_eq!(m[1].kind, MatchKind::Prefix);

    let m = complete("re");
    // name prefixes (resume, retry) before alias prefix (reset → new), then subsequence.
    assert_eq!(m[0].command.name, "resume");
    assert_eq!(m[1].command.name, "retry");
    assert_eq!(m[2].command.name, "new");
    assert_eq!(m[2].kind, MatchKind::AliasPrefix);
}

#[test]
fn complete_empty_lists_all_by_name() {
    let m = complete("");
    assert_eq!(m.len(), COMMANDS.len());
    let got = names(&m);
    let mut sorted = got.clone();
    sorted.sort_unstable();
    assert_eq!(got, sorted);
}

#[test]
fn complete_no_match() {
    assert!(complete("zzz").is_empty());
}

#[test]
fn word_boundary_rules() {
    assert!(word_boundary_match("reload-mcp", "mcp"));
    assert!(word_boundary_match("reload-mcp", "rm"));
    assert!(!word_boundary_match("reload-mcp", "cp"));
    assert!(!word_boundary_match("status", "st"));
}

#[test]
fn parse_splits_name_and_args() {
    assert_eq!(
        parse("/model foo"),
        Some(("model".to_owned(), "foo".to_owned()))
    );
    assert_eq!(
        parse("/Queue  do this \n and that "),
        Some(("queue".to_owned(), "do this \n and that".to_owned()))
    );
    assert_eq!(parse("/help"), Some(("help".to_owned(), String::new())));
    assert_eq!(parse("/nope x"), Some(("nope".to_owned(), "x".to_owned())));
    assert_eq!(parse("hello"), None);
    assert_eq!(parse("/"), None);
    assert_eq!(parse("/ x"), None);
    assert_eq!(parse("/usr/bin/env python"), None);
}

#[test]
fn help_text_lists_every_command_grouped() {
    let text = help_text();
    for c in COMMANDS {
        assert!(text.contains(&format!("/{}", c.name)), "missing {}", c.name);
        assert!(text.contains(c.description), "missing {}", c.description);
        for a in c.aliases {
            assert!(text.contains(&format!("/{a}")), "missing alias {a}");
        }
    }
    let pos = |s: &str| text.find(s).unwrap_or(usize::MAX);
    assert!(pos("Session") < pos("Configuration"));
    assert!(pos("Configuration") < pos("Info"));
    assert!(pos("Info") < pos("Exit"));
    assert!(pos("/queue <prompt>") < pos("Configuration"));
    assert!(pos("/quit") > pos("Exit"));
    insta::assert_snapshot!("help_text", text);
}
