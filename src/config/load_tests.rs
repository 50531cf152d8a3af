use super::*;

fn path() -> PathBuf {
    PathBuf::from("/home/u/.hermes/config.yaml")
}

#[test]
fn missing_file_is_defaults_without_warning() {
    let dir = tempfile::tempdir().unwrap();
    let loaded = load_path(&dir.path().join("config.yaml"));
    assert_eq!(loaded.config, Config::default());
    assert!(loaded.warnings.is_empty());
    assert!(!loaded.exists);
}

#[test]
fn a_file_starting_with_a_byte_order_mark_loads_like_one_without() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("config.yaml");
    std::fs::write(
        &file,
        "\u{feff}model:\n  default: bom-model\nprovider:\n  max_retries: 1\n",
    )
    .unwrap();
    let loaded = load_path(&file);
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(loaded.config.model.default, "bom-model");
}

#[test]
fn valid_file_loads_all_sections() {
    let text = "\
model:
  default: qwen2.5:7b
  provider: custom
  base_url: http://localhost:11434/v1
  context_length: 32768
terminal:
  timeout: 60
agent:
  max_iterations: 20
provider:
  stream_idle_timeout: 30
  max_retries: 5
display:
  skin: ares
";
    let loaded = parse(text, &path());
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let c = &loaded.config;
    assert_eq!(c.model.default, "qwen2.5:7b");
    assert_eq!(c.model.base_url, "http://localhost:11434/v1");
    assert_eq!(c.model.context_length, 32768);
    assert_eq!(c.terminal.timeout, 60);
    assert_eq!(c.terminal.backend, "local");
    assert_eq!(c.agent.max_iterations, 20);
    assert_eq!(c.provider.stream_idle_timeout, 30);
    assert_eq!(c.provider.max_retries, 5);
    assert_eq!(loaded.raw["display"]["skin"].as_str(), Some("ares"));
}

#[test]
fn partial_and_empty_files_use_defaults_for_the_rest() {
    let loaded = parse("terminal:\n  timeout: 5\nmodel:\n", &path());
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(loaded.config.terminal.timeout, 5);
    assert_eq!(loaded.config.agent.max_iterations, 90);
    assert_eq!(parse("", &path()).config, Config::default());
    assert!(parse("# just a comment\n", &path()).warnings.is_empty());
}

#[test]
fn model_shorthand_string() {
    let loaded = parse("model: anthropic/claude-opus-4\n", &path());
    assert!(loaded.warnings.is_empty());
    assert_eq!(loaded.config.model.default, "anthropic/claude-opus-4");
}

#[test]
fn malformed_yaml_warns_with_path_line_and_column() {
    let text = "model:\n  default: x\n terminal: [unclosed\n";
    let loaded = parse(text, &path());
    assert_eq!(loaded.config, Config::default());
    assert_eq!(loaded.warnings.len(), 1);
    let w = &loaded.warnings[0];
    assert!(w.line.is_some() && w.column.is_some(), "{w:?}");
    let shown = w.to_string();
    let prefix = format!(
        "/home/u/.hermes/config.yaml:{}:{}: ",
        w.line.unwrap(),
        w.column.unwrap()
    );
    assert!(shown.starts_with(&prefix), "{shown}");
    assert!(shown.ends_with("— using defaults"), "{shown}");
}

#[test]
fn type_error_names_key_and_keeps_other_sections_and_fields() {
    let text = "\
model:
  default: kept-model
terminal:
  cwd: /srv
  timeout: abc
agent:
  max_iterations: 7
";
    let loaded = parse(text, &path());
    assert_eq!(loaded.config.model.default, "kept-model");
    assert_eq!(loaded.config.agent.max_iterations, 7);
    assert_eq!(loaded.config.terminal.cwd, "/srv");
    assert_eq!(loaded.config.terminal.timeout, 180);
    assert_eq!(loaded.warnings.len(), 1);
    let shown = loaded.warnings[0].to_string();
    assert_eq!(
        shown,
        "/home/u/.hermes/config.yaml:5:12: invalid type: string \"abc\", expected u64 \
         (terminal.timeout) — using the default for terminal.timeout"
    );
}

#[test]
fn several_bad_fields_each_get_a_located_warning() {
    let text = "provider:\n  stream_idle_timeout: soon\n  max_retries: many\n";
    let loaded = parse(text, &path());
    assert_eq!(
        loaded.config.provider,
        crate::config::ProviderConfig::default()
    );
    assert_eq!(loaded.warnings.len(), 2, "{:?}", loaded.warnings);
    assert_eq!(
        (loaded.warnings[0].line, loaded.warnings[0].column),
        (Some(2), Some(24))
    );
    assert_eq!(
        (loaded.warnings[1].line, loaded.warnings[1].column),
        (Some(3), Some(16))
    );
    assert!(
        loaded.warnings[1]
            .message
            .contains("(provider.max_retries)")
    );
}

