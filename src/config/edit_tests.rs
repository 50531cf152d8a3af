use super::*;
use crate::config::Config;
use crate::config::load::load;
#[cfg(unix)]
use crate::config::test_support::config_permissions;
use crate::config::test_support::{home_with, read};
use crate::config::view::config_get;
use std::collections::BTreeSet;

const FILE: &str = "\
# My Hermes settings
model:
  default: anthropic/claude-sonnet-4  # favourite
  provider: openrouter

# terminal stuff
terminal:
  backend: local
  timeout: 180   # seconds

display:
  skin: ares   # unknown to hermes, must survive
  tool_progress: all
memory:
  memory_char_limit: 2200
";

#[test]
fn known_keys_match_the_schema() {
    fn leaves(prefix: &str, v: &Value, out: &mut BTreeSet<String>) {
        match v {
            Value::Mapping(m) => {
                for (k, v) in m {
                    let k = k.as_str().unwrap();
                    let p = if prefix.is_empty() {
                        k.to_string()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    leaves(&p, v, out);
                }
            }
            _ => {
                out.insert(prefix.to_string());
            }
        }
    }
    let mut schema = BTreeSet::new();
    leaves(
        "",
        &serde_norway::to_value(Config::default()).unwrap(),
        &mut schema,
    );
    let table: BTreeSet<String> = KNOWN_KEYS.iter().map(|k| k.key.to_string()).collect();
    assert_eq!(schema, table);
    let sections: BTreeSet<String> = schema
        .iter()
        .filter_map(|k| k.split_once('.').map(|(section, _)| section.to_string()))
        .collect();
    assert_eq!(sections, SECTIONS.iter().map(ToString::to_string).collect());
}

#[test]
fn set_replaces_value_keeping_everything_else() {
    let (_d, home) = home_with(Some(FILE));
    let outcome = config_set(&home, "terminal.timeout", "300").unwrap();
    assert_eq!(outcome.method, EditMethod::InPlace);
    assert!(outcome.notices.is_empty(), "{:?}", outcome.notices);
    assert_eq!(
        read(&home),
        FILE.replace("timeout: 180   #", "timeout: 300   #")
    );
    assert_eq!(config_get(&home, "terminal.timeout").unwrap(), "300");
}

#[test]
fn set_inserts_missing_key_and_section() {
    let (_d, home) = home_with(Some(FILE));
    config_set(&home, "model.base_url", "http://localhost:8080/v1").unwrap();
    config_set(&home, "agent.max_iterations", "40").unwrap();
    let text = read(&home);
    let expected = FILE.replace(
        "  provider: openrouter\n",
        "  provider: openrouter\n  base_url: http://localhost:8080/v1\n",
    ) + "agent:\n  max_iterations: 40\n";
    assert_eq!(text, expected);
    let loaded = load(&home);
    assert_eq!(loaded.config.agent.max_iterations, 40);
    assert_eq!(loaded.config.model.base_url, "http://localhost:8080/v1");
}

#[test]
fn set_creates_missing_file() {
    let (_d, home) = home_with(None);
    config_set(&home, "model.default", "qwen2.5:7b").unwrap();
    assert_eq!(read(&home), "model:\n  default: qwen2.5:7b\n");
    #[cfg(unix)]
    assert_eq!(config_permissions(&home), 0o600);
}

#[test]
fn strings_that_yaml_would_misread_are_quoted() {
    let (_d, home) = home_with(Some(FILE));
    let cases = [
        ("true", "\"true\""),
        ("123", "\"123\""),
        ("", "\"\""),
        ("a: b", "\"a: b\""),
        ("x #y", "\"x #y\""),
        ("*alias", "\"*alias\""),
        ("say \"hi\"\n", "\"say \\\"hi\\\"\\n\""),
        (" padded", "\" padded\""),
        ("null", "\"null\""),
        ("plain/model-name:7b", "plain/model-name:7b"),
    ];
    for (value, rendered) in cases {
        config_set(&home, "model.default", value).unwrap();
        let text = read(&home);
        assert!(
            text.contains(&format!("  default: {rendered}  # favourite\n")),
            "{value:?} -> {text}"
        );
        assert_eq!(load(&home).config.model.default, value);
    }
}

#[test]
fn unknown_keys_are_allowed_with_a_notice() {
    let (_d, home) = home_with(Some(FILE));
    let outcome = config_set(&home, "display.tool_progress", "new").unwrap();
    assert_eq!(outcome.notices.len(), 1);
    assert!(outcome.notices[0].contains("not a key hermes uses yet"));
    assert_eq!(
        read(&home),
        FILE.replace("tool_progress: all", "tool_progress: new")
    );
    config_set(&home, "display.tool_progress", "all").unwrap();
    config_set(&home, "display.compact", "true").unwrap();
    assert!(read(&home).contains("  tool_progress: all\n  compact: true\nmemory:"));
    assert_eq!(config_get(&home, "display.compact").unwrap(), "true");
    assert_eq!(
        config_get(&home, "memory.memory_char_limit").unwrap(),
        "2200"
    );
    assert_eq!(
        config_get(&home, "display").unwrap(),
        "busy_input_mode: interrupt\nskin: ares\ntheme_mode: auto\ntool_progress: all\ncompact: true"
    );
}

#[test]
fn mcp_server_fields_are_set_with_a_pointer_to_mcp_test() {
    let (_d, home) = home_with(Some("mcp_servers:\n  fs:\n    command: npx\n"));
    let outcome = config_set(&home, "mcp_servers.fs.timeout", "30").unwrap();
    assert_eq!(
        outcome.notices,
        ["mcp_servers.fs.timeout saved as text; `hermes mcp test fs` checks the server"]
    );
    let servers = load(&home).config.mcp_servers;
    assert_eq!(servers[0].config.timeout, 30.0);
}

#[test]
fn validation_errors_leave_file_untouched() {
    let (_d, home) = home_with(Some(FILE));
    let err = config_set(&home, "terminal.timeout", "abc").unwrap_err();
    assert_eq!(
        err.to_string(),
        "terminal.timeout must be a whole number of seconds"
    );
    let err = config_set(&home, "agent.max_iterations", "-1").unwrap_err();
    assert_eq!(
        err.to_string(),
        "agent.max_iterations must be a whole number"
    );
    let err = config_set(&home, "model.max_tokens", "99999999999").unwrap_err();
    assert!(err.to_string().contains("at most 4294967295"));
    assert!(matches!(
        config_set(&home, "terminal", "x"),
        Err(ConfigError::IsSection { .. })
    ));
    assert!(matches!(
        config_set(&home, "display", "x"),
        Err(ConfigError::IsSection { .. })
    ));
    for bad in ["", "a..b", ".a", "a b", "a/b"] {
        assert!(
            matches!(
                config_set(&home, bad, "x"),
                Err(ConfigError::InvalidKey { .. })
            ),
            "{bad:?}"
        );
    }
    assert_eq!(read(&home), FILE);
}

#[test]
fn malformed_file_is_not_edited() {
    let bad = "model:\n  default: [x\n";
    let (_d, home) = home_with(Some(bad));
    let err = config_set(&home, "terminal.timeout", "5").unwrap_err();
    let ConfigError::Malformed(w) = &err else {
        panic!("{err:?}")
    };
    assert!(w.line.is_some());
    assert!(err.to_string().contains("config.yaml:"));
    assert_eq!(read(&home), bad);
}

#[test]
fn flow_style_falls_back_to_serializer_with_backup() {
    let flow = "# comment\nterminal: {backend: local, timeout: 10}\nother: [1, 2]\n";
    let (_d, home) = home_with(Some(flow));
    let outcome = config_set(&home, "terminal.timeout", "20").unwrap();
    assert_eq!(outcome.method, EditMethod::Reserialized);
    assert!(
        outcome.notices.iter().any(|n| n.contains("comments")),
        "{:?}",
        outcome.notices
    );
    let backup = home.config_path().with_extension("yaml.bak");
    assert_eq!(std::fs::read_to_string(backup).unwrap(), flow);
    let loaded = load(&home);
    assert!(loaded.warnings.is_empty());
    assert_eq!(loaded.config.terminal.timeout, 20);
    assert_eq!(loaded.config.terminal.backend, "local");
    assert_eq!(loaded.raw["other"][1].as_u64(), Some(2));
}

#[test]
fn model_shorthand_becomes_a_section() {
    let (_d, home) = home_with(Some("model: gpt-4o\n"));
    config_set(&home, "model.provider", "openai").unwrap();
    let loaded = load(&home);
    assert_eq!(loaded.config.model.default, "gpt-4o");
    assert_eq!(loaded.config.model.provider, "openai");
}

#[test]
fn atomic_write_leaves_no_temp_files() {
    let (_d, home) = home_with(Some(FILE));
    config_set(&home, "terminal.backend", "docker").unwrap();
    let names: Vec<String> = std::fs::read_dir(home.root())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains(".tmp")), "{names:?}");
}

