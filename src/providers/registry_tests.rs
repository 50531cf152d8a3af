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

#[test]
fn kimi_code_keys_go_to_kimi_code() {
    let r = resolve_env(
        &model("kimi-coding", ""),
        &[("KIMI_API_KEY", "sk-kimi-abc")],
    )
    .unwrap();
    assert_eq!(r.base_url, "https://api.kimi.com/coding");
    assert_eq!(r.endpoint, "https://api.kimi.com/coding/v1/messages");
    assert_eq!((r.api_mode, r.auth), (Messages, XApiKey));
    assert_eq!(header(&r, "User-Agent"), Some("claude-code/0.1.0"));
    let r = resolve_env(
        &model("kimi-coding-cn", ""),
        &[("KIMI_CN_API_KEY", "sk-kimi-abc")],
    )
    .unwrap();
    assert_eq!(r.base_url, "https://api.kimi.com/coding");
    // KIMI_BASE_URL wins over the key's shape.
    let r = resolve_env(
        &model("kimi", ""),
        &[
            ("KIMI_API_KEY", "sk-kimi-abc"),
            ("KIMI_BASE_URL", "https://api.moonshot.ai/v1"),
        ],
    )
    .unwrap();
    assert_eq!(
        (r.base_url.as_str(), r.api_mode),
        ("https://api.moonshot.ai/v1", Chat)
    );
}

#[test]
fn lmstudio_needs_no_key_and_normalises_its_url() {
    let r = resolve_env(&model("lmstudio", ""), &[]).unwrap();
    assert_eq!(r.endpoint, "http://127.0.0.1:1234/v1/chat/completions");
    assert_eq!(
        r.api_key,
        Some(Secret::new(profiles::LMSTUDIO_PLACEHOLDER_KEY))
    );
    let r = resolve_env(
        &model("lm-studio", ""),
        &[
            ("LM_BASE_URL", "http://10.1.1.1:1234/api/v1"),
            ("LM_API_KEY", "lm-real"),
        ],
    )
    .unwrap();
    assert_eq!(r.base_url, "http://10.1.1.1:1234/v1");
    assert_eq!(r.api_key, Some(Secret::new("lm-real")));
}

#[test]
fn gemini_uses_the_openai_compatible_surface() {
    let r = resolve_env(
        &model(
            "gemini",
            "https://generativelanguage.googleapis.com/v1beta/openai/",
        ),
        &[("GEMINI_API_KEY", "AIza-1")],
    )
    .unwrap();
    assert_eq!(
        r.endpoint,
        "https://generativelanguage.googleapis.com/v1beta/openai/chat/completions"
    );
    let r = resolve_env(
        &model("google", ""),
        &[
            ("GOOGLE_API_KEY", "AIza-1"),
            ("GEMINI_BASE_URL", "http://127.0.0.1:9/v1"),
        ],
    )
    .unwrap();
    assert_eq!(r.endpoint, "http://127.0.0.1:9/v1/chat/completions");
}

#[test]
fn anthropic_oauth_tokens_use_bearer_on_anthropic_only() {
    let oauth = [("ANTHROPIC_TOKEN", "sk-ant-oat01-abc")];
    let r = resolve_env(&model("anthropic", ""), &oauth).unwrap();
    assert_eq!(r.auth, Bearer);
    assert_eq!(header(&r, "anthropic-beta"), Some("oauth-2025-04-20"));
    let r = resolve_env(
        &model("claude", ""),
        &[("ANTHROPIC_API_KEY", "sk-ant-api03-x")],
    )
    .unwrap();
    assert_eq!(r.auth, XApiKey);
    assert!(r.headers.is_empty());
    let r = resolve_env(&model("anthropic", "http://127.0.0.1:9"), &oauth).unwrap();
    assert_eq!(r.auth, XApiKey);
    // Setup tokens come before API keys (Hermes's runtime order).
    let r = resolve_env(
        &model("anthropic", ""),
        &[
            ("ANTHROPIC_API_KEY", "sk-ant-api03-x"),
            ("CLAUDE_CODE_OAUTH_TOKEN", "cc-token"),
        ],
    )
    .unwrap();
    assert_eq!(r.api_key, Some(Secret::new("cc-token")));
}

