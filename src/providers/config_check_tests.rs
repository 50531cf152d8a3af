use std::path::PathBuf;

use super::*;

fn warnings(text: &str) -> Vec<String> {
    let loaded = crate::config::load::parse(text, &PathBuf::from("/h/config.yaml"));
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    provider_warnings(&loaded)
}

#[test]
fn hermes_defaults_and_known_names_are_fine() {
    let text = "\
model:
  provider: auto
auxiliary:
  vision:
    provider: auto
  title_generation:
    provider: main
  curator:
    provider: openrouter
  web_extract:
    provider: custom:lab
delegation:
  provider: ''
providers:
  lab:
    base_url: http://127.0.0.1:9/v1
fallback_providers:
  - provider: deepseek
    model: deepseek-chat
";
    assert!(warnings(text).is_empty(), "{:?}", warnings(text));
}

#[test]
fn every_place_a_provider_is_named_is_checked() {
    let text = "\
model:
  provider: openai-codex
auxiliary:
  compression:
    provider: codex
  skills_hub:
    provider: gemni
delegation:
  provider: nowhere
fallback_providers:
  - provider: qwen-oauth
fallback_model:
  provider: deepseek
providers:
  deepseek:
    enabled: false
";
    let w = warnings(text);
    assert_eq!(w.len(), 6, "{w:#?}");
    assert!(
        w[0].contains("`openai-codex` (model.provider)") && w[0].contains("`openai-api`"),
        "{}",
        w[0]
    );
    assert!(
        w[1].contains("auxiliary.compression.provider") && w[1].contains("openai-codex"),
        "{}",
        w[1]
    );
    assert!(
        w[2].contains("`gemni` in auxiliary.skills_hub.provider")
            && w[2].contains("did you mean `gemini`?"),
        "{}",
        w[2]
    );
    assert!(
        w[3].contains("`nowhere` in delegation.provider"),
        "{}",
        w[3]
    );
    assert!(w[4].contains("fallback_providers[0].provider"), "{}", w[4]);
    assert!(
        w[5].contains("fallback_model.provider") && w[5].contains("disabled"),
        "{}",
        w[5]
    );
    assert!(w.iter().all(|line| !line.contains('\n')));
}

#[test]
fn main_is_not_a_name_for_the_main_model() {
    let w = warnings("model:\n  provider: main\n");
    assert_eq!(w.len(), 1, "{w:?}");
}
