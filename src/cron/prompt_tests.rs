use super::*;

#[test]
fn silence_is_the_marker_alone_first_or_last_line_or_prefix() {
    for text in [
        "[SILENT]",
        " silent ",
        "NO_REPLY",
        "no reply",
        "[SILENT]\n",
        "Nothing new.\n[SILENT]",
        "[SILENT] nothing changed",
        "**[SILENT]**",
    ] {
        assert!(is_silent(text), "{text:?}");
    }
    for text in [
        "",
        "The build is silent about errors",
        "Report:\n- 3 new issues",
    ] {
        assert!(!is_silent(text), "{text:?}");
    }
}

#[test]
fn wrapping_is_the_spec_format_and_can_be_turned_off() {
    assert_eq!(
        wrap("digest", "3 new issues", true),
        "Cronjob Response: digest\n-------------\n\n3 new issues\n\nNote: The agent cannot see this message, and therefore cannot respond to it."
    );
    assert_eq!(wrap("digest", "3 new issues", false), "3 new issues");
}

#[test]
fn skills_come_first_with_their_invocation_lines_and_missing_ones_are_announced() {
    let text = with_skills(
        "check the build",
        &[
            ("triage".into(), Ok("# Triage\nDo it.".into())),
            ("gone".into(), Err("not found".into())),
        ],
    );
    assert!(text.starts_with("[IMPORTANT: The following skill(s) were listed for this job but could not be found and were skipped: gone."));
    assert!(text.contains("[IMPORTANT: The user has invoked the \"triage\" skill, indicating they want you to follow its instructions. The full skill content is loaded below.]\n\n# Triage\nDo it."));
    assert!(text.ends_with("\n\nThe user has provided the following instruction alongside the skill invocation: check the build"));
}

#[test]
fn script_output_and_errors_become_context_and_empty_output_skips_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let job = Job::from_map(
        serde_json::json!({"id": "a", "prompt": "analyse"})
            .as_object()
            .unwrap()
            .clone(),
    );
    let built = build(&job, Some(&Ok("disk 91%".into())), dir.path()).unwrap();
    assert!(built.has_injected_data);
    assert!(built.text.contains("## Script Output\nThe following data was collected by a pre-run script. Use it as context for your analysis.\n\n```\ndisk 91%\n```\n\nanalyse"));
    let failed = build(&job, Some(&Err("exit 2".into())), dir.path()).unwrap();
    assert!(
        failed.text.contains(
            "## Script Error\nThe data-collection script failed. Report this to the user."
        )
    );
    assert!(build(&job, Some(&Ok(String::new())), dir.path()).is_none());
}

#[test]
fn context_from_puts_the_latest_output_first_capped() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("abc123")).unwrap();
    std::fs::write(
        dir.path().join("abc123/2026-06-01_10-00-00.md"),
        "x".repeat(9000),
    )
    .unwrap();
    let job = Job::from_map(
        serde_json::json!({"id": "b", "prompt": "go", "context_from": ["abc123", "../etc"]})
            .as_object()
            .unwrap()
            .clone(),
    );
    let built = build(&job, None, dir.path()).unwrap();
    assert!(built.text.contains("## Output from job 'abc123'\n"));
    assert!(built.text.contains("\n\n[... output truncated ...]\n```"));
    assert!(!built.text.contains("etc"));
}
