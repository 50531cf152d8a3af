//! The offline fallback for the default provider. `tts.provider: edge` (Hermes's default)
//! needs Microsoft's read-aloud service; rather than leave a default install mute, Edge gets
//! espeak-ng (fully offline) as a stand-in when it is installed: used when the service cannot
//! be reached or refuses (see [`Synthesizer::with_offline_fallback`]), and outright if Edge
//! is ever reported unavailable. Any other provider's error is returned as is.

use std::time::Duration;

use super::SynthError;
use super::command::CommandTts;
use super::provider::Synthesizer;
use crate::config::EnvLookup;
use crate::config::TtsConfig;

/// The espeak-ng command used when Edge is unavailable (`-w` writes a WAV, `-f` reads text).
pub const ESPEAK_COMMAND: &str = "espeak-ng -w {output_path} -f {input_path}";
/// Longest text handed to espeak-ng at once.
const ESPEAK_MAX_CHARS: usize = 5_000;

/// The configured synthesizer, or espeak-ng with a note saying why.
pub fn configured_or_offline(
    config: &TtsConfig,
    env: &EnvLookup,
) -> Result<(Synthesizer, Option<String>), SynthError> {
    match Synthesizer::from_config(config, env) {
        Ok(synth) if config.provider.trim() == "edge" && espeak_on_path(env) => {
            Ok((synth.with_offline_fallback(espeak_command()), None))
        }
        Ok(synth) => Ok((synth, None)),
        Err(SynthError::Unavailable(why)) if config.provider.trim() == "edge" => {
            if espeak_on_path(env) {
                Ok((
                    espeak(),
                    Some(format!(
                        "{why}; speaking with espeak-ng instead (offline). Set tts.provider to \
                         openai, elevenlabs or a command provider for other voices"
                    )),
                ))
            } else {
                Err(SynthError::Unavailable(format!(
                    "{why}; install espeak-ng for offline speech"
                )))
            }
        }
        Err(err) => Err(err),
    }
}

fn espeak_command() -> CommandTts {
    CommandTts {
        name: "espeak-ng".to_string(),
        command: ESPEAK_COMMAND.to_string(),
        format: "wav".to_string(),
        timeout: Duration::from_secs(120),
        voice: String::new(),
        model: String::new(),
        speed: 1.0,
    }
}

fn espeak() -> Synthesizer {
    Synthesizer::from_command(espeak_command(), ESPEAK_MAX_CHARS)
}

fn espeak_on_path(env: &EnvLookup) -> bool {
    let path = env.get("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|dir| dir.join("espeak-ng").is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path_env(path: &str) -> EnvLookup {
        let process = [("PATH".to_string(), path.to_string())]
            .into_iter()
            .collect();
        EnvLookup::from_maps(process, Default::default())
    }

    #[test]
    fn edge_is_used_with_espeak_as_its_stand_in_when_installed() {
        let config = TtsConfig::default();
        assert_eq!(config.provider, "edge");
        let with = path_env("/usr/bin:/bin");
        let without = path_env("/nonexistent");
        let (synth, note) = configured_or_offline(&config, &with).unwrap();
        assert_eq!(synth.provider(), "edge");
        assert!(note.is_none());
        let (synth, note) = configured_or_offline(&config, &without).unwrap();
        assert_eq!(synth.provider(), "edge");
        assert!(note.is_none());
    }

    #[test]
    fn other_providers_errors_are_not_hidden() {
        let config = TtsConfig {
            provider: "openai".into(),
            ..TtsConfig::default()
        };
        let env = path_env("/usr/bin");
        let err = configured_or_offline(&config, &env).unwrap_err();
        assert!(err.to_string().to_lowercase().contains("key"), "{err}");
    }
}
