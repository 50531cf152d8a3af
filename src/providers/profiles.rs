//! The provider profiles of Python Hermes 0.19, as data: every name `model.provider` may hold,
//! its aliases, endpoint, key variables (in Hermes's order), base-URL override variable,
//! default wire format and the headers Hermes sends. Sources: `hermes_cli/auth.py`
//! (`PROVIDER_REGISTRY`, the alias map of `resolve_provider`), `plugins/model-providers/*` and
//! `hermes_cli/runtime_provider.py`.
//!
//! The providers hermes cannot use are in `unsupported`.
//!
//! No logic beyond lookups; `registry` resolves. Invariants: ids and aliases are lower-case
//! and unique across both tables; `AUTO_ORDER` is Hermes's auto-detection order.

use super::registry::AuthScheme;
use super::wire::ApiMode;

/// How a profile's wire format is chosen (after an explicit `model.api_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ModeRule {
    /// What the base URL implies (`…/anthropic`, api.openai.com, …), else the profile's mode.
    FromUrl,
    /// Always the profile's mode; `model.api_mode` is not consulted either.
    Fixed,
    /// OpenCode Zen/Go route each model family to its own API.
    OpenCode,
    /// Azure Foundry: `model.api_mode`, with GPT-5/codex/o-series deployments on Responses.
    AzureFoundry,
}

/// Where the credential comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Credential {
    /// One of the key variables (or `model.api_key`); resolution fails without one.
    ApiKey,
    /// A key if set, else this placeholder (LM Studio without auth).
    Placeholder(&'static str),
    /// A key if one is given; none is fine (local servers).
    Optional,
    /// A stored `hermes login`, else the key variables.
    Login,
    /// AWS's credential chain, read by the provider at request time.
    Aws,
}

/// Whether a key in the environment makes `provider: auto` pick the profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum AutoDetect {
    Yes,
    /// Only when named (GitHub tokens, LM Studio's optional key).
    No,
}

#[derive(Debug)]
pub(super) struct Profile {
    /// Hermes's canonical id; what `ResolvedProvider::name` and the session store record.
    pub id: &'static str,
    pub aliases: &'static [&'static str],
    /// Empty: the user supplies it (custom, Azure Foundry).
    pub base_url: &'static str,
    /// The variable that overrides `base_url` (empty: none).
    pub base_url_var: &'static str,
    /// Tried in order; the first usable value wins.
    pub key_vars: &'static [&'static str],
    pub api_mode: ApiMode,
    pub mode_rule: ModeRule,
    pub credential: Credential,
    /// The auth header on the Anthropic Messages format (chat formats always use Bearer).
    pub messages_auth: AuthScheme,
    pub headers: &'static [(&'static str, &'static str)],
    pub auto: AutoDetect,
    pub context_window: u64,
}

const fn hosted(
    id: &'static str,
    base_url: &'static str,
    base_url_var: &'static str,
    key_vars: &'static [&'static str],
) -> Profile {
    Profile {
        id,
        aliases: &[],
        base_url,
        base_url_var,
        key_vars,
        api_mode: ApiMode::ChatCompletions,
        mode_rule: ModeRule::FromUrl,
        credential: Credential::ApiKey,
        messages_auth: AuthScheme::XApiKey,
        headers: &[],
        auto: AutoDetect::Yes,
        context_window: 128_000,
    }
}

/// GMI Cloud's WAF wants a named client.
const GMI_USER_AGENT: &str = concat!("HermesAgent/", env!("CARGO_PKG_VERSION"));
/// Kimi's chat endpoints, as Hermes's Kimi profile sends.
const KIMI_HEADERS: &[(&str, &str)] = &[("User-Agent", "hermes-agent/1.0")];
/// The LM Studio key Hermes substitutes when the server needs none.
pub(super) const LMSTUDIO_PLACEHOLDER_KEY: &str = "dummy-lm-api-key";