#[test]
fn azure_foundry_needs_its_endpoint_and_picks_the_api_by_model() {
    let key = [("AZURE_FOUNDRY_API_KEY", "az-key")];
    assert_eq!(
        resolve_env(&model("azure", ""), &key).unwrap_err(),
        ProviderSetupError::MissingEndpoint {
            provider: "azure-foundry".into(),
            env_var: "AZURE_FOUNDRY_BASE_URL".into()
        }
    );
    let base = [
        ("AZURE_FOUNDRY_API_KEY", "az-key"),
        (
            "AZURE_FOUNDRY_BASE_URL",
            "https://r.openai.azure.com/openai/v1",
        ),
    ];
    let r = resolve_env(&model("azure-foundry", ""), &base).unwrap();
    assert_eq!(
        r.endpoint,
        "https://r.openai.azure.com/openai/v1/chat/completions"
    );
    let mut gpt5 = model("azure-foundry", "");
    gpt5.default = "gpt-5.4".into();
    assert_eq!(resolve_env(&gpt5, &base).unwrap().api_mode, Responses);
    let mut claude = model(
        "azure-foundry",
        "https://r.services.ai.azure.com/anthropic/v1",
    );
    claude.api_mode = "anthropic_messages".into();
    let r = resolve_env(&claude, &key).unwrap();
    assert_eq!(
        r.endpoint,
        "https://r.services.ai.azure.com/anthropic/v1/messages"
    );
    assert_eq!(r.auth, Bearer);
}

#[test]
fn opencode_routes_each_model_family() {
    let key = [
        ("OPENCODE_ZEN_API_KEY", "oc-key"),
        ("OPENCODE_GO_API_KEY", "oc-key"),
    ];
    let case = |provider: &str, model_id: &str, base: &str| {
        let mut m = model(provider, base);
        m.default = model_id.into();
        m.api_mode = "chat_completions".into(); // ignored: the model decides
        let r = resolve_env(&m, &key).unwrap();
        (r.api_mode, r.endpoint)
    };
    assert_eq!(
        case("opencode-zen", "claude-sonnet-4", ""),
        (Messages, "https://opencode.ai/zen/v1/messages".into())
    );
    assert_eq!(
        case("opencode-zen", "gpt-5.4", ""),
        (Responses, "https://opencode.ai/zen/v1/responses".into())
    );
    assert_eq!(
        case("opencode-go", "opencode-go/minimax-m2.7", ""),
        (Messages, "https://opencode.ai/zen/go/v1/messages".into())
    );
    // A URL Hermes stripped for the Messages format gets its /v1 back.
    assert_eq!(
        case("opencode-go", "glm-5", "https://opencode.ai/zen/go"),
        (
            Chat,
            "https://opencode.ai/zen/go/v1/chat/completions".into()
        )
    );
}

#[test]
fn bedrock_needs_no_key_and_builds_the_regional_url() {
    let r = resolve_env(&model("bedrock", ""), &[]).unwrap();
    assert_eq!(
        r.base_url,
        "https://bedrock-runtime.us-east-1.amazonaws.com"
    );
    assert_eq!((r.api_mode, r.api_key), (ApiMode::BedrockConverse, None));
    let r = resolve_env(&model("aws", ""), &[("AWS_DEFAULT_REGION", "ap-south-1")]).unwrap();
    assert_eq!(
        r.base_url,
        "https://bedrock-runtime.ap-south-1.amazonaws.com"
    );
    let endpoints = ProviderEndpoints {
        bedrock_region: "eu-west-1".into(),
        ..ProviderEndpoints::default()
    };
    let r = resolve_named(
        &model("bedrock", ""),
        &endpoints,
        &[("AWS_REGION", "us-west-2")],
    )
    .unwrap();
    assert_eq!(
        r.base_url,
        "https://bedrock-runtime.eu-west-1.amazonaws.com"
    );
    let r = resolve_env(
        &model("bedrock", ""),
        &[
            ("BEDROCK_BASE_URL", "http://127.0.0.1:9"),
            ("AWS_REGION", "us-west-2"),
        ],
    )
    .unwrap();
    assert_eq!(r.base_url, "http://127.0.0.1:9");
}