#[test]
fn section_of_wrong_shape_falls_back() {
    let loaded = parse("terminal: fast\nagent:\n  max_iterations: 3\n", &path());
    assert_eq!(loaded.config.agent.max_iterations, 3);
    assert_eq!(
        loaded.config.terminal,
        crate::config::TerminalConfig::default()
    );
    assert_eq!(loaded.warnings.len(), 1);
    assert_eq!(loaded.warnings[0].line, Some(1));
    assert!(
        loaded.warnings[0]
            .message
            .contains("using defaults for terminal")
    );
}

#[test]
fn top_level_scalar_warns() {
    let loaded = parse("just text\n", &path());
    assert_eq!(loaded.warnings.len(), 1);
    assert!(loaded.warnings[0].message.contains("not a mapping"));
}

#[test]
fn load_via_home() {
    let dir = tempfile::tempdir().unwrap();
    let home = HermesHome::from_base(dir.path(), None).unwrap();
    std::fs::write(home.config_path(), "agent:\n  max_iterations: 12\n").unwrap();
    let loaded = load(&home);
    assert!(loaded.exists);
    assert_eq!(loaded.config.agent.max_iterations, 12);
    assert_eq!(loaded.path, home.config_path());
}

#[test]
fn every_section_of_the_schema_is_read() {
    // Serialising a config with a changed value in every section and loading it back must
    // give the same config: a section `load` forgets to read comes back as its default.
    let mut config = Config::default();
    config.model.default = "m".into();
    config.terminal.timeout = 7;
    config.agent.max_iterations = 3;
    config.provider.max_retries = 9;
    config.display.busy_input_mode = "queue".into();
    config.skills.external_dirs = vec!["/x".into()];
    config.compression.threshold = 0.3;
    config.auxiliary.goal_judge.model = "judge".into();
    config.approvals.timeout = 11;
    config.command_allowlist = vec!["git_force_push".into()];
    config.security.redact_secrets = false;
    config.checkpoints.max_snapshots = 4;
    config.delegation.max_iterations = 5;
    config.goals.max_turns = 6;
    config.voice.silence_duration = 2.5;
    config.stt.provider = "groq".into();
    config.tts.openai.voice = "nova".into();
    config.hooks_auto_accept = true;
    let text = serde_norway::to_string(&config).unwrap();
    let loaded = parse(&text, &path());
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(loaded.config, config, "{text}");
}

#[test]
fn a_terminal_backend_hermes_lacks_is_a_warning() {
    let loaded = parse("terminal:\n  backend: docker\n", &path());
    assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
    assert_eq!(
        loaded.warnings[0].to_string(),
        "/home/u/.hermes/config.yaml:2:12: terminal.backend `docker` is not supported by \
         hermes: commands run locally, on this machine"
    );
    assert!(
        parse("terminal:\n  backend: local\n", &path())
            .warnings
            .is_empty()
    );
}

#[test]
fn memory_and_tool_output_sections_load() {
    let loaded = parse(
        "memory:\n  memory_enabled: false\n  user_char_limit: 500\ntool_output:\n  max_bytes: 1000\nfile_read_max_chars: 4096\n",
        &path(),
    );
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let c = &loaded.config;
    assert!(!c.memory.memory_enabled);
    assert!(c.memory.user_profile_enabled);
    assert_eq!(c.memory.user_char_limit, 500);
    assert_eq!(c.memory.memory_char_limit, 2_200);
    assert_eq!(c.tool_output.max_bytes, 1000);
    assert_eq!(c.file_read_max_chars.0, 4096);
    assert_eq!(Config::default().file_read_max_chars.0, 256 * 1024);
}

#[test]
fn cron_timezone_and_sandbox_sections_are_read() {
    let text = "\
timezone: Europe/Berlin
cron:
  wrap_response: false
  max_parallel_jobs: 2
  output_retention: 7
approvals:
  cron_mode: approve
sandbox:
  mode: read-only
";
    let loaded = parse(text, &path());
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let c = &loaded.config;
    assert_eq!(c.timezone, "Europe/Berlin");
    assert!(!c.cron.wrap_response);
    assert_eq!(c.cron.max_parallel_jobs, Some(2));
    assert_eq!(c.cron.output_retention, 7);
    assert_eq!(
        c.approvals.cron_mode,
        crate::config::CronApprovalMode::Approve
    );
    assert_eq!(c.sandbox.mode, "read-only");
}

/// Every top-level section of `Config` is read from the file (a section left out of
/// `parse` silently keeps its defaults whatever the user writes).
#[test]
fn every_config_section_is_read_by_the_loader() {
    let source = include_str!("load.rs");
    let value = serde_json::to_value(Config::default()).unwrap();
    let handled_elsewhere = ["provider_endpoints", "mcp_servers", "toolsets", "hooks"];
    for key in value.as_object().unwrap().keys() {
        if handled_elsewhere.contains(&key.as_str()) {
            continue;
        }
        assert!(
            source.contains(&format!("\"{key}\", w)")),
            "config.yaml's `{key}:` is never read by config::load"
        );
    }
}
