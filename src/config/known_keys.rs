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
pub(super) const KNOWN_KEYS: &[KnownKey] = &[
    KnownKey {
        key: "model.default",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "model.provider",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "model.base_url",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "model.api_key",
        kind: FieldKind::Secret,
        max: 0,
    },
    KnownKey {
        key: "model.api_mode",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "model.vision",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "model.context_length",
        kind: FieldKind::Tokens,
        max: u64::MAX,
    },
    KnownKey {
        key: "model.max_tokens",
        kind: FieldKind::Tokens,
        max: U32,
    },
    KnownKey {
        key: "terminal.backend",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "terminal.cwd",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "terminal.timeout",
        kind: FieldKind::Seconds,
        max: u64::MAX,
    },
    KnownKey {
        key: "agent.max_iterations",
        kind: FieldKind::Count,
        max: U32,
    },
    KnownKey {
        key: "provider.stream_idle_timeout",
        kind: FieldKind::Seconds,
        max: u64::MAX,
    },
    KnownKey {
        key: "provider.max_retries",
        kind: FieldKind::Count,
        max: U32,
    },
    KnownKey {
        key: "display.busy_input_mode",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "display.skin",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "display.theme_mode",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "skills.external_dirs",
        kind: FieldKind::List,
        max: 0,
    },
    KnownKey {
        key: "auxiliary.compression.model",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "auxiliary.compression.provider",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "auxiliary.compression.base_url",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "auxiliary.approval.model",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "auxiliary.approval.provider",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "auxiliary.approval.base_url",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "auxiliary.goal_judge.model",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "auxiliary.goal_judge.provider",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "auxiliary.goal_judge.base_url",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "compression.enabled",
        kind: FieldKind::Bool,
        max: 0,
    },
    KnownKey {
        key: "compression.threshold",
        kind: FieldKind::Fraction,
        max: 0,
    },
    KnownKey {
        key: "compression.protect_first_n",
        kind: FieldKind::Count,
        max: 1_000,
    },
    KnownKey {
        key: "compression.protect_last_n",
        kind: FieldKind::Count,
        max: 1_000,
    },
    KnownKey {
        key: "approvals.mode",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "approvals.timeout",
        kind: FieldKind::Seconds,
        max: 3_600,
    },
    KnownKey {
        key: "approvals.bell",
        kind: FieldKind::Bool,
        max: 0,
    },
    KnownKey {
        key: "approvals.mcp_reload_confirm",
        kind: FieldKind::Bool,
        max: 0,
    },
    KnownKey {
        key: "command_allowlist",
        kind: FieldKind::List,
        max: 0,
    },
    KnownKey {
        key: "security.redact_secrets",
        kind: FieldKind::Bool,
        max: 0,
    },
    KnownKey {
        key: "checkpoints.enabled",
        kind: FieldKind::Bool,
        max: 0,
    },
    KnownKey {
        key: "checkpoints.max_snapshots",
        kind: FieldKind::Count,
        max: 10_000,
    },
    KnownKey {
        key: "checkpoints.max_file_size_mb",
        kind: FieldKind::Count,
        max: 100_000,
    },
    KnownKey {
        key: "delegation.max_concurrent_children",
        kind: FieldKind::Count,
        max: 64,
    },
    KnownKey {
        key: "delegation.max_spawn_depth",
        kind: FieldKind::Count,
        max: 3,
    },
    KnownKey {
        key: "delegation.orchestrator_enabled",
        kind: FieldKind::Bool,
        max: 0,
    },
    KnownKey {
        key: "delegation.max_iterations",
        kind: FieldKind::Count,
        max: 10_000,
    },
    KnownKey {
        key: "delegation.child_timeout_seconds",
        kind: FieldKind::Seconds,
        max: 86_400,
    },
    KnownKey {
        key: "delegation.model",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "delegation.provider",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "delegation.base_url",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "delegation.subagent_approvals",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "auxiliary.vision.model",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "auxiliary.vision.provider",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "auxiliary.vision.base_url",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "vision.embed_target_bytes",
        kind: FieldKind::Count,
        // Values outside 64 KiB–4 MiB are clamped when used, as Hermes does.
        max: u64::MAX,
    },
    KnownKey {
        key: "vision.max_calls_per_image",
        kind: FieldKind::Count,
        max: U32,
    },
    KnownKey {
        key: "goals.max_turns",
        kind: FieldKind::Count,
        max: 10_000,
    },
    KnownKey {
        key: "voice.record_key",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "voice.max_recording_seconds",
        kind: FieldKind::Seconds,
        max: 3_600,
    },
    KnownKey {
        key: "voice.auto_tts",
        kind: FieldKind::Bool,
        max: 0,
    },
    KnownKey {
        key: "voice.auto_enable",
        kind: FieldKind::Bool,
        max: 0,
    },
    KnownKey {
        key: "voice.auto_send",
        kind: FieldKind::Bool,
        max: 0,
    },
    KnownKey {
        key: "voice.beep_enabled",
        kind: FieldKind::Bool,
        max: 0,
    },
    KnownKey {
        key: "voice.silence_threshold",
        kind: FieldKind::Count,
        max: 32_767,
    },
    KnownKey {
        key: "voice.silence_duration",
        kind: FieldKind::Decimal,
        max: 60,
    },
    KnownKey {
        key: "stt.enabled",
        kind: FieldKind::Bool,
        max: 0,
    },
    KnownKey {
        key: "stt.provider",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "stt.local.model",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "stt.local.language",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "stt.openai.model",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "stt.openai.base_url",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "stt.groq.model",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "stt.groq.base_url",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "stt.local_command.command",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "stt.local_command.timeout",
        kind: FieldKind::Seconds,
        max: 3_600,
    },
    KnownKey {
        key: "tts.provider",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "tts.speed",
        kind: FieldKind::Decimal,
        max: 4,
    },
    KnownKey {
        key: "tts.edge.voice",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "tts.edge.speed",
        kind: FieldKind::Decimal,
        max: 4,
    },
    KnownKey {
        key: "tts.edge.max_text_length",
        kind: FieldKind::Count,
        max: 1_000_000,
    },
    KnownKey {
        key: "tts.openai.model",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "tts.openai.voice",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "tts.openai.base_url",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "tts.openai.speed",
        kind: FieldKind::Decimal,
        max: 4,
    },
    KnownKey {
        key: "tts.openai.max_text_length",
        kind: FieldKind::Count,
        max: 1_000_000,
    },
    KnownKey {
        key: "tts.elevenlabs.voice_id",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "tts.elevenlabs.model_id",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "tts.elevenlabs.base_url",
        kind: FieldKind::Text,
        max: 0,
    },
    KnownKey {
        key: "tts.elevenlabs.max_text_length",
        kind: FieldKind::Count,
        max: 1_000_000,
    },
    KnownKey {
        key: "hooks_auto_accept",
        kind: FieldKind::Bool,
        max: 0,
    },
    KnownKey {
        key: "prompt_caching.cache_ttl",
        kind: FieldKind::Text,
        max: 0,
    },
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
    "prompt_caching",
];