#[test]
fn nous_uses_the_stored_login_then_its_key() {
    let login = StoredLogin {
        access: Secret::new("portal-token"),
        inference_base_url: Some("https://inference.example.com/v1".into()),
    };
    let with_login = |env: &[(&str, &str)]| {
        let lookup = env_of(env);
        let login = login.clone();
        let stored = move |id: &str| (id == "nous").then(|| login.clone());
        let sources = CredentialSources {
            env: &lookup,
            login: &stored,
            active_login: None,
        };
        resolve_with(&model("nous", ""), &ProviderConfig::default(), &sources)
    };
    let r = with_login(&[("NOUS_API_KEY", "nous-key")]).unwrap();
    assert_eq!(r.api_key, Some(Secret::new("portal-token")));
    assert_eq!(
        r.endpoint,
        "https://inference.example.com/v1/chat/completions"
    );
    // The login's URL (which the login layer derives with NOUS_INFERENCE_BASE_URL) wins.
    let r = with_login(&[("NOUS_INFERENCE_BASE_URL", "http://127.0.0.1:9/v1")]).unwrap();
    assert_eq!(r.base_url, "https://inference.example.com/v1");
    let r = resolve_env(&model("nous-portal", ""), &[("NOUS_API_KEY", "nous-key")]).unwrap();
    assert_eq!(
        r.endpoint,
        "https://inference-api.nousresearch.com/v1/chat/completions"
    );
    let err = resolve_env(&model("nous", ""), &[]).unwrap_err();
    assert_eq!(
        err,
        ProviderSetupError::NeedsLogin {
            provider: "nous".into()
        }
    );
    assert!(err.to_string().contains("hermes login nous"), "{err}");
}

#[test]
fn oauth_only_providers_give_one_line_naming_the_alternative() {
    let cases = [
        ("openai-codex", "`openai-api` with OPENAI_API_KEY"),
        ("codex", "`openai-api` with OPENAI_API_KEY"),
        ("xai-oauth", "`xai` with XAI_API_KEY"),
        ("qwen-oauth", "`alibaba` with DASHSCOPE_API_KEY"),
        ("copilot", "OPENROUTER_API_KEY"),
        ("github-models", "OPENROUTER_API_KEY"),
        ("copilot-acp", "OPENROUTER_API_KEY"),
        ("minimax-oauth", "`minimax` with MINIMAX_API_KEY"),
        ("vertex", "`gemini` with GOOGLE_API_KEY"),
    ];
    for (name, instead) in cases {
        let err = resolve_env(&model(name, ""), &[("OPENAI_API_KEY", "sk-proj-1")]).unwrap_err();
        assert!(
            matches!(err, ProviderSetupError::Unsupported { .. }),
            "{name}: {err:?}"
        );
        let text = err.to_string();
        assert!(
            !text.contains('\n') && text.contains(instead),
            "{name}: {text}"
        );
        assert!(
            text.contains("model.provider") && text.contains("does not"),
            "{text}"
        );
    }
}

#[test]
fn unknown_provider_suggests_and_says_where() {
    let err = resolve_env(&model("openroutr", ""), &[]).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("`openroutr` in model.provider"), "{text}");
    assert!(text.contains("did you mean `openrouter`?"), "{text}");
    assert!(
        text.contains("deepseek") && text.contains("custom"),
        "{text}"
    );
    let text = resolve_env(&model("acme-llm-corp", ""), &[])
        .unwrap_err()
        .to_string();
    assert!(!text.contains("did you mean"), "{text}");
    let text = resolve_env(&model("custom:nothing", ""), &[])
        .unwrap_err()
        .to_string();
    assert!(text.contains("unknown provider `custom:nothing`"), "{text}");
}

#[test]
fn placeholder_keys_count_as_unset() {
    for value in ["changeme", "***", "abc", "  ", "your_api_key"] {
        assert!(
            resolve_env(&model("deepseek", ""), &[("DEEPSEEK_API_KEY", value)]).is_err(),
            "{value}"
        );
    }
}

