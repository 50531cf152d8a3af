use super::*;
use pretty_assertions::assert_eq;

fn names(matches: &[Match]) -> Vec<&str> {
    matches.iter().map(|m| m.command.name()).collect()
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
        "compress",
        // File checkpoints.
        "rollback",
        // The subagent monitor.
        "agents",
        // Persistent goals.
        "goal",
        "subgoal",
        // Voice mode.
        "voice",
        // Image attachments.
        "paste",
        "image",
        // Skins.
        "skin",
        // MCP servers.
        "reload-mcp",
        // Toolsets.
        "tools",
        // Scheduled jobs.
        "cron",
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
    assert_eq!(hint("goal"), Some("[text|pause|resume|clear]"));
    assert_eq!(hint("subgoal"), Some("[text|remove N|clear]"));
}

#[test]
fn complete_ranks_prefix_before_subsequence() {
    let m = complete("st");
    assert_eq!(
        names(&m),
        vec!["status", "statusbar", "steer", "stop", "history", "paste"]
    );
    assert!(m[..4].iter().all(|m| m.kind == MatchKind::Prefix));
    assert!(m[4..].iter().all(|m| m.kind == MatchKind::Subsequence));

    // "sb" is exactly an alias of statusbar, so it comes first.
    let m = complete("sb");
    assert_eq!(m[0].command.name(), "statusbar");
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
    // name prefixes (reload-mcp, resume, retry) before alias prefix (reset → new), then
    // subsequence.
    assert_eq!(m[0].command.name(), "reload-mcp");
    assert_eq!(m[1].command.name(), "resume");
    assert_eq!(m[2].command.name(), "retry");
    assert_eq!(m[3].command.name(), "new");
    assert_eq!(m[3].kind, MatchKind::AliasPrefix);
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

fn skill(name: &str, description: &str) -> SkillCommand {
    SkillCommand {
        name: name.to_owned(),
        description: description.to_owned(),
    }
}

fn skills() -> Vec<SkillCommand> {
    vec![
        skill(
            "git-commit",
            "Write a conventional commit for the staged changes",
        ),
        skill("arxiv", "Search and summarise arXiv papers"),
        skill("stock-quotes", "Look up share prices"),
    ]
}

#[test]
fn complete_with_matches_builtins_and_skills() {
    let skills = skills();
    let m = complete_with("gi", &skills);
    assert_eq!(names(&m), vec!["git-commit"]);
    assert!(m[0].command.is_skill());
    assert_eq!(m[0].kind, MatchKind::Prefix);
    assert_eq!(m[0].command.description(), skills[0].description);
    assert_eq!(m[0].command.usage(), "/git-commit");
    assert!(m[0].command.takes_args());

    // Word boundary and initials work for skill names too.
    assert_eq!(names(&complete_with("commit", &skills)), vec!["git-commit"]);
    assert_eq!(names(&complete_with("gc", &skills)), vec!["git-commit"]);

    // An empty query lists every built-in, then every skill by name.
    let all = complete_with("", &skills);
    assert_eq!(all.len(), COMMANDS.len() + skills.len());
    let tail: Vec<&str> = names(&all)[COMMANDS.len()..].to_vec();
    assert_eq!(tail, vec!["arxiv", "git-commit", "stock-quotes"]);
    assert!(all[..COMMANDS.len()].iter().all(|m| !m.command.is_skill()));

    // Without skills, completion is the built-ins alone.
    assert_eq!(complete_with("gi", &[]), Vec::new());
    assert_eq!(complete("st"), complete_with("st", &[]));
}

#[test]
fn builtins_rank_before_skills_on_equal_kind() {
    let skills = skills();
    let m = complete_with("st", &skills);
    // Prefix: the four built-ins, then the skill; subsequences (history, paste) last.
    assert_eq!(
        names(&m),
        vec![
            "status",
            "statusbar",
            "steer",
            "stop",
            "stock-quotes",
            "history",
            "paste"
        ]
    );
    assert_eq!(m[4].kind, MatchKind::Prefix);
    // A better match still wins: an exact skill name beats built-in prefixes.
    let m = complete_with("stock-quotes", &skills);
    assert_eq!(names(&m), vec!["stock-quotes"]);
    assert_eq!(m[0].kind, MatchKind::Exact);
    // "ar": arxiv is a prefix match, outranking built-in subsequences (clear, ...).
    let m = complete_with("ar", &skills);
    assert_eq!(m[0].command.name(), "arxiv");
    assert!(m[1..].iter().all(|m| m.kind > MatchKind::Prefix));
}

#[test]
fn skills_never_shadow_builtins() {
    let raw = vec![
        skill("help", "A skill pretending to be /help"),
        skill("/Reset", "Alias of /new"),
        skill("Git-Commit", "  Commit  "),
        skill("git-commit", "Duplicate, dropped"),
        skill("", "No name"),
        skill("two words", "Whitespace"),
        skill("a/b", "Slash"),
    ];
    let cleaned = skill_commands(raw.clone());
    assert_eq!(cleaned, vec![skill("git-commit", "Commit")]);

    // Even unfiltered input cannot shadow: completion skips built-in names and aliases.
    let m = complete_with("help", &raw);
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].command, Candidate::Builtin(find("help").unwrap()));
    let m = complete_with("reset", &[skill("reset", "x")]);
    assert_eq!(names(&m), vec!["new"]);
    assert!(!help_text_with(&[skill("help", "Impostor")]).contains("Impostor"));
}

#[test]
fn help_text_lists_skills_in_their_own_section() {
    let skills = skill_commands(skills());
    let text = help_text_with(&skills);
    assert!(text.starts_with(&help_text()));
    let section = &text[text.find("\nSkills\n").unwrap()..];
    for s in &skills {
        assert!(
            section.contains(&format!("/{}", s.name)),
            "missing {}",
            s.name
        );
        assert!(
            section.contains(&s.description),
            "missing {}",
            s.description
        );
    }
    assert!(!section.contains(NO_SKILLS_HINT));
    assert!(section.contains(SKILL_USAGE_HINT));
    insta::assert_snapshot!("help_text_skills", section.trim_start());
}

#[test]
fn help_text_without_skills_says_so() {
    let text = help_text_with(&[]);
    let section = &text[text.find("\nSkills\n").unwrap()..];
    assert_eq!(section, format!("\nSkills\n  {NO_SKILLS_HINT}\n"));
}
