use std::path::PathBuf;

use crate::config::load::parse;

fn load(text: &str) -> crate::config::LoadedConfig {
    parse(text, &PathBuf::from("/h/config.yaml"))
}

#[test]
fn agent_max_turns_is_the_iteration_cap() {
    let loaded = load("agent:\n  max_turns: 7\n");
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(loaded.config.agent.max_iterations, 7);
}

#[test]
fn top_level_max_turns_counts_when_agent_max_turns_is_unset() {
    assert_eq!(load("max_turns: 12\n").config.agent.max_iterations, 12);
    let both = load("max_turns: 12\nagent:\n  max_turns: 5\n");
    assert_eq!(both.config.agent.max_iterations, 5);
    // Hermes treats 0 and null as unset.
    assert_eq!(
        load("agent:\n  max_turns: 0\nmax_turns: 4\n")
            .config
            .agent
            .max_iterations,
        4
    );
    assert_eq!(
        load("agent:\n  max_turns: null\n")
            .config
            .agent
            .max_iterations,
        90
    );
}

#[test]
fn hermes_name_wins_over_ours_with_a_warning_naming_both() {
    let loaded = load("agent:\n  max_iterations: 30\n  max_turns: 60\n");
    assert_eq!(loaded.config.agent.max_iterations, 60);
    assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
    let warning = loaded.warnings[0].to_string();
    assert!(
        warning.starts_with("/h/config.yaml:2:19: agent.max_turns and agent.max_iterations"),
        "{warning}"
    );
    // Equal values are not a conflict.
    assert!(
        load("agent:\n  max_iterations: 60\n  max_turns: 60\n")
            .warnings
            .is_empty()
    );
    // hermes's own name alone still works.
    assert_eq!(
        load("agent:\n  max_iterations: 30\n")
            .config
            .agent
            .max_iterations,
        30
    );
}

#[test]
fn a_bad_max_turns_is_ignored_with_a_warning() {
    let loaded = load("agent:\n  max_turns: lots\n");
    assert_eq!(loaded.config.agent.max_iterations, 90);
    assert_eq!(loaded.warnings.len(), 1);
    assert!(
        loaded.warnings[0]
            .to_string()
            .contains("agent.max_turns must be a whole number, not lots — ignored"),
        "{:?}",
        loaded.warnings
    );
}

#[test]
fn api_max_retries_counts_attempts() {
    assert_eq!(
        load("agent:\n  api_max_retries: 3\n")
            .config
            .provider
            .max_retries,
        2
    );
    // Hermes's floor: at least one attempt, i.e. no retry.
    assert_eq!(
        load("agent:\n  api_max_retries: 0\n")
            .config
            .provider
            .max_retries,
        0
    );
    let both = load("agent:\n  api_max_retries: 5\nprovider:\n  max_retries: 1\n");
    assert_eq!(both.config.provider.max_retries, 4);
    assert_eq!(both.warnings.len(), 1, "{:?}", both.warnings);
}

#[test]
fn model_aliases_fill_empty_model_keys() {
    let c = load("model:\n  name: qwen3:8b\n  api_base: http://127.0.0.1:1/v1\n").config;
    assert_eq!(c.model.default, "qwen3:8b");
    assert_eq!(c.model.base_url, "http://127.0.0.1:1/v1");
    let c = load("model:\n  model: a/b\n").config;
    assert_eq!(c.model.default, "a/b");
    let c = load(
        "model: some/model\nprovider: openrouter\nbase_url: http://x/v1\ncontext_length: 8192\n",
    )
    .config;
    assert_eq!(c.model.default, "some/model");
    assert_eq!(c.model.provider, "openrouter");
    assert_eq!(c.model.base_url, "http://x/v1");
    assert_eq!(c.model.context_length, 8192);
    // A top-level `provider:` string is not hermes's `provider:` section: no warning.
    assert!(load("provider: openrouter\n").warnings.is_empty());
    // Explicit keys win over the aliases.
    let c =
        load("model:\n  default: mine\n  name: theirs\n  provider: anthropic\nprovider: openai\n")
            .config;
    assert_eq!(c.model.default, "mine");
    assert_eq!(c.model.provider, "anthropic");
}

#[test]
fn model_shorthand_is_trimmed_and_empty_is_unset() {
    assert_eq!(load("model: '  a/b  '\n").config.model.default, "a/b");
    let empty = load("model: ''\n");
    assert!(empty.warnings.is_empty());
    assert_eq!(empty.config.model, crate::config::ModelConfig::default());
}

#[test]
fn subagent_auto_approve_means_once_unless_approvals_are_set() {
    let c = load("delegation:\n  subagent_auto_approve: true\n").config;
    assert_eq!(c.delegation.subagent_approvals, "once");
    let c = load("delegation:\n  subagent_auto_approve: false\n").config;
    assert_eq!(c.delegation.subagent_approvals, "ask");
    let c = load("delegation:\n  subagent_auto_approve: true\n  subagent_approvals: deny\n").config;
    assert_eq!(c.delegation.subagent_approvals, "deny");
}
