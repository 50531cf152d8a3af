//! Choosing and building the speech-to-text engine from `stt:` config, `HERMES_HOME` and an
//! environment lookup (process env, then `.env`).
//!
//! Keys: `GROQ_API_KEY` for groq; `VOICE_TOOLS_OPENAI_KEY`, then `OPENAI_API_KEY`, for openai.
//! Environment overrides win over config: `STT_GROQ_MODEL`, `GROQ_BASE_URL`,
//! `STT_OPENAI_MODEL`, `STT_OPENAI_BASE_URL`; `HERMES_LOCAL_STT_COMMAND` is the command when
//! `stt.local_command.command` is empty. `stt.local.language` (unless `auto`) is also sent to
//! the APIs. [`select`] falls back like Hermes when the configured provider cannot run (no key,
//! no model file, no command, no whisper in this build): local, then local_command, then groq,
//! then openai — and says why in [`Selected::fallback_note`]. [`build`] never falls back.
//! Nothing here touches the network or loads a model; it only checks files and keys exist.

use std::time::Duration;

use super::api::{ApiSettings, ApiTranscriber};
use super::command::CommandTranscriber;
use super::{SttError, SttProvider, Transcriber};
use crate::config::{HermesHome, SttApiConfig, SttConfig};

/// Env lookup: process environment, then `.env` (pass `&env_lookup.as_fn()`).
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The engine to use and, when it is not the configured one, why.
#[derive(Debug, Clone)]
pub struct Selected {
    pub transcriber: Transcriber,
    /// "stt.provider groq needs GROQ_API_KEY …; using local whisper (…)" — show it once.
    pub fallback_note: Option<String>,
}

const FALLBACK_ORDER: [SttProvider; 4] = [
    SttProvider::Local,
    SttProvider::LocalCommand,
    SttProvider::Groq,
    SttProvider::OpenAi,
];

/// The configured provider if it can run, else the first that can.
pub fn select(config: &SttConfig, home: &HermesHome, env: Env<'_>) -> Result<Selected, SttError> {
    let wanted = SttProvider::parse(&config.provider)
        .ok_or_else(|| SttError::UnknownProvider(config.provider.clone()))?;
    let first = match build(wanted, config, home, env) {
        Ok(transcriber) => {
            return Ok(Selected {
                transcriber,
                fallback_note: None,
            });
        }
        Err(e) => e,
    };
    let mut reasons = vec![format!("{}: {first}", wanted.as_str())];
    for provider in FALLBACK_ORDER.into_iter().filter(|p| *p != wanted) {
        match build(provider, config, home, env) {
            Ok(transcriber) => {
                let note = format!("{first}; using {}", transcriber.describe());
                return Ok(Selected {
                    transcriber,
                    fallback_note: Some(note),
                });
            }
            Err(e) => reasons.push(format!("{}: {e}", provider.as_str())),
        }
    }
    Err(SttError::NoProvider(reasons.join("; ")))
}

/// Exactly `provider`, or why it cannot run.
pub fn build(
    provider: SttProvider,
    config: &SttConfig,
    home: &HermesHome,
    env: Env<'_>,
) -> Result<Transcriber, SttError> {
    match provider {
        SttProvider::Local => build_local(config, home),
        SttProvider::LocalCommand => {
            let template = Some(config.local_command.command.trim().to_string())
                .filter(|c| !c.is_empty())
                .or_else(|| get(env, "HERMES_LOCAL_STT_COMMAND"))
                .ok_or(SttError::NoCommand)?;
            Ok(Transcriber::Command(CommandTranscriber::new(
                &template,
                Duration::from_secs(config.local_command.timeout),
                &config.local.language,
                &config.local.model,
            )))
        }
        SttProvider::Groq => {
            let key = get(env, "GROQ_API_KEY").ok_or(SttError::MissingKey {
                provider: "groq",
                vars: "GROQ_API_KEY",
            })?;
            let defaults = SttConfig::default().groq;
            api(
                provider,
                key,
                config,
                &config.groq,
                &defaults,
                [get(env, "STT_GROQ_MODEL"), get(env, "GROQ_BASE_URL")],
            )
        }
        SttProvider::OpenAi => {
            let key = get(env, "VOICE_TOOLS_OPENAI_KEY")
                .or_else(|| get(env, "OPENAI_API_KEY"))
                .ok_or(SttError::MissingKey {
                    provider: "openai",
                    vars: "VOICE_TOOLS_OPENAI_KEY or OPENAI_API_KEY",
                })?;
            let defaults = SttConfig::default().openai;
            api(
                provider,
                key,
                config,
                &config.openai,
                &defaults,
                [
                    get(env, "STT_OPENAI_MODEL"),
                    get(env, "STT_OPENAI_BASE_URL"),
                ],
            )
        }
    }
}

#[cfg(feature = "whisper")]
fn build_local(config: &SttConfig, home: &HermesHome) -> Result<Transcriber, SttError> {
    use super::whisper::{LocalWhisper, check_model_file, resolve_model};
    let location = resolve_model(&config.local.model, home);
    check_model_file(&location)?;
    Ok(Transcriber::Local(LocalWhisper::new(
        location,
        &config.local.language,
    )))
}

#[cfg(not(feature = "whisper"))]
fn build_local(_config: &SttConfig, _home: &HermesHome) -> Result<Transcriber, SttError> {
    Err(SttError::NoLocalWhisper)
}

/// `[model, base_url]` overrides from the environment win over config, config over defaults.
fn api(
    provider: SttProvider,
    api_key: String,
    config: &SttConfig,
    section: &SttApiConfig,
    defaults: &SttApiConfig,
    [model_env, url_env]: [Option<String>; 2],
) -> Result<Transcriber, SttError> {
    let pick = |env: Option<String>, configured: &str, default: &str| {
        env.or_else(|| Some(configured.trim().to_string()).filter(|v| !v.is_empty()))
            .unwrap_or_else(|| default.to_string())
    };
    let language = config.local.language.trim().to_ascii_lowercase();
    let settings = ApiSettings {
        provider,
        model: pick(model_env, &section.model, &defaults.model),
        base_url: pick(url_env, &section.base_url, &defaults.base_url),
        language: (!language.is_empty() && language != "auto").then_some(language),
        api_key,
    };
    Ok(Transcriber::Api(ApiTranscriber::new(settings)?))
}

/// A non-blank variable, trimmed.
fn get(env: Env<'_>, key: &str) -> Option<String> {
    env(key)
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

#[cfg(test)]
#[path = "select_tests.rs"]
mod tests;
