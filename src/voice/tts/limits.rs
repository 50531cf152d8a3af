//! `max_text_length` (spec-002c §4.4): each provider's default input cap, the configured
//! override (only positive integers count — zero, negative, fractional, string or boolean
//! values fall back to the default, so a bad value cannot turn truncation off), and the cut.

/// OpenAI `/audio/speech` accepts at most this many characters.
pub const OPENAI_DEFAULT: usize = 4096;
/// Edge read-aloud.
pub const EDGE_DEFAULT: usize = 5000;
/// ElevenLabs, for a model this table does not know.
pub const ELEVENLABS_DEFAULT: usize = 10_000;
/// `type: command` providers (the spec's `max_text_length` default for them).
pub const COMMAND_DEFAULT: usize = 5000;

/// The configured cap, if it is a positive integer.
pub fn configured(value: &serde_norway::Value) -> Option<usize> {
    match value {
        serde_norway::Value::Number(n) => n
            .as_u64()
            .filter(|&v| v > 0)
            .and_then(|v| usize::try_from(v).ok()),
        _ => None,
    }
}

/// The configured cap, else `default`.
pub fn resolve(value: &serde_norway::Value, default: usize) -> usize {
    configured(value).unwrap_or(default)
}

/// ElevenLabs's cap by `model_id`.
pub fn elevenlabs_default(model_id: &str) -> usize {
    match model_id {
        "eleven_flash_v2_5" => 40_000,
        "eleven_flash_v2" => 30_000,
        "eleven_multilingual_v2"
        | "eleven_multilingual_v1"
        | "eleven_english_sts_v2"
        | "eleven_english_sts_v1" => 10_000,
        "eleven_v3" | "eleven_ttv_v3" => 5000,
        _ => ELEVENLABS_DEFAULT,
    }
}

/// `text` cut to at most `max` characters (not bytes).
pub fn truncate(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}

#[cfg(test)]
#[path = "limits_tests.rs"]
mod tests;
