//! The keys `hermes config set` knows, with what each holds and its largest value, and the
//! top-level sections (a section alone is not a settable key). Plain data; a test in `edit`
//! checks it against the schema's leaves.

/// What a key holds, for validation and rendering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FieldKind {
    Text,
    Secret,
    Seconds,
    Tokens,
    Count,
    /// A list of strings, given as comma-separated text (`a, b`).
    List,
    /// `true` or `false`.
    Bool,
    /// A number from 0 to 1.
    Fraction,
    /// A non-negative number (decimals allowed) up to `max`.
    Decimal,
}

pub(super) struct KnownKey {
    pub(super) key: &'static str,
    pub(super) kind: FieldKind,
    pub(super) max: u64,
}

const U32: u64 = u32::MAX as u64;

const fn key(key: &'static str, kind: FieldKind, max: u64) -> KnownKey {
    KnownKey { key, kind, max }
}

pub(super) const KNOWN_KEYS: &[KnownKey] = &[
    key("model.default", FieldKind::Text, 0),
    key("model.provider", FieldKind::Text, 0),
    key("model.base_url", FieldKind::Text, 0),
    key("model.api_key", FieldKind::Secret, 0),
    key("model.api_mode", FieldKind::Text, 0),
    key("model.vision", FieldKind::Text, 0),
    key("model.context_length", FieldKind::Tokens, u64::MAX),
    key("model.max_tokens", FieldKind::Tokens, U32),
    key("terminal.backend", FieldKind::Text, 0),
    key("terminal.cwd", FieldKind::Text, 0),
    key("terminal.timeout", FieldKind::Seconds, u64::MAX),
    key("agent.max_iterations", FieldKind::Count, U32),
    key("provider.stream_idle_timeout", FieldKind::Seconds, u64::MAX),
    key("provider.max_retries", FieldKind::Count, U32),
    key("display.busy_input_mode", FieldKind::Text, 0),
    key("display.skin", FieldKind::Text, 0),
    key("display.theme_mode", FieldKind::Text, 0),
    key("skills.external_dirs", FieldKind::List, 0),
    key("auxiliary.compression.model", FieldKind::Text, 0),
    key("auxiliary.compression.provider", FieldKind::Text, 0),
    key("auxiliary.compression.base_url", FieldKind::Text, 0),
    key("auxiliary.approval.model", FieldKind::Text, 0),
    key("auxiliary.approval.provider", FieldKind::Text, 0),
    key("auxiliary.approval.base_url", FieldKind::Text, 0),
    key("auxiliary.goal_judge.model", FieldKind::Text, 0),
    key("auxiliary.goal_judge.provider", FieldKind::Text, 0),
    key("auxiliary.goal_judge.base_url", FieldKind::Text, 0),
    key("compression.enabled", FieldKind::Bool, 0),
    key("compression.threshold", FieldKind::Fraction, 0),
    key("compression.protect_first_n", FieldKind::Count, 1_000),
    key("compression.protect_last_n", FieldKind::Count, 1_000),
    key("approvals.mode", FieldKind::Text, 0),
    key("approvals.timeout", FieldKind::Seconds, 3_600),
    key("approvals.bell", FieldKind::Bool, 0),
    key("approvals.mcp_reload_confirm", FieldKind::Bool, 0),
    key("approvals.deny", FieldKind::List, 0),
    key("command_allowlist", FieldKind::List, 0),
    key("security.redact_secrets", FieldKind::Bool, 0),
    key("checkpoints.enabled", FieldKind::Bool, 0),
    key("checkpoints.max_snapshots", FieldKind::Count, 10_000),
    key("checkpoints.max_file_size_mb", FieldKind::Count, 100_000),
    key("delegation.max_concurrent_children", FieldKind::Count, 64),
    key("delegation.max_spawn_depth", FieldKind::Count, 3),
    key("delegation.orchestrator_enabled", FieldKind::Bool, 0),
    key("delegation.max_iterations", FieldKind::Count, 10_000),
    key(
        "delegation.child_timeout_seconds",
        FieldKind::Seconds,
        86_400,
    ),
    key("delegation.model", FieldKind::Text, 0),
    key("delegation.provider", FieldKind::Text, 0),
    key("delegation.base_url", FieldKind::Text, 0),
    key("delegation.subagent_approvals", FieldKind::Text, 0),
    key("auxiliary.vision.model", FieldKind::Text, 0),
    key("auxiliary.vision.provider", FieldKind::Text, 0),
    key("auxiliary.vision.base_url", FieldKind::Text, 0),
    // Values outside 64 KiB–4 MiB are clamped when used, as Hermes does.
    key("vision.embed_target_bytes", FieldKind::Count, u64::MAX),
    key("vision.max_calls_per_image", FieldKind::Count, U32),
    key("goals.max_turns", FieldKind::Count, 10_000),
    key("voice.record_key", FieldKind::Text, 0),
    key("voice.max_recording_seconds", FieldKind::Seconds, 3_600),
    key("voice.auto_tts", FieldKind::Bool, 0),
    key("voice.auto_enable", FieldKind::Bool, 0),
    key("voice.auto_send", FieldKind::Bool, 0),
    key("voice.beep_enabled", FieldKind::Bool, 0),
    key("voice.silence_threshold", FieldKind::Count, 32_767),
    key("voice.silence_duration", FieldKind::Decimal, 60),
    key("stt.enabled", FieldKind::Bool, 0),
    key("stt.provider", FieldKind::Text, 0),
    key("stt.local.model", FieldKind::Text, 0),
    key("stt.local.language", FieldKind::Text, 0),
    key("stt.openai.model", FieldKind::Text, 0),
    key("stt.openai.base_url", FieldKind::Text, 0),
    key("stt.groq.model", FieldKind::Text, 0),
    key("stt.groq.base_url", FieldKind::Text, 0),
    key("stt.local_command.command", FieldKind::Text, 0),
    key("stt.local_command.timeout", FieldKind::Seconds, 3_600),
    key("tts.provider", FieldKind::Text, 0),
    key("tts.speed", FieldKind::Decimal, 4),
    key("tts.edge.voice", FieldKind::Text, 0),
    key("tts.edge.speed", FieldKind::Decimal, 4),
    key("tts.edge.max_text_length", FieldKind::Count, 1_000_000),
    key("tts.openai.model", FieldKind::Text, 0),
    key("tts.openai.voice", FieldKind::Text, 0),
    key("tts.openai.base_url", FieldKind::Text, 0),
    key("tts.openai.speed", FieldKind::Decimal, 4),
    key("tts.openai.max_text_length", FieldKind::Count, 1_000_000),
    key("tts.elevenlabs.voice_id", FieldKind::Text, 0),
    key("tts.elevenlabs.model_id", FieldKind::Text, 0),
    key("tts.elevenlabs.base_url", FieldKind::Text, 0),
    key(
        "tts.elevenlabs.max_text_length",
        FieldKind::Count,
        1_000_000,
    ),
    key("hooks_auto_accept", FieldKind::Bool, 0),
    key("memory.memory_enabled", FieldKind::Bool, 0),
    key("memory.user_profile_enabled", FieldKind::Bool, 0),
    key("memory.memory_char_limit", FieldKind::Count, 1_000_000),
    key("memory.user_char_limit", FieldKind::Count, 1_000_000),
    key("tool_output.max_bytes", FieldKind::Count, 100_000_000),
    key("file_read_max_chars", FieldKind::Count, 100_000_000),
    key("prompt_caching.cache_ttl", FieldKind::Text, 0),
];

/// Hermes's names for settings hermes keeps under another name: `(Hermes key, hermes key)`.
/// `config set` validates them like their hermes key; `config::hermes_names` reads them,
/// and when both are in the file the Hermes name wins (so both programs use one value).
pub(super) const ALIASES: &[(&str, &str)] = &[
    ("agent.max_turns", "agent.max_iterations"),
    ("max_turns", "agent.max_iterations"),
    ("agent.api_max_retries", "provider.max_retries"),
];
pub(super) const SECTIONS: &[&str] = &[
    "model",
    "terminal",
    "agent",
    "provider",
    "display",
    "skills",
    "compression",
    "auxiliary",
    "approvals",
    "security",
    "checkpoints",
    "delegation",
    "goals",
    "voice",
    "vision",
    "stt",
    "tts",
    "memory",
    "tool_output",
    "prompt_caching",
];
