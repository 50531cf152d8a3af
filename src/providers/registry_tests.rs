use std::collections::HashMap;

use super::*;
use crate::config::schema::EntrySource;
use crate::config::schema::ProviderEndpoints;
use crate::providers::profiles::Credential;
use crate::providers::profiles::ModeRule;

pub(in crate::providers) fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let map: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |k: &str| map.get(k).cloned()
}

pub(in crate::providers) fn model(provider: &str, base_url: &str) -> ModelConfig {
    ModelConfig {
        default: "some/model".into(),
        provider: provider.into(),
        base_url: base_url.into(),
        ..ModelConfig::default()
    }
}

pub(in crate::providers) fn resolve_env(
    m: &ModelConfig,
    env: &[(&str, &str)],
) -> Result<ResolvedProvider, ProviderSetupError> {
    resolve(m, &ProviderConfig::default(), &env_of(env))
}

fn resolve_named(
    m: &ModelConfig,
    endpoints: &ProviderEndpoints,
    env: &[(&str, &str)],
) -> Result<ResolvedProvider, ProviderSetupError> {
    let lookup = env_of(env);
    let sources = CredentialSources {
        env: &lookup,
        login: &|_| None,
        active_login: None,
    };
    let request = ProviderRequest {
        model: m,
        provider: &ProviderConfig::default(),
        endpoints,
        origin: "model.provider",
    };
    resolve_request(&request, &sources)
}

fn header<'a>(r: &'a ResolvedProvider, name: &str) -> Option<&'a str> {
    r.headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.expose())
}

use ApiMode::{
    AnthropicMessages as Messages, ChatCompletions as Chat, CodexResponses as Responses,
};
use AuthScheme::{Bearer, XApiKey};

/// Hermes 0.19's API-key profiles: id, endpoint with the default base URL, base-URL
/// variable, key variables in Hermes's order, wire format, auth header.
/// id, endpoint, base-URL variable, key variables, wire format, auth header.
type ProfileCase = (
    &'static str,
    &'static str,
    &'static str,
    &'static [&'static str],
    ApiMode,
    AuthScheme,
);

