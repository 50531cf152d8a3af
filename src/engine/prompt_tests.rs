use super::*;

#[test]
fn formats_known_timestamps() {
    assert_eq!(format_utc(0), "1970-01-01 00:00 UTC");
    assert_eq!(format_utc(951_782_400), "2000-02-29 00:00 UTC");
    assert_eq!(format_utc(1_795_978_800), "2026-11-29 19:00 UTC");
}

#[test]
fn writes_default_soul_on_first_run_and_reads_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("home/SOUL.md");
    let (soul, source) = load_soul(&path);
    assert_eq!(source, SoulSource::WroteDefault);
    assert_eq!(soul, DEFAULT_SOUL);
    std::fs::write(&path, "You are a pirate.").unwrap();
    let (soul, source) = load_soul(&path);
    assert_eq!(source, SoulSource::File);
    assert_eq!(soul, "You are a pirate.");
}

#[test]
fn unreadable_soul_falls_back_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    // A directory where the file should be cannot be read as text.
    let path = dir.path().join("SOUL.md");
    std::fs::create_dir(&path).unwrap();
    let (soul, source) = load_soul(&path);
    assert_eq!(soul, DEFAULT_SOUL);
    assert!(matches!(source, SoulSource::DefaultAfterError(ref why) if why.contains("SOUL.md")));
}

#[test]
fn prompt_lists_tools_and_environment() {
    let tools = vec!["terminal".to_string(), "read_file".to_string()];
    let env = PromptEnvironment {
        cwd: Path::new("/work/project"),
        tool_names: &tools,
        sections: &["## Memory\nlikes tabs".to_string(), String::new()],
        started_at: "2026-11-29 19:00 UTC",
    };
    let prompt = build_system_prompt("You are Hermes.\n", &env);
    assert!(prompt.starts_with("You are Hermes.\n\n## Using tools"));
    assert!(prompt.contains("Available tools: terminal, read_file."));
    assert!(prompt.contains("read_file.\n\n## Memory\nlikes tabs\n\n## Environment"));
    assert!(prompt.contains("- Working directory: /work/project"));
    assert!(prompt.contains("- Session started: 2026-11-29 19:00 UTC"));
    // Built twice from the same inputs, the prompt is byte-identical.
    assert_eq!(prompt, build_system_prompt("You are Hermes.\n", &env));
}

#[test]
fn tool_guidance_names_only_the_tools_the_session_has() {
    let names = |list: &[&str]| list.iter().map(ToString::to_string).collect::<Vec<_>>();
    let all = tool_guidance(&names(&[
        "terminal",
        "process",
        "read_file",
        "patch",
        "search_files",
        "todo",
        "clarify",
    ]));
    assert!(all.contains("- Read a file before you patch it."));
    assert!(all.contains("- Prefer `search_files`"));
    assert!(all.contains("`background=true`"));
    assert!(all.contains(
        "- Use `todo` to plan and track multi-step work. Use `clarify` only when you truly need the user's decision."
    ));
    // The toolsets `file` and `todo` switched off: their lines go with them.
    let some = tool_guidance(&names(&["terminal", "process", "clarify"]));
    for gone in ["patch", "search_files", "read_file", "`todo`"] {
        assert!(!some.contains(gone), "{gone} in {some}");
    }
    assert!(some.contains("\n- Use `clarify` only when you truly need the user's decision."));
    assert!(some.contains("`background=true`"));
    assert!(some.contains("- Tool output may be truncated"));
    let todo_only = tool_guidance(&names(&["todo"]));
    assert!(todo_only.contains("\n- Use `todo` to plan and track multi-step work.\n"));
    assert!(!todo_only.contains("clarify"));
}
