//! The providers Hermes 0.19 has that hermes cannot use — they sign in with an account
//! (ChatGPT, SuperGrok, Qwen CLI, MiniMax, Google Cloud), need GitHub Copilot's token
//! exchange, or run a helper program — each with the one line that says what to use
//! instead. Data only.
//!
//! Invariant: no id or alias here is also a usable profile's (checked by a test).

/// A provider Hermes has and hermes cannot use.
#[derive(Debug)]
pub(super) struct Unsupported {
    pub id: &'static str,
    pub aliases: &'static [&'static str],
    /// Completes "provider `<id>` …".
    pub why: &'static str,
    /// Completes "… use …".
    pub instead: &'static str,
}

pub(super) const UNSUPPORTED: &[Unsupported] = &[
    Unsupported {
        id: "openai-codex",
        aliases: &["codex", "openai_codex"],
        why: "signs in with a ChatGPT account (Codex OAuth), which hermes does not support",
        instead: "`openai-api` with OPENAI_API_KEY",
    },
    Unsupported {
        id: "xai-oauth",
        aliases: &["x-ai-oauth", "grok-oauth", "xai-grok-oauth"],
        why: "signs in with a SuperGrok / X Premium account, which hermes does not support",
        instead: "`xai` with XAI_API_KEY",
    },
    Unsupported {
        id: "qwen-oauth",
        aliases: &["qwen", "qwen-portal", "qwen-cli"],
        why: "uses the Qwen CLI's OAuth login, which hermes does not support",
        instead: "`alibaba` with DASHSCOPE_API_KEY",
    },
    Unsupported {
        id: "minimax-oauth",
        aliases: &[
            "minimax_oauth",
            "minimax-oauth-io",
            "minimax-portal",
            "minimax-global",
        ],
        why: "signs in through MiniMax's OAuth browser flow, which hermes does not support",
        instead: "`minimax` with MINIMAX_API_KEY",
    },
    Unsupported {
        id: "copilot",
        aliases: &["github-copilot", "github-models", "github-model", "github"],
        why: "needs GitHub Copilot's token exchange, which hermes does not support",
        instead: "`openrouter` with OPENROUTER_API_KEY, or your endpoint under `providers:`",
    },
    Unsupported {
        id: "copilot-acp",
        aliases: &["github-copilot-acp", "copilot-acp-agent"],
        why: "runs the Copilot CLI as a helper process, which hermes does not support",
        instead: "`openrouter` with OPENROUTER_API_KEY, or your endpoint under `providers:`",
    },
    Unsupported {
        id: "vertex",
        aliases: &["google-vertex", "vertex-ai", "gcp-vertex", "vertexai"],
        why: "signs in with Google Cloud OAuth2 credentials, which hermes does not support",
        instead: "`gemini` with GOOGLE_API_KEY or GEMINI_API_KEY",
    },
    Unsupported {
        id: "moa",
        aliases: &[],
        why: "is Hermes's mixture-of-agents, which hermes does not have",
        instead: "one provider",
    },
];

/// The unsupported provider `name` is the id or an alias of.
pub(super) fn unsupported(name: &str) -> Option<&'static Unsupported> {
    UNSUPPORTED
        .iter()
        .find(|u| u.id == name || u.aliases.contains(&name))
}