#[test]
fn config_key_wins_over_env() {
    let mut m = model("openai", "");
    m.api_key = "from-config".into();
    let r = resolve_env(&m, &[("OPENAI_API_KEY", "from-env")]).unwrap();
    assert_eq!(r.api_key.unwrap().expose(), "from-config");
}

#[test]
fn custom_needs_a_base_url_and_keeps_other_providers_keys_to_their_hosts() {
    assert_eq!(
        resolve_env(&model("custom", ""), &[]).unwrap_err(),
        ProviderSetupError::MissingBaseUrl {
            provider: "custom".into()
        }
    );
    let r = resolve_env(&model("custom", "http://127.0.0.1:8080/v1/"), &[]).unwrap();
    assert_eq!(r.base_url, "http://127.0.0.1:8080/v1");
    assert_eq!(r.endpoint, "http://127.0.0.1:8080/v1/chat/completions");
    assert_eq!(r.api_key, None);
    assert_eq!(r.context_window, 32_768);
    // An OpenAI or OpenRouter key never goes to a local server (Hermes #28660).
    let leaky = [
        ("OPENAI_API_KEY", "sk-openai"),
        ("OPENROUTER_API_KEY", "sk-or-x"),
    ];
    let r = resolve_env(&model("custom", "http://127.0.0.1:8080/v1"), &leaky).unwrap();
    assert_eq!(r.api_key, None);
    let r = resolve_env(
        &model("custom", "http://127.0.0.1:8080/v1"),
        &[
            ("OPENAI_API_KEY", "sk-openai"),
            ("CUSTOM_API_KEY", "custom-key"),
        ],
    )
    .unwrap();
    assert_eq!(r.api_key.unwrap().expose(), "custom-key");
    // The host's own variable: api.deepseek.com → DEEPSEEK_API_KEY.
    let r = resolve_env(
        &model("custom", "https://api.deepseek.com/v1"),
        &[("DEEPSEEK_API_KEY", "sk-ds-1")],
    )
    .unwrap();
    assert_eq!(r.api_key.unwrap().expose(), "sk-ds-1");
}

#[test]
fn local_aliases_have_default_urls() {
    let r = resolve_env(&model("ollama", ""), &[]).unwrap();
    assert_eq!(r.endpoint, "http://127.0.0.1:11434/v1/chat/completions");
    assert_eq!(r.name, "custom");
    let r = resolve_env(&model("vllm", ""), &[]).unwrap();
    assert_eq!(r.endpoint, "http://127.0.0.1:8000/v1/chat/completions");
}

#[test]
fn anthropic_format_from_suffix_or_api_mode() {
    let r = resolve_env(&model("custom", "https://api.minimax.io/anthropic"), &[]).unwrap();
    assert_eq!(r.api_mode, Messages);
    assert_eq!(r.endpoint, "https://api.minimax.io/anthropic/v1/messages");
    assert_eq!(r.auth, Bearer);
    let mut m = model("custom", "http://127.0.0.1:9000/v1");
    m.api_mode = "anthropic_messages".into();
    let r = resolve_env(&m, &[]).unwrap();
    assert_eq!(r.endpoint, "http://127.0.0.1:9000/v1/messages");
    assert_eq!(r.auth, XApiKey);
    m.api_mode = "grpc".into();
    assert_eq!(
        resolve_env(&m, &[]).unwrap_err(),
        ProviderSetupError::UnknownApiMode {
            mode: "grpc".into()
        }
    );
    // An explicit Responses mode on a custom endpoint is kept (Hermes drops it).
    m.api_mode = "codex_responses".into();
    let r = resolve_env(&m, &[]).unwrap();
    assert_eq!(
        (r.api_mode, r.endpoint.as_str()),
        (Responses, "http://127.0.0.1:9000/v1/responses")
    );
    // The minimax profile on its OpenAI-compatible URL speaks chat completions.
    let r = resolve_env(
        &model("minimax", "https://api.minimax.io/v1"),
        &[("MINIMAX_API_KEY", "mm-key")],
    )
    .unwrap();
    assert_eq!(r.api_mode, Chat);
}

