//! What a model can take: whether it sees images. Hermes reads this from provider metadata
//! (models.dev); we have no network lookup at start-up, so a table of known text-only model
//! families decides, and `model.vision` in config.yaml overrides it either way.
//!
//! Invariants: unknown models count as vision-capable (most current models are, and a wrong
//! "yes" is caught by the provider's error, which names the problem, while a wrong "no"
//! silently hides the picture); pure string work, no I/O.

use crate::config::VisionSupport;

/// Whether `model` (as sent to the provider) sees images.
pub fn supports_vision(setting: VisionSupport, model: &str) -> bool {
    match setting {
        VisionSupport::Yes => true,
        VisionSupport::No => false,
        VisionSupport::Auto => !known_text_only(model),
    }
}

/// Model families known to take text only. Matched on the lower-cased id without the
/// `vendor/` prefix; a vision variant (`-vl`, `vision`, …) of a family is not text-only.
fn known_text_only(model: &str) -> bool {
    let id = model.trim().to_ascii_lowercase();
    let id = id.rsplit('/').next().unwrap_or(&id);
    const VISION_MARKERS: [&str; 6] = ["vision", "-vl", "vl-", "omni", "flash", "-v-"];
    if VISION_MARKERS.iter().any(|m| id.contains(m)) {
        return false;
    }
    const TEXT_ONLY: [&str; 18] = [
        "deepseek",
        "gpt-3.5",
        "o1-mini",
        "o3-mini",
        "gpt-oss",
        "codestral",
        "mixtral",
        "mistral-7b",
        "llama-3.1",
        "llama-3.3",
        "llama3.1",
        "llama3.3",
        "qwen2.5",
        "qwen3",
        "qwq",
        "hermes-3",
        "hermes-4",
        "minimax-m2",
    ];
    TEXT_ONLY.iter().any(|family| id.contains(family)) || id.starts_with("kimi-k2")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_text_only_families_are_detected() {
        for model in [
            "deepseek-chat",
            "deepseek/deepseek-v4-pro",
            "deepseek-reasoner",
            "gpt-3.5-turbo",
            "openai/gpt-oss-120b",
            "meta-llama/llama-3.3-70b-instruct",
            "qwen2.5-coder:7b",
            "nousresearch/hermes-4-405b",
            "moonshotai/kimi-k2",
        ] {
            assert!(!supports_vision(VisionSupport::Auto, model), "{model}");
        }
    }

    #[test]
    fn vision_models_and_unknown_models_see_images() {
        for model in [
            "anthropic/claude-sonnet-4",
            "gpt-4o",
            "google/gemini-2.5-pro",
            "qwen/qwen2.5-vl-72b-instruct",
            "meta-llama/llama-3.2-90b-vision-instruct",
            "deepseek-v4.1-flash",
            "some-local-model",
        ] {
            assert!(supports_vision(VisionSupport::Auto, model), "{model}");
        }
    }

    #[test]
    fn config_overrides_the_table() {
        assert!(supports_vision(VisionSupport::Yes, "deepseek-chat"));
        assert!(!supports_vision(VisionSupport::No, "gpt-4o"));
    }
}
