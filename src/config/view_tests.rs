use super::*;
use crate::config::test_support::home_with;

#[test]
fn get_known_keys_defaults_and_secrets() {
    let (_d, home) = home_with(Some(
        "model:\n  api_key: sk-or-v1-abcdefghijklmnopqrstuvwx\n",
    ));
    assert_eq!(config_get(&home, "terminal.timeout").unwrap(), "180");
    assert_eq!(config_get(&home, "model.api_key").unwrap(), "***");
    assert_eq!(config_get(&home, "model.base_url").unwrap(), "");
    let section = config_get(&home, "model").unwrap();
    assert!(section.contains("api_key: '***'"), "{section}");
    assert!(matches!(
        config_get(&home, "nope.x"),
        Err(ConfigError::KeyNotSet { .. })
    ));
}

#[test]
fn show_masks_secrets_and_lists_env_names() {
    let text =
        "model:\n  default: m\n  api_key: sk-secret-value-0000000000\nhoncho:\n  enabled: true\n";
    let (_d, home) = home_with(Some(text));
    std::fs::write(
        home.env_path(),
        "OPENROUTER_API_KEY=sk-or-secret-1111111111\n",
    )
    .unwrap();
    let loaded = load(&home);
    let env_keys = vec!["OPENROUTER_API_KEY".to_string()];
    let process = |k: &str| (k == "ANTHROPIC_API_KEY").then(|| "x".to_string());
    let out = render_show(&loaded, &home.env_path(), &env_keys, &process).unwrap();
    assert!(
        !out.contains("sk-secret") && !out.contains("sk-or-secret"),
        "{out}"
    );
    assert!(out.contains("api_key: '***'"), "{out}");
    assert!(out.contains(&format!("# config: {}\n", home.config_path().display())));
    assert!(out.contains("#   OPENROUTER_API_KEY=***\n"), "{out}");
    assert!(
        out.contains("# set in the environment: ANTHROPIC_API_KEY\n"),
        "{out}"
    );
    assert!(out.contains("not used by hermes yet: honcho"), "{out}");
    assert!(out.contains("  timeout: 180\n"), "{out}");
    let full = config_show(&home).unwrap();
    assert!(!full.contains("sk-or-secret"), "{full}");
    assert!(full.contains("OPENROUTER_API_KEY=***"));
}

#[test]
fn show_reports_malformed_file() {
    let (_d, home) = home_with(Some("terminal:\n  timeout: abc\n"));
    let out = config_show(&home).unwrap();
    assert!(out.contains("# warning: "), "{out}");
    assert!(out.contains("config.yaml:2:12:"), "{out}");
}

#[test]
fn mcp_servers_are_shown_with_secret_named_values_masked() {
    let text = "\
mcp_servers:
  github:
    command: npx
    args: [-y, server, --token, ghp_abcdefghijklmnopqrstuvwxyz0123456789]
    env:
      GITHUB_PERSONAL_ACCESS_TOKEN: ghp_secretsecretsecretsecret0000
      LOG_LEVEL: debug
  remote:
    url: https://user:hunter2pass@example.com/mcp
    headers:
      Authorization: Bearer abc.def.ghi
      X-Team: core
";
    let (_d, home) = home_with(Some(text));
    let out = config_show(&home).unwrap();
    for secret in ["abcdefghijklmnop", "secretsecret", "abc.def", "hunter2pass"] {
        assert!(!out.contains(secret), "{secret} leaked:\n{out}");
    }
    assert!(
        out.contains("\nmcp_servers:\n  github:\n    command: npx\n"),
        "{out}"
    );
    assert!(out.contains("GITHUB_PERSONAL_ACCESS_TOKEN: '***'"), "{out}");
    assert!(out.contains("LOG_LEVEL: debug"), "{out}");
    assert!(out.contains("Authorization: '***'"), "{out}");
    assert!(out.contains("X-Team: core"), "{out}");
    assert!(out.contains("timeout: 300.0"), "{out}");
    assert!(!out.contains("not used by hermes yet"), "{out}");
    assert_eq!(
        config_get(&home, "mcp_servers.remote.headers.Authorization").unwrap(),
        "***"
    );
    let headers = config_get(&home, "mcp_servers.remote.headers").unwrap();
    assert!(headers.contains("Authorization: '***'") && headers.contains("X-Team: core"));
    assert_eq!(
        config_get(&home, "mcp_servers.github.command").unwrap(),
        "npx"
    );
}

#[test]
fn show_does_not_call_the_provider_sections_unused() {
    let (_d, home) = home_with(Some(
        "providers:\n  p:\n    base_url: http://h/v1\n    api_key: sk-inline-000000\ncustom_providers: []\nbedrock:\n  region: eu-west-1\nhoncho: {}\n",
    ));
    let out = config_show(&home).unwrap();
    assert!(out.contains("not used by hermes yet: honcho\n"), "{out}");
    assert!(!out.contains("sk-inline"), "{out}");
}