#[test]
fn overrides_and_limits() {
    let mut m = model("openrouter", "https://proxy.example.com/v1");
    m.context_length = 65_536;
    m.max_tokens = 4096;
    let p = ProviderConfig {
        stream_idle_timeout: 5,
        max_retries: 1,
    };
    let r = resolve(&m, &p, &env_of(&[("OPENROUTER_API_KEY", "sk-or-key")])).unwrap();
    assert_eq!(r.endpoint, "https://proxy.example.com/v1/chat/completions");
    assert_eq!(r.context_window, 65_536);
    assert_eq!(r.max_tokens, Some(4096));
    assert_eq!(r.stream_idle_timeout, Duration::from_secs(5));
    assert_eq!(r.retry.max_retries, 1);
}

#[test]
fn invalid_base_urls_are_rejected() {
    assert!(matches!(
        resolve_env(&model("custom", "localhost:8080"), &[]),
        Err(ProviderSetupError::InvalidBaseUrl { .. })
    ));
    assert!(matches!(
        resolve_env(&model("custom", "not a url"), &[]),
        Err(ProviderSetupError::InvalidBaseUrl { .. })
    ));
}

#[test]
fn debug_never_shows_keys_or_header_values() {
    let entry = NamedProvider {
        key: "p".into(),
        name: "p".into(),
        base_url: "http://127.0.0.1:9/v1".into(),
        api_key: "sk-inline-secret".into(),
        extra_headers: vec![("X-Token".into(), "hdr-secret".into())],
        ..NamedProvider::default()
    };
    let endpoints = ProviderEndpoints {
        named: vec![entry],
        ..ProviderEndpoints::default()
    };
    let r = resolve_named(&model("p", ""), &endpoints, &[]).unwrap();
    assert_eq!(header(&r, "X-Token"), Some("hdr-secret"));
    let dbg = format!("{r:?}");
    assert!(
        !dbg.contains("inline-secret") && !dbg.contains("hdr-secret"),
        "{dbg}"
    );
    assert!(dbg.contains("***") && dbg.contains("X-Token"), "{dbg}");
}

fn entry(key: &str, base_url: &str) -> NamedProvider {
    NamedProvider {
        key: key.into(),
        name: key.into(),
        base_url: base_url.into(),
        ..NamedProvider::default()
    }
}

#[test]
fn named_entries_resolve_as_custom_endpoints() {
    let mut proxy = entry("my-proxy", "https://proxy.example.com/v1/");
    proxy.name = "My Proxy".into();
    proxy.key_env = "PROXY_KEY".into();
    proxy.api_key = "inline-key".into();
    proxy.model = "proxy-model".into();
    proxy.context_length = 100_000;
    proxy.max_output_tokens = 2048;
    let mut legacy = entry("", "http://127.0.0.1:8080/v1");
    legacy.name = "Work LLM".into();
    legacy.source = EntrySource::CustomProviders;
    legacy.api_key = "legacy-inline".into();
    legacy.key_env = "LEGACY_KEY".into();
    let endpoints = ProviderEndpoints {
        named: vec![proxy, legacy],
        ..ProviderEndpoints::default()
    };
    let env = [("PROXY_KEY", "from-env"), ("LEGACY_KEY", "legacy-env")];
    let mut m = model("my-proxy", "");
    m.default = String::new();
    let r = resolve_named(&m, &endpoints, &env).unwrap();
    assert_eq!(r.name, "custom");
    assert_eq!(r.endpoint, "https://proxy.example.com/v1/chat/completions");
    assert_eq!(r.api_key, Some(Secret::new("from-env")), "key_env first");
    assert_eq!(r.model, "proxy-model");
    assert_eq!((r.context_window, r.max_tokens), (100_000, Some(2048)));
    // By display name and as custom:<name>; the configured model wins when set.
    for name in ["My Proxy", "my-proxy", "custom:my-proxy", "CUSTOM:My Proxy"] {
        let r = resolve_named(&model(name, ""), &endpoints, &env).unwrap();
        assert_eq!(r.base_url, "https://proxy.example.com/v1", "{name}");
        assert_eq!(r.model, "some/model");
    }
    // custom_providers items: inline key first.
    let r = resolve_named(&model("work-llm", ""), &endpoints, &env).unwrap();
    assert_eq!(r.api_key, Some(Secret::new("legacy-inline")));
}

