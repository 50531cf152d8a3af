use super::*;

#[test]
fn every_event_round_trips_through_its_name() {
    for event in HookEvent::ALL {
        assert_eq!(HookEvent::parse(event.as_str()), Ok(event));
        assert_eq!(event.to_string(), event.as_str());
    }
}

#[test]
fn names_match_hermes() {
    let names: Vec<&str> = HookEvent::ALL.iter().map(|e| e.as_str()).collect();
    assert_eq!(
        names,
        [
            "pre_tool_call",
            "post_tool_call",
            "pre_llm_call",
            "post_llm_call",
            "on_session_start",
            "on_session_end",
            "on_session_reset",
            "subagent_stop",
        ]
    );
}

#[test]
fn only_tool_events_are_tool_events() {
    let tool: Vec<HookEvent> = HookEvent::ALL
        .into_iter()
        .filter(|e| e.is_tool_event())
        .collect();
    assert_eq!(tool, [HookEvent::PreToolCall, HookEvent::PostToolCall]);
}

#[test]
fn a_typo_gets_a_suggestion() {
    for (typo, expected) in [
        ("pre_tool_cal", "pre_tool_call"),
        ("pretoolcall", "pre_tool_call"),
        ("post-llm-call", "post_llm_call"),
        ("on_sesion_start", "on_session_start"),
        ("subagent_stopp", "subagent_stop"),
        ("Pre_LLM_Call", "pre_llm_call"),
    ] {
        let err = HookEvent::parse(typo).unwrap_err().to_string();
        assert!(
            err.contains(&format!("did you mean `{expected}`?")),
            "{typo}: {err}"
        );
    }
}

#[test]
fn nonsense_lists_the_valid_events() {
    let err = HookEvent::parse("zzz").unwrap_err().to_string();
    assert!(err.contains("unknown hook event `zzz`"), "{err}");
    assert!(
        err.contains("valid: pre_tool_call, post_tool_call"),
        "{err}"
    );
    assert!(!err.contains("did you mean"), "{err}");
}

#[test]
fn hermes_only_events_say_they_are_unsupported() {
    for name in [
        "transform_tool_result",
        "on_session_finalize",
        "pre_api_request",
    ] {
        let err = HookEvent::parse(name).unwrap_err().to_string();
        assert!(
            err.contains("not supported by shell hooks"),
            "{name}: {err}"
        );
        assert!(!err.contains("did you mean"), "{name}: {err}");
    }
}

#[test]
fn exact_names_are_case_sensitive() {
    assert!(HookEvent::parse("PRE_TOOL_CALL").is_err());
}

#[test]
fn similarity_is_one_for_equal_and_low_for_unrelated() {
    assert_eq!(similarity("abc", "abc"), 1.0);
    assert_eq!(similarity("", ""), 1.0);
    assert!(similarity("abc", "xyz") < 0.1);
    assert!(similarity("pre_tool_cal", "pre_tool_call") > 0.9);
}
