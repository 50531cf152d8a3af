//! What onboarding produces — a [`ProviderChoice`] — the hosted providers it offers, and
//! [`save_choice`], which writes the choice to `HERMES_HOME`.
//!
//! Saving puts the key in `.env` (mode 0600, via `config::set_env_var`) under the provider's
//! variable, never in `config.yaml`, and sets `model.provider`, `model.default` and
//! `model.base_url` with `config::config_set` (comments and other keys are kept). Invariant:
//! a choice's `Debug` never shows the key.

use std::fmt;

use crate::config::ConfigError;
use crate::config::HermesHome;
use crate::config::config_set;
use crate::config::set_env_var;

/// A hosted provider onboarding offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hosted {
    /// `model.provider` value.
    pub id: &'static str,
    pub label: &'static str,
    /// Shown next to the label in the list.
    pub blurb: &'static str,
    pub base_url: &'static str,
    pub key_env: &'static str,
    /// Where to get a key, shown on the key step.
    pub key_url: &'static str,
    pub default_model: &'static str,
}

pub const HOSTED: [Hosted; 4] = [
    Hosted {
        id: "openrouter",
        label: "OpenRouter",
        blurb: "one key, hundreds of models",
        base_url: "https://openrouter.ai/api/v1",
        key_env: "OPENROUTER_API_KEY",
        key_url: "https://openrouter.ai/keys",
        default_model: "anthropic/claude-sonnet-4",
    },
    Hosted {
        id: "openai-api",
        label: "OpenAI",
        blurb: "GPT models",
        base_url: "https://api.openai.com/v1",
        key_env: "OPENAI_API_KEY",
        key_url: "https://platform.openai.com/api-keys",
        default_model: "gpt-4.1",
    },
    Hosted {
        id: "anthropic",
        label: "Anthropic",
        blurb: "Claude models",
        base_url: "https://api.anthropic.com/v1",
        key_env: "ANTHROPIC_API_KEY",
        key_url: "https://console.anthropic.com/settings/keys",
        default_model: "claude-sonnet-4-20250514",
    },
    Hosted {
        id: "nous",
        label: "Nous Portal",
        blurb: "Hermes models from Nous Research",
        base_url: "https://inference-api.nousresearch.com/v1",
        key_env: "NOUS_API_KEY",
        key_url: "https://portal.nousresearch.com",
        default_model: "Hermes-4-405B",
    },
];

/// `.env` variable for a custom (OpenAI-compatible) server's key.
pub const CUSTOM_KEY_ENV: &str = "CUSTOM_API_KEY";

/// The default base URL of a hosted provider id (`openrouter`, …).
pub fn hosted_base_url(provider: &str) -> Option<&'static str> {
    HOSTED.iter().find(|h| h.id == provider).map(|h| h.base_url)
}

/// The provider the user picked and tested.
#[derive(Clone, PartialEq, Eq)]
pub struct ProviderChoice {
    /// `openrouter`, `openai-api`, `anthropic`, `nous` or `custom` (Hermes's ids, so Python Hermes
    /// reads the saved choice too).
    pub provider: String,
    /// Set for custom and local servers; hosted providers use their default.
    pub base_url: Option<String>,
    /// Never printed by `Debug`.
    pub api_key: Option<String>,
    /// The `.env` variable the key is saved under.
    pub api_key_env: Option<&'static str>,
    pub model: String,
}

impl fmt::Debug for ProviderChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProviderChoice")
            .field("provider", &self.provider)
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "***"))
            .field("api_key_env", &self.api_key_env)
            .field("model", &self.model)
            .finish()
    }
}

/// Saves `choice`: the key to `.env` (0600), provider, model and base URL to `config.yaml`.
/// A hosted choice clears a leftover `model.base_url`, which would otherwise override the
/// provider's endpoint.
pub fn save_choice(home: &HermesHome, choice: &ProviderChoice) -> Result<(), ConfigError> {
    if let (Some(key), Some(var)) = (choice.api_key.as_deref(), choice.api_key_env)
        && !key.is_empty()
    {
        set_env_var(home, var, key)?;
    }
    config_set(home, "model.provider", &choice.provider)?;
    config_set(home, "model.default", &choice.model)?;
    match choice.base_url.as_deref() {
        Some(url) => {
            config_set(home, "model.base_url", url)?;
        }
        None => {
            let current = crate::config::load(home).config.model.base_url;
            if !current.trim().is_empty() {
                config_set(home, "model.base_url", "")?;
            }
        }
    }
    Ok(())
}