/// Every usable profile, API-key ones in `PROVIDER_REGISTRY` order.
pub(super) const PROFILES: &[Profile] = &[
    Profile {
        aliases: &["or"],
        headers: &[
            (
                "HTTP-Referer",
                "https://github.com/NousResearch/hermes-agent",
            ),
            ("X-Title", "hermes"),
        ],
        ..hosted(
            "openrouter",
            "https://openrouter.ai/api/v1",
            "OPENROUTER_BASE_URL",
            &["OPENROUTER_API_KEY", "OPENAI_API_KEY"],
        )
    },
    Profile {
        aliases: &["nous-portal", "nousresearch"],
        mode_rule: ModeRule::Fixed,
        credential: Credential::Login,
        auto: AutoDetect::No,
        ..hosted(
            "nous",
            "https://inference-api.nousresearch.com/v1",
            "NOUS_INFERENCE_BASE_URL",
            &["NOUS_API_KEY"],
        )
    },
    Profile {
        // `openai` is hermes's own older name; Hermes knows only `openai-api`.
        aliases: &["openai"],
        api_mode: ApiMode::CodexResponses,
        ..hosted(
            "openai-api",
            "https://api.openai.com/v1",
            "OPENAI_BASE_URL",
            &["OPENAI_API_KEY"],
        )
    },
    Profile {
        aliases: &["lm-studio", "lm_studio"],
        credential: Credential::Placeholder(LMSTUDIO_PLACEHOLDER_KEY),
        auto: AutoDetect::No,
        context_window: 32_768,
        ..hosted(
            "lmstudio",
            "http://127.0.0.1:1234/v1",
            "LM_BASE_URL",
            &["LM_API_KEY"],
        )
    },
    Profile {
        aliases: &["google", "google-gemini", "google-ai-studio"],
        ..hosted(
            "gemini",
            "https://generativelanguage.googleapis.com/v1beta",
            "GEMINI_BASE_URL",
            &["GOOGLE_API_KEY", "GEMINI_API_KEY"],
        )
    },
    Profile {
        aliases: &["glm", "z-ai", "z.ai", "zhipu"],
        ..hosted(
            "zai",
            "https://api.z.ai/api/paas/v4",
            "GLM_BASE_URL",
            &["GLM_API_KEY", "ZAI_API_KEY", "Z_AI_API_KEY"],
        )
    },
    Profile {
        aliases: &["kimi", "moonshot", "kimi-for-coding"],
        headers: KIMI_HEADERS,
        ..hosted(
            "kimi-coding",
            "https://api.moonshot.ai/v1",
            "KIMI_BASE_URL",
            &["KIMI_API_KEY", "KIMI_CODING_API_KEY"],
        )
    },
    Profile {
        aliases: &["kimi-cn", "moonshot-cn"],
        headers: KIMI_HEADERS,
        ..hosted(
            "kimi-coding-cn",
            "https://api.moonshot.cn/v1",
            "",
            &["KIMI_CN_API_KEY"],
        )
    },
    Profile {
        aliases: &["step", "stepfun-coding-plan"],
        ..hosted(
            "stepfun",
            "https://api.stepfun.ai/step_plan/v1",
            "STEPFUN_BASE_URL",
            &["STEPFUN_API_KEY"],
        )
    },
    Profile {
        aliases: &["arcee-ai", "arceeai"],
        ..hosted(
            "arcee",
            "https://api.arcee.ai/api/v1",
            "ARCEE_BASE_URL",
            &["ARCEEAI_API_KEY"],
        )
    },
    Profile {
        aliases: &["gmi-cloud", "gmicloud"],
        headers: &[("User-Agent", GMI_USER_AGENT)],
        ..hosted(
            "gmi",
            "https://api.gmi-serving.com/v1",
            "GMI_BASE_URL",
            &["GMI_API_KEY"],
        )
    },
    Profile {
        aliases: &["mini-max"],
        api_mode: ApiMode::AnthropicMessages,
        messages_auth: AuthScheme::Bearer,
        context_window: 200_000,
        ..hosted(
            "minimax",
            "https://api.minimax.io/anthropic",
            "MINIMAX_BASE_URL",
            &["MINIMAX_API_KEY"],
        )
    },
    Profile {
        aliases: &["claude", "claude-code", "claude-oauth"],
        api_mode: ApiMode::AnthropicMessages,
        mode_rule: ModeRule::Fixed,
        context_window: 200_000,
        // The runtime order of `resolve_anthropic_token` (setup tokens before API keys).
        ..hosted(
            "anthropic",
            "https://api.anthropic.com",
            "ANTHROPIC_BASE_URL",
            &[
                "ANTHROPIC_TOKEN",
                "CLAUDE_CODE_OAUTH_TOKEN",
                "ANTHROPIC_API_KEY",
            ],
        )
    },
    Profile {
        aliases: &["dashscope", "alibaba-cloud", "qwen-dashscope"],
        ..hosted(
            "alibaba",
            "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
            "DASHSCOPE_BASE_URL",
            &["DASHSCOPE_API_KEY"],
        )
    },
    Profile {
        aliases: &[
            "alibaba_coding",
            "alibaba-coding",
            "alibaba_coding_plan",
            "dashscope-coding",
        ],
        ..hosted(
            "alibaba-coding-plan",
            "https://coding-intl.dashscope.aliyuncs.com/v1",
            "ALIBABA_CODING_PLAN_BASE_URL",
            &["ALIBABA_CODING_PLAN_API_KEY", "DASHSCOPE_API_KEY"],
        )
    },
    Profile {
        aliases: &["minimax-china", "minimax_cn"],
        api_mode: ApiMode::AnthropicMessages,
        messages_auth: AuthScheme::Bearer,
        context_window: 200_000,
        ..hosted(
            "minimax-cn",
            "https://api.minimaxi.com/anthropic",
            "MINIMAX_CN_BASE_URL",
            &["MINIMAX_CN_API_KEY"],
        )
    },
    Profile {
        aliases: &["deepseek-chat"],
        ..hosted(
            "deepseek",
            "https://api.deepseek.com/v1",
            "DEEPSEEK_BASE_URL",
            &["DEEPSEEK_API_KEY"],
        )
    },
    Profile {
        aliases: &["grok", "x-ai", "x.ai"],
        api_mode: ApiMode::CodexResponses,
        mode_rule: ModeRule::Fixed,
        ..hosted(
            "xai",
            "https://api.x.ai/v1",
            "XAI_BASE_URL",
            &["XAI_API_KEY"],
        )
    },
    Profile {
        aliases: &["nvidia-nim"],
        ..hosted(
            "nvidia",
            "https://integrate.api.nvidia.com/v1",
            "NVIDIA_BASE_URL",
            &["NVIDIA_API_KEY"],
        )
    },
    Profile {
        aliases: &["opencode", "opencode_zen", "zen"],
        mode_rule: ModeRule::OpenCode,
        ..hosted(
            "opencode-zen",
            "https://opencode.ai/zen/v1",
            "OPENCODE_ZEN_BASE_URL",
            &["OPENCODE_ZEN_API_KEY"],
        )
    },
    Profile {
        aliases: &["opencode_go", "go", "opencode-go-sub"],
        mode_rule: ModeRule::OpenCode,
        ..hosted(
            "opencode-go",
            "https://opencode.ai/zen/go/v1",
            "OPENCODE_GO_BASE_URL",
            &["OPENCODE_GO_API_KEY"],
        )
    },
    Profile {
        aliases: &["kilo-code", "kilo", "kilo-gateway"],
        ..hosted(
            "kilocode",
            "https://api.kilo.ai/api/gateway",
            "KILOCODE_BASE_URL",
            &["KILOCODE_API_KEY"],
        )
    },
    Profile {
        aliases: &["hf", "hugging-face", "huggingface-hub"],
        ..hosted(
            "huggingface",
            "https://router.huggingface.co/v1",
            "HF_BASE_URL",
            &["HF_TOKEN"],
        )
    },
    Profile {
        aliases: &["mimo", "xiaomi-mimo"],
        ..hosted(
            "xiaomi",
            "https://api.xiaomimimo.com/v1",
            "XIAOMI_BASE_URL",
            &["XIAOMI_API_KEY"],
        )
    },
    Profile {
        aliases: &["tencent", "tokenhub", "tencent-cloud", "tencentmaas"],
        ..hosted(
            "tencent-tokenhub",
            "https://tokenhub.tencentmaas.com/v1",
            "TOKENHUB_BASE_URL",
            &["TOKENHUB_API_KEY"],
        )
    },
    Profile {
        aliases: &["ollama_cloud"],
        ..hosted(
            "ollama-cloud",
            "https://ollama.com/v1",
            "OLLAMA_BASE_URL",
            &["OLLAMA_API_KEY"],
        )
    },
    Profile {
        aliases: &["azure", "azure-ai-foundry", "azure-ai"],
        mode_rule: ModeRule::AzureFoundry,
        ..hosted(
            "azure-foundry",
            "",
            "AZURE_FOUNDRY_BASE_URL",
            &["AZURE_FOUNDRY_API_KEY"],
        )
    },
    Profile {
        aliases: &["deep-infra", "deepinfra-ai"],
        ..hosted(
            "deepinfra",
            "https://api.deepinfra.com/v1/openai",
            "DEEPINFRA_BASE_URL",
            &["DEEPINFRA_API_KEY"],
        )
    },
    Profile {
        aliases: &["fireworks-ai", "fw"],
        ..hosted(
            "fireworks",
            "https://api.fireworks.ai/inference/v1",
            "",
            &["FIREWORKS_API_KEY"],
        )
    },
    Profile {
        aliases: &["novita-ai", "novitaai"],
        ..hosted(
            "novita",
            "https://api.novita.ai/openai/v1",
            "NOVITA_BASE_URL",
            &["NOVITA_API_KEY"],
        )
    },
    Profile {
        aliases: &["solar"],
        ..hosted(
            "upstage",
            "https://api.upstage.ai/v1",
            "UPSTAGE_BASE_URL",
            &["UPSTAGE_API_KEY"],
        )
    },
    Profile {
        aliases: &["aws", "aws-bedrock", "amazon-bedrock", "amazon"],
        api_mode: ApiMode::BedrockConverse,
        mode_rule: ModeRule::Fixed,
        credential: Credential::Aws,
        auto: AutoDetect::No,
        ..hosted(
            "bedrock",
            // `{region}` is filled in by resolution.
            "https://bedrock-runtime.{region}.amazonaws.com",
            "BEDROCK_BASE_URL",
            &[],
        )
    },
    Profile {
        aliases: &[
            "local",
            "ollama",
            "vllm",
            "llamacpp",
            "llama.cpp",
            "llama-cpp",
        ],
        credential: Credential::Optional,
        auto: AutoDetect::No,
        context_window: 32_768,
        ..hosted("custom", "", "CUSTOM_BASE_URL", &["CUSTOM_API_KEY"])
    },
];