#[test]
fn secret_in_config_gets_a_notice() {
    let (_d, home) = home_with(None);
    let outcome = config_set(&home, "model.api_key", "sk-test-1234567890abcdef").unwrap();
    assert!(outcome.notices.iter().any(|n| n.contains(".env")));
}

#[test]
fn hermes_names_are_set_and_read_like_the_key_they_stand_for() {
    let (_d, home) = home_with(Some("agent:\n  max_turns: 40\n"));
    assert_eq!(config_get(&home, "agent.max_turns").unwrap(), "40");
    assert_eq!(config_get(&home, "agent.max_iterations").unwrap(), "40");
    assert_eq!(config_get(&home, "agent.api_max_retries").unwrap(), "3");
    // Validated as the hermes key, written under the name given.
    let err = config_set(&home, "agent.max_turns", "lots").unwrap_err();
    assert!(matches!(err, ConfigError::InvalidValue { .. }), "{err}");
    let outcome = config_set(&home, "agent.max_turns", "12").unwrap();
    assert!(outcome.notices.is_empty(), "{:?}", outcome.notices);
    assert_eq!(read(&home), "agent:\n  max_turns: 12\n");
    // Setting hermes's own name under a Hermes name that wins says so.
    let outcome = config_set(&home, "agent.max_iterations", "5").unwrap();
    assert_eq!(
        outcome.notices,
        vec![
            "agent.max_turns is also in the file and wins over agent.max_iterations (it is \
             Hermes's name for it); set agent.max_turns instead"
                .to_string()
        ]
    );
    assert_eq!(config_get(&home, "agent.max_iterations").unwrap(), "12");
}
