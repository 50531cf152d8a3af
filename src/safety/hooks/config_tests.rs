use std::time::Duration;

use super::super::test_support::yaml;
use super::*;

fn parse(text: &str) -> (Vec<HookSpec>, Vec<String>) {
    parse_hooks(&yaml(text))
}

#[test]
fn a_full_config_parses_in_order() {
    let (specs, warnings) = parse(
        r#"
pre_tool_call:
  - matcher: "terminal"
    command: "~/.hermes/agent-hooks/guard.sh"
    timeout: 10
  - command: "audit --all"
pre_llm_call:
  - command: "python3 ~/ctx.py"
subagent_stop:
  - command: notify
"#,
    );
    assert!(warnings.is_empty(), "{warnings:?}");
    let summary: Vec<(HookEvent, &str, Option<&str>, u64)> = specs
        .iter()
        .map(|s| {
            (
                s.event,
                s.command.as_str(),
                s.matcher_pattern(),
                s.timeout.as_secs(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (
                HookEvent::PreToolCall,
                "~/.hermes/agent-hooks/guard.sh",
                Some("terminal"),
                10
            ),
            (HookEvent::PreToolCall, "audit --all", None, 60),
            (HookEvent::PreLlmCall, "python3 ~/ctx.py", None, 60),
            (HookEvent::SubagentStop, "notify", None, 60),
        ]
    );
}

#[test]
fn null_or_missing_hooks_is_empty_without_warnings() {
    assert!(parse("~").0.is_empty());
    assert!(parse("~").1.is_empty());
    assert!(parse("{}").0.is_empty());
    let (specs, warnings) = parse("pre_tool_call:\n");
    assert!(specs.is_empty() && warnings.is_empty());
}

#[test]
fn hooks_that_is_not_a_mapping_warns() {
    let (specs, warnings) = parse("- command: x");
    assert!(specs.is_empty());
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains("must be a mapping"), "{warnings:?}");
}

#[test]
fn a_typod_event_is_skipped_with_a_suggestion() {
    let (specs, warnings) =
        parse("pre_tool_cal:\n  - command: guard\npost_tool_call:\n  - command: log\n");
    assert_eq!(specs.len(), 1);
    assert_eq!(specs[0].event, HookEvent::PostToolCall);
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].contains("did you mean `pre_tool_call`?"),
        "{warnings:?}"
    );
}

#[test]
fn outbound_is_skipped_silently() {
    let (specs, warnings) = parse(
        "outbound:\n  - url: https://example.com\n    events: [post_tool_call]\npost_llm_call:\n  - command: log\n",
    );
    assert_eq!(specs.len(), 1);
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn entries_without_a_command_are_skipped() {
    let (specs, warnings) = parse(
        r#"
pre_tool_call:
  - matcher: terminal
  - command: "   "
  - command: 42
  - "just a string"
  - command: ok
"#,
    );
    assert_eq!(specs.len(), 1);
    assert_eq!(specs[0].command, "ok");
    assert_eq!(warnings.len(), 4, "{warnings:?}");
    assert!(
        warnings[0].starts_with("hooks.pre_tool_call[0]"),
        "{warnings:?}"
    );
    assert!(warnings[0].contains("command"), "{warnings:?}");
    assert!(warnings[3].contains("must be a mapping"), "{warnings:?}");
}

#[test]
fn an_event_that_is_not_a_list_warns() {
    let (specs, warnings) = parse("pre_tool_call:\n  command: x\n");
    assert!(specs.is_empty());
    assert!(warnings[0].contains("must be a list"), "{warnings:?}");
}

#[test]
fn the_command_is_trimmed() {
    let (specs, _) = parse("post_llm_call:\n  - command: \"  log.sh  \"\n");
    assert_eq!(specs[0].command, "log.sh");
}

#[test]
fn timeouts_default_clamp_and_reject_nonsense() {
    let (specs, warnings) = parse(
        r#"
post_llm_call:
  - command: a
  - command: b
    timeout: 900
  - command: c
    timeout: abc
  - command: d
    timeout: 0
  - command: e
    timeout: -5
  - command: f
    timeout: 1.5
  - command: g
    timeout: "30"
  - command: h
    timeout: 300
"#,
    );
    let timeouts: Vec<Duration> = specs.iter().map(|s| s.timeout).collect();
    assert_eq!(
        timeouts,
        [
            DEFAULT_TIMEOUT,
            MAX_TIMEOUT,
            DEFAULT_TIMEOUT,
            DEFAULT_TIMEOUT,
            DEFAULT_TIMEOUT,
            Duration::from_millis(1500),
            Duration::from_secs(30),
            MAX_TIMEOUT,
        ]
    );
    assert_eq!(warnings.len(), 4, "{warnings:?}");
    assert!(warnings[0].contains("clamped"), "{warnings:?}");
    assert!(
        warnings[0].starts_with("hooks.post_llm_call[1]"),
        "{warnings:?}"
    );
    assert!(warnings[1].contains("default 60s"), "{warnings:?}");
}

#[test]
fn a_bad_matcher_regex_skips_the_hook() {
    let (specs, warnings) = parse(
        "pre_tool_call:\n  - matcher: \"(unclosed\"\n    command: guard\n  - matcher: [1]\n    command: other\n",
    );
    assert!(specs.is_empty());
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("not a valid regex"), "{warnings:?}");
    assert!(
        warnings[1].contains("must be a regex string"),
        "{warnings:?}"
    );
}

#[test]
fn matchers_match_the_whole_tool_name() {
    let (specs, _) = parse(
        "pre_tool_call:\n  - matcher: \"write_file|patch\"\n    command: a\n  - matcher: terminal\n    command: b\n  - matcher: \"read_.*\"\n    command: c\n",
    );
    assert!(specs[0].matches_tool("write_file"));
    assert!(specs[0].matches_tool("patch"));
    assert!(!specs[0].matches_tool("apply_patch"));
    assert!(specs[1].matches_tool("terminal"));
    assert!(!specs[1].matches_tool("terminal2"));
    assert!(!specs[1].matches_tool("my_terminal"));
    assert!(specs[2].matches_tool("read_file"));
    assert_eq!(specs[0].matcher_pattern(), Some("write_file|patch"));
}

#[test]
fn an_empty_matcher_matches_everything() {
    let (specs, warnings) = parse("post_tool_call:\n  - matcher: \"  \"\n    command: a\n");
    assert!(warnings.is_empty());
    assert!(specs[0].matcher.is_none());
    assert!(specs[0].matches_tool("anything"));
}

#[test]
fn a_matcher_on_a_non_tool_event_is_ignored_with_a_warning() {
    let (specs, warnings) = parse("pre_llm_call:\n  - matcher: terminal\n    command: ctx\n");
    assert_eq!(specs.len(), 1);
    assert!(specs[0].matcher.is_none());
    assert!(warnings[0].contains("is ignored"), "{warnings:?}");
}

#[test]
fn unknown_keys_are_ignored_silently() {
    let (specs, warnings) =
        parse("post_llm_call:\n  - command: a\n    fail_closed: true\n    note: hi\n");
    assert_eq!(specs.len(), 1);
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn non_string_event_keys_warn() {
    let (specs, warnings) = parse("1:\n  - command: a\n");
    assert!(specs.is_empty());
    assert!(warnings[0].contains("must be strings"), "{warnings:?}");
}