/// Local-server aliases of `custom` and the URL each gets when none is configured (hermes
/// addition: Hermes has no default for them and falls through to OpenRouter's URL).
pub(super) const LOCAL_DEFAULT_URLS: &[(&str, &str)] = &[
    ("ollama", "http://127.0.0.1:11434/v1"),
    ("vllm", "http://127.0.0.1:8000/v1"),
    ("llamacpp", "http://127.0.0.1:8080/v1"),
    ("llama.cpp", "http://127.0.0.1:8080/v1"),
    ("llama-cpp", "http://127.0.0.1:8080/v1"),
];

/// Profiles `provider: auto` tries for a key, in Hermes's order (after OpenRouter/OpenAI).
pub(super) fn auto_order() -> impl Iterator<Item = &'static Profile> {
    PROFILES
        .iter()
        .filter(|p| p.auto == AutoDetect::Yes && !matches!(p.id, "openrouter" | "openai-api"))
}

/// The profile `name` (lower-cased, trimmed) is the id or an alias of.
pub(super) fn profile(name: &str) -> Option<&'static Profile> {
    PROFILES
        .iter()
        .find(|p| p.id == name || p.aliases.contains(&name))
}

/// Every name `model.provider` may hold (ids and aliases, both tables), for suggestions.
pub(super) fn all_names() -> impl Iterator<Item = &'static str> {
    let usable = PROFILES
        .iter()
        .flat_map(|p| std::iter::once(p.id).chain(p.aliases.iter().copied()));
    let unusable = super::unsupported::UNSUPPORTED
        .iter()
        .flat_map(|u| std::iter::once(u.id).chain(u.aliases.iter().copied()));
    usable.chain(unusable).chain(["auto"])
}

/// Whether `name` is a variable hermes reads a provider credential from (`OPENAI_API_KEY`,
/// `ANTHROPIC_API_KEY`, AWS's keys, …). A skill may not pass one through to a script: that
/// would defeat `execute_code`'s scrubbing (Hermes's GHSA-rhgp-j443-p4rf).
pub fn is_provider_credential(name: &str) -> bool {
    const EXTRA: [&str; 4] = [
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "AWS_BEARER_TOKEN_BEDROCK",
    ];
    let name = name.trim();
    EXTRA.contains(&name)
        || PROFILES
            .iter()
            .any(|profile| profile.key_vars.contains(&name))
        || name.starts_with("AUXILIARY_") && name.ends_with("_API_KEY")
}