#[test]
fn named_entries_shadow_aliases_but_not_builtin_ids() {
    let endpoints = ProviderEndpoints {
        named: vec![
            entry("kimi", "http://127.0.0.1:7/v1"),
            entry("openrouter", "http://127.0.0.1:8/v1"),
            entry("custom", "http://127.0.0.1:9/v1"),
        ],
        ..ProviderEndpoints::default()
    };
    let r = resolve_named(&model("kimi", ""), &endpoints, &[]).unwrap();
    assert_eq!(
        (r.name.as_str(), r.base_url.as_str()),
        ("custom", "http://127.0.0.1:7/v1")
    );
    let r = resolve_named(
        &model("openrouter", ""),
        &endpoints,
        &[("OPENROUTER_API_KEY", "sk-or-1")],
    )
    .unwrap();
    assert_eq!(r.base_url, "https://openrouter.ai/api/v1");
    let r = resolve_named(&model("custom", ""), &endpoints, &[]).unwrap();
    assert_eq!(r.base_url, "http://127.0.0.1:9/v1");
}

#[test]
fn named_entries_set_their_wire_format_and_never_get_foreign_keys() {
    let mut claude = entry("claude-proxy", "http://127.0.0.1:9");
    claude.api_mode = "anthropic_messages".into();
    let endpoints = ProviderEndpoints {
        named: vec![claude, entry("local", "http://127.0.0.1:8/v1")],
        ..ProviderEndpoints::default()
    };
    let r = resolve_named(&model("claude-proxy", ""), &endpoints, &[]).unwrap();
    assert_eq!((r.api_mode, r.auth), (Messages, XApiKey));
    assert_eq!(r.endpoint, "http://127.0.0.1:9/v1/messages");
    let r = resolve_named(
        &model("local", ""),
        &endpoints,
        &[("OPENAI_API_KEY", "sk-openai")],
    )
    .unwrap();
    assert_eq!(r.api_key, None);
}

#[test]
fn disabled_providers_are_an_error() {
    let endpoints = ProviderEndpoints {
        disabled: vec!["deepseek".into()],
        ..ProviderEndpoints::default()
    };
    let err = resolve_named(
        &model("deepseek", ""),
        &endpoints,
        &[("DEEPSEEK_API_KEY", "sk-ds-1")],
    )
    .unwrap_err();
    assert_eq!(
        err,
        ProviderSetupError::Disabled {
            provider: "deepseek".into()
        }
    );
    assert!(
        err.to_string()
            .contains("providers.deepseek.enabled: false"),
        "{err}"
    );
}

#[test]
fn endpoint_normalisation() {
    assert_eq!(
        endpoint("http://h/v1/chat/completions", ApiMode::ChatCompletions),
        "http://h/v1/chat/completions"
    );
    assert_eq!(
        endpoint("http://h/v1/", ApiMode::ChatCompletions),
        "http://h/v1/chat/completions"
    );
    assert_eq!(
        endpoint("https://api.anthropic.com", ApiMode::AnthropicMessages),
        "https://api.anthropic.com/v1/messages"
    );
    assert_eq!(
        endpoint("http://h/v1/messages", ApiMode::AnthropicMessages),
        "http://h/v1/messages"
    );
}

#[test]
fn every_profile_key_variable_is_a_known_secret_so_its_value_is_redacted() {
    let missing: Vec<&str> = crate::providers::profiles::PROFILES
        .iter()
        .flat_map(|p| p.key_vars.iter().copied())
        .filter(|var| !crate::config::env::KNOWN_SECRET_VARS.contains(var))
        .collect();
    assert!(
        missing.is_empty(),
        "add to config::env::KNOWN_SECRET_VARS: {missing:?}"
    );
}