const API_KEY_PROFILES: &[ProfileCase] = &[
    (
        "openrouter",
        "https://openrouter.ai/api/v1/chat/completions",
        "OPENROUTER_BASE_URL",
        &["OPENROUTER_API_KEY", "OPENAI_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "openai-api",
        "https://api.openai.com/v1/responses",
        "OPENAI_BASE_URL",
        &["OPENAI_API_KEY"],
        Responses,
        Bearer,
    ),
    (
        "gemini",
        "https://generativelanguage.googleapis.com/v1beta/openai/chat/completions",
        "GEMINI_BASE_URL",
        &["GOOGLE_API_KEY", "GEMINI_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "zai",
        "https://api.z.ai/api/paas/v4/chat/completions",
        "GLM_BASE_URL",
        &["GLM_API_KEY", "ZAI_API_KEY", "Z_AI_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "kimi-coding",
        "https://api.moonshot.ai/v1/chat/completions",
        "KIMI_BASE_URL",
        &["KIMI_API_KEY", "KIMI_CODING_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "kimi-coding-cn",
        "https://api.moonshot.cn/v1/chat/completions",
        "",
        &["KIMI_CN_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "stepfun",
        "https://api.stepfun.ai/step_plan/v1/chat/completions",
        "STEPFUN_BASE_URL",
        &["STEPFUN_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "arcee",
        "https://api.arcee.ai/api/v1/chat/completions",
        "ARCEE_BASE_URL",
        &["ARCEEAI_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "gmi",
        "https://api.gmi-serving.com/v1/chat/completions",
        "GMI_BASE_URL",
        &["GMI_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "minimax",
        "https://api.minimax.io/anthropic/v1/messages",
        "MINIMAX_BASE_URL",
        &["MINIMAX_API_KEY"],
        Messages,
        Bearer,
    ),
    (
        "anthropic",
        "https://api.anthropic.com/v1/messages",
        "ANTHROPIC_BASE_URL",
        &[
            "ANTHROPIC_TOKEN",
            "CLAUDE_CODE_OAUTH_TOKEN",
            "ANTHROPIC_API_KEY",
        ],
        Messages,
        XApiKey,
    ),
    (
        "alibaba",
        "https://dashscope-intl.aliyuncs.com/compatible-mode/v1/chat/completions",
        "DASHSCOPE_BASE_URL",
        &["DASHSCOPE_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "alibaba-coding-plan",
        "https://coding-intl.dashscope.aliyuncs.com/v1/chat/completions",
        "ALIBABA_CODING_PLAN_BASE_URL",
        &["ALIBABA_CODING_PLAN_API_KEY", "DASHSCOPE_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "minimax-cn",
        "https://api.minimaxi.com/anthropic/v1/messages",
        "MINIMAX_CN_BASE_URL",
        &["MINIMAX_CN_API_KEY"],
        Messages,
        Bearer,
    ),
    (
        "deepseek",
        "https://api.deepseek.com/v1/chat/completions",
        "DEEPSEEK_BASE_URL",
        &["DEEPSEEK_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "xai",
        "https://api.x.ai/v1/responses",
        "XAI_BASE_URL",
        &["XAI_API_KEY"],
        Responses,
        Bearer,
    ),
    (
        "nvidia",
        "https://integrate.api.nvidia.com/v1/chat/completions",
        "NVIDIA_BASE_URL",
        &["NVIDIA_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "opencode-zen",
        "https://opencode.ai/zen/v1/chat/completions",
        "OPENCODE_ZEN_BASE_URL",
        &["OPENCODE_ZEN_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "opencode-go",
        "https://opencode.ai/zen/go/v1/chat/completions",
        "OPENCODE_GO_BASE_URL",
        &["OPENCODE_GO_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "kilocode",
        "https://api.kilo.ai/api/gateway/chat/completions",
        "KILOCODE_BASE_URL",
        &["KILOCODE_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "huggingface",
        "https://router.huggingface.co/v1/chat/completions",
        "HF_BASE_URL",
        &["HF_TOKEN"],
        Chat,
        Bearer,
    ),
    (
        "xiaomi",
        "https://api.xiaomimimo.com/v1/chat/completions",
        "XIAOMI_BASE_URL",
        &["XIAOMI_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "tencent-tokenhub",
        "https://tokenhub.tencentmaas.com/v1/chat/completions",
        "TOKENHUB_BASE_URL",
        &["TOKENHUB_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "ollama-cloud",
        "https://ollama.com/v1/chat/completions",
        "OLLAMA_BASE_URL",
        &["OLLAMA_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "deepinfra",
        "https://api.deepinfra.com/v1/openai/chat/completions",
        "DEEPINFRA_BASE_URL",
        &["DEEPINFRA_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "fireworks",
        "https://api.fireworks.ai/inference/v1/chat/completions",
        "",
        &["FIREWORKS_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "novita",
        "https://api.novita.ai/openai/v1/chat/completions",
        "NOVITA_BASE_URL",
        &["NOVITA_API_KEY"],
        Chat,
        Bearer,
    ),
    (
        "upstage",
        "https://api.upstage.ai/v1/chat/completions",
        "UPSTAGE_BASE_URL",
        &["UPSTAGE_API_KEY"],
        Chat,
        Bearer,
    ),
];

#[test]
fn every_api_key_profile_resolves_as_hermes_does() {
    for (id, endpoint, base_var, keys, mode, auth) in API_KEY_PROFILES {
        let m = model(id, "");
        // The last variable alone is used …
        let last = keys.last().unwrap();
        let r = resolve_env(&m, &[(last, "key-last")]).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(r.name, *id);
        assert_eq!(r.endpoint, *endpoint, "{id}");
        assert_eq!(r.api_mode, *mode, "{id}");
        assert_eq!(r.auth, *auth, "{id}");
        assert_eq!(r.api_key, Some(Secret::new("key-last")), "{id}");
        assert_eq!(r.model, "some/model");
        // … and the first wins when all are set (Hermes's order).
        let all: Vec<(&str, String)> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| (*k, format!("key-{i}")))
            .collect();
        let pairs: Vec<(&str, &str)> = all.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let r = resolve_env(&m, &pairs).unwrap();
        assert_eq!(r.api_key, Some(Secret::new("key-0")), "{id}");
        // No key: the first variable is named.
        assert_eq!(
            resolve_env(&m, &[]).unwrap_err(),
            ProviderSetupError::MissingKey {
                provider: id.to_string(),
                env_var: keys[0].to_string()
            },
            "{id}"
        );
        // The base-URL variable moves the endpoint.
        if !base_var.is_empty() {
            let r = resolve_env(
                &m,
                &[(keys[0], "key-0"), (base_var, "http://127.0.0.1:9/v1/")],
            )
            .unwrap();
            assert_eq!(r.base_url, "http://127.0.0.1:9/v1", "{id}");
        }
        // model.base_url wins over everything.
        let r = resolve_env(
            &model(id, "http://10.0.0.1:7/v1"),
            &[(keys[0], "key-0"), (base_var, "http://127.0.0.1:9/v1")],
        )
        .unwrap();
        assert_eq!(r.base_url, "http://10.0.0.1:7/v1", "{id}");
    }
}

#[test]
fn table_covers_every_api_key_profile() {
    let tested: Vec<&str> = API_KEY_PROFILES.iter().map(|c| c.0).collect();
    for p in profiles::PROFILES {
        // Azure Foundry has no default endpoint; its own test covers it.
        if p.credential == Credential::ApiKey && p.id != "azure-foundry" {
            assert!(tested.contains(&p.id), "{} has no case", p.id);
        }
    }
}

#[test]
fn url_derived_modes_match_the_default_urls() {
    for p in profiles::PROFILES
        .iter()
        .filter(|p| p.mode_rule == ModeRule::FromUrl && !p.base_url.is_empty())
    {
        let detected = rules::api_mode_for_url(p.base_url).unwrap_or(ApiMode::ChatCompletions);
        assert_eq!(detected, p.api_mode, "{}", p.id);
    }
}

/// Hermes's alias map (`resolve_provider` plus the plugins' aliases).
const ALIASES: &[(&str, &str)] = &[
    ("or", "openrouter"),
    ("openai", "openai-api"),
    ("glm", "zai"),
    ("z-ai", "zai"),
    ("z.ai", "zai"),
    ("zhipu", "zai"),
    ("google", "gemini"),
    ("google-gemini", "gemini"),
    ("google-ai-studio", "gemini"),
    ("x-ai", "xai"),
    ("x.ai", "xai"),
    ("grok", "xai"),
    ("kimi", "kimi-coding"),
    ("kimi-for-coding", "kimi-coding"),
    ("moonshot", "kimi-coding"),
    ("kimi-cn", "kimi-coding-cn"),
    ("moonshot-cn", "kimi-coding-cn"),
    ("step", "stepfun"),
    ("stepfun-coding-plan", "stepfun"),
    ("arcee-ai", "arcee"),
    ("arceeai", "arcee"),
    ("gmi-cloud", "gmi"),
    ("gmicloud", "gmi"),
    ("mini-max", "minimax"),
    ("minimax-china", "minimax-cn"),
    ("minimax_cn", "minimax-cn"),
    ("alibaba_coding", "alibaba-coding-plan"),
    ("alibaba-coding", "alibaba-coding-plan"),
    ("alibaba_coding_plan", "alibaba-coding-plan"),
    ("dashscope-coding", "alibaba-coding-plan"),
    ("dashscope", "alibaba"),
    ("alibaba-cloud", "alibaba"),
    ("qwen-dashscope", "alibaba"),
    ("claude", "anthropic"),
    ("claude-code", "anthropic"),
    ("claude-oauth", "anthropic"),
    ("opencode", "opencode-zen"),
    ("zen", "opencode-zen"),
    ("opencode_zen", "opencode-zen"),
    ("go", "opencode-go"),
    ("opencode_go", "opencode-go"),
    ("opencode-go-sub", "opencode-go"),
    ("hf", "huggingface"),
    ("hugging-face", "huggingface"),
    ("huggingface-hub", "huggingface"),
    ("mimo", "xiaomi"),
    ("xiaomi-mimo", "xiaomi"),
    ("tencent", "tencent-tokenhub"),
    ("tokenhub", "tencent-tokenhub"),
    ("tencent-cloud", "tencent-tokenhub"),
    ("tencentmaas", "tencent-tokenhub"),
    ("kilo", "kilocode"),
    ("kilo-code", "kilocode"),
    ("kilo-gateway", "kilocode"),
    ("lm-studio", "lmstudio"),
    ("lm_studio", "lmstudio"),
    ("ollama_cloud", "ollama-cloud"),
    ("nvidia-nim", "nvidia"),
    ("deepseek-chat", "deepseek"),
    ("deep-infra", "deepinfra"),
    ("deepinfra-ai", "deepinfra"),
    ("fireworks-ai", "fireworks"),
    ("fw", "fireworks"),
    ("novita-ai", "novita"),
    ("novitaai", "novita"),
    ("solar", "upstage"),
    ("azure", "azure-foundry"),
    ("azure-ai-foundry", "azure-foundry"),
    ("azure-ai", "azure-foundry"),
    ("aws", "bedrock"),
    ("aws-bedrock", "bedrock"),
    ("amazon-bedrock", "bedrock"),
    ("amazon", "bedrock"),
    ("nous-portal", "nous"),
    ("nousresearch", "nous"),
    ("ollama", "custom"),
    ("local", "custom"),
    ("vllm", "custom"),
    ("llamacpp", "custom"),
    ("llama.cpp", "custom"),
    ("llama-cpp", "custom"),
];

#[test]
fn aliases_resolve_to_their_profile() {
    for (alias, id) in ALIASES {
        let p = profiles::profile(alias).unwrap_or_else(|| panic!("{alias}"));
        assert_eq!(p.id, *id, "{alias}");
    }
    // Names are case- and space-insensitive, as in Hermes.
    let r = resolve_env(
        &model("  DeepSeek ", ""),
        &[("DEEPSEEK_API_KEY", "sk-ds-1")],
    )
    .unwrap();
    assert_eq!(r.name, "deepseek");
}

#[test]
fn names_are_unique_across_both_tables() {
    let mut seen = std::collections::HashSet::new();
    for name in profiles::all_names() {
        assert!(seen.insert(name), "{name} appears twice");
        assert_eq!(name, name.to_lowercase());
    }
}

#[test]
fn extra_headers_hermes_sends() {
    let r = resolve_env(
        &model("openrouter", ""),
        &[("OPENROUTER_API_KEY", "sk-or-1")],
    )
    .unwrap();
    assert_eq!(header(&r, "X-Title"), Some("hermes"));
    assert!(header(&r, "HTTP-Referer").is_some());
    let r = resolve_env(&model("kimi", ""), &[("KIMI_API_KEY", "sk-legacy")]).unwrap();
    assert_eq!(header(&r, "User-Agent"), Some("hermes-agent/1.0"));
    let r = resolve_env(&model("gmi", ""), &[("GMI_API_KEY", "gmi-key")]).unwrap();
    assert!(
        header(&r, "User-Agent")
            .unwrap()
            .starts_with("HermesAgent/")
    );
    let r = resolve_env(&model("deepseek", ""), &[("DEEPSEEK_API_KEY", "sk-ds-1")]).unwrap();
    assert!(r.headers.is_empty());
}

/// One provider at a time, named entries, key and URL rules.
#[path = "registry_cases_tests.rs"]
mod cases;
