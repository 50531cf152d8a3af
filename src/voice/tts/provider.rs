//! The configured TTS provider, ready to speak: [`Synthesizer::from_config`] resolves
//! `tts.provider` (built-in names win over `tts.providers` entries), the speed (a provider's
//! own `speed` over `tts.speed`), the `max_text_length` cap and the API key
//! (`VOICE_TOOLS_OPENAI_KEY` then `OPENAI_API_KEY`; `ELEVENLABS_API_KEY`).
//!
//! [`Synthesizer::stream`] yields audio as it arrives (OpenAI and ElevenLabs stream PCM chunks;
//! a command provider and Edge yield the whole clip at once; Edge can fall back to an offline
//! command voice whose audio is marked uncacheable). Text is truncated before every call.
//! The key lives only inside the request headers; `Debug` never shows it.

use std::time::Duration;

use futures::StreamExt;
use futures::stream::BoxStream;
use tokio_util::sync::CancellationToken;

use super::SynthError;
use super::command::CommandTts;
use super::edge::EdgeTts;
use super::http;
use super::limits;
use crate::config::EnvLookup;
use crate::config::TtsConfig;
use crate::voice::audio::Clip;

/// OpenAI and ElevenLabs PCM is 24 kHz.
pub const PCM_RATE: u32 = 24_000;

/// Audio arriving in order: chunks of mono samples at `rate` Hz.
pub struct AudioStream {
    pub rate: u32,
    cacheable: bool,
    chunks: BoxStream<'static, Result<Vec<i16>, SynthError>>,
}

impl std::fmt::Debug for AudioStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AudioStream")
            .field("rate", &self.rate)
            .finish_non_exhaustive()
    }
}

impl AudioStream {
    pub fn new(rate: u32, chunks: BoxStream<'static, Result<Vec<i16>, SynthError>>) -> Self {
        Self {
            rate,
            cacheable: true,
            chunks,
        }
    }

    /// Marks audio that must not be stored in the audio cache (a fallback voice standing in
    /// for the configured one).
    pub fn uncacheable(mut self) -> Self {
        self.cacheable = false;
        self
    }

    /// Whether this audio may be cached under the synthesizer's identity.
    pub fn is_cacheable(&self) -> bool {
        self.cacheable
    }

    /// A stream of one finished clip.
    pub fn from_clip(clip: Clip) -> Self {
        let rate = clip.rate;
        Self::new(
            rate,
            futures::stream::once(async move { Ok(clip.samples) }).boxed(),
        )
    }

    /// The next chunk; `None` when the audio is complete.
    pub async fn next_chunk(&mut self) -> Option<Result<Vec<i16>, SynthError>> {
        self.chunks.next().await
    }

    /// All the audio as one clip.
    pub async fn collect(mut self) -> Result<Clip, SynthError> {
        let mut samples = Vec::new();
        while let Some(chunk) = self.next_chunk().await {
            samples.extend(chunk?);
        }
        Ok(Clip::new(samples, self.rate))
    }
}

#[derive(Clone)]
struct ApiTts {
    client: reqwest::Client,
    key: String,
    base_url: String,
    voice: String,
    model: String,
}

#[derive(Clone)]
enum Backend {
    OpenAi(ApiTts),
    ElevenLabs(ApiTts),
    Command(CommandTts),
    /// Edge, with the offline voice to use when Microsoft's service fails.
    Edge {
        edge: EdgeTts,
        offline: Option<CommandTts>,
    },
}

/// A configured provider. Cheap to clone (the HTTP client is shared).
#[derive(Clone)]
pub struct Synthesizer {
    name: String,
    backend: Backend,
    speed: f64,
    max_chars: usize,
}

impl std::fmt::Debug for Synthesizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // No key, no headers.
        f.debug_struct("Synthesizer")
            .field("provider", &self.name)
            .field("speed", &self.speed)
            .field("max_chars", &self.max_chars)
            .finish_non_exhaustive()
    }
}

fn speed_of(own: f64, global: f64) -> f64 {
    if own > 0.0 {
        own
    } else if global > 0.0 {
        global
    } else {
        1.0
    }
}

impl Synthesizer {
    /// The provider `config.provider` names. Errors: an unknown name, a missing API key, a
    /// command entry without a command. Edge's endpoint is `HERMES_EDGE_TTS_URL` when set.
    pub fn from_config(config: &TtsConfig, env: &EnvLookup) -> Result<Self, SynthError> {
        let name = config.provider.trim().to_string();
        match name.as_str() {
            "openai" => {
                let c = &config.openai;
                let key = env
                    .get("VOICE_TOOLS_OPENAI_KEY")
                    .or_else(|| env.get("OPENAI_API_KEY"))
                    .ok_or(SynthError::MissingKey {
                        provider: name.clone(),
                        env_var: "VOICE_TOOLS_OPENAI_KEY (or OPENAI_API_KEY)",
                    })?;
                Ok(Self {
                    backend: Backend::OpenAi(ApiTts {
                        client: http::client()?,
                        key,
                        base_url: c.base_url.trim_end_matches('/').to_string(),
                        voice: c.voice.clone(),
                        model: c.model.clone(),
                    }),
                    speed: speed_of(c.speed, config.speed).clamp(0.25, 4.0),
                    max_chars: limits::resolve(&c.max_text_length, limits::OPENAI_DEFAULT),
                    name,
                })
            }
            "elevenlabs" => {
                let c = &config.elevenlabs;
                let key = env
                    .get("ELEVENLABS_API_KEY")
                    .ok_or(SynthError::MissingKey {
                        provider: name.clone(),
                        env_var: "ELEVENLABS_API_KEY",
                    })?;
                Ok(Self {
                    backend: Backend::ElevenLabs(ApiTts {
                        client: http::client()?,
                        key,
                        base_url: c.base_url.trim_end_matches('/').to_string(),
                        voice: c.voice_id.clone(),
                        model: c.model_id.clone(),
                    }),
                    speed: speed_of(0.0, config.speed),
                    max_chars: limits::resolve(
                        &c.max_text_length,
                        limits::elevenlabs_default(&c.model_id),
                    ),
                    name,
                })
            }
            "edge" => {
                let c = &config.edge;
                let url = env
                    .get(super::edge::URL_ENV)
                    .filter(|u| !u.trim().is_empty())
                    .unwrap_or_else(|| super::edge::DEFAULT_URL.to_string());
                let speed = speed_of(c.speed, config.speed);
                Ok(Self {
                    backend: Backend::Edge {
                        edge: EdgeTts::new(&url, &c.voice, speed),
                        offline: None,
                    },
                    speed,
                    max_chars: limits::resolve(&c.max_text_length, limits::EDGE_DEFAULT),
                    name,
                })
            }
            _ => Self::command(config, name),
        }
    }

    fn command(config: &TtsConfig, name: String) -> Result<Self, SynthError> {
        let entry = config
            .providers
            .get(&name)
            .ok_or_else(|| SynthError::UnknownProvider(name.clone()))?;
        let kind = entry.kind.trim();
        if !kind.is_empty() && kind != "command" {
            return Err(SynthError::Config {
                provider: name,
                detail: format!(
                    "tts.providers entry has type `{kind}`; only `command` is supported"
                ),
            });
        }
        if entry.command.trim().is_empty() {
            return Err(SynthError::Config {
                provider: name.clone(),
                detail: format!("tts.providers.{name}.command is empty"),
            });
        }
        let format = match entry.output_format.trim().to_ascii_lowercase() {
            f if f.is_empty() => "mp3".to_string(),
            f => f,
        };
        let speed = speed_of(entry.speed, config.speed);
        Ok(Self {
            backend: Backend::Command(CommandTts {
                name: name.clone(),
                command: entry.command.clone(),
                format,
                timeout: Duration::from_secs(if entry.timeout == 0 {
                    120
                } else {
                    entry.timeout
                }),
                voice: entry.voice.clone(),
                model: entry.model.clone(),
                speed,
            }),
            speed,
            max_chars: limits::resolve(&entry.max_text_length, limits::COMMAND_DEFAULT),
            name,
        })
    }

    /// A command provider built directly (the CLI and tests).
    pub fn from_command(command: CommandTts, max_chars: usize) -> Self {
        Self {
            name: command.name.clone(),
            speed: command.speed,
            backend: Backend::Command(command),
            max_chars,
        }
    }

    /// For Edge: speak with `offline` when Microsoft's service cannot be reached or refuses
    /// (its audio is not cached). Other providers are returned unchanged.
    pub fn with_offline_fallback(mut self, offline: CommandTts) -> Self {
        if let Backend::Edge { offline: slot, .. } = &mut self.backend {
            *slot = Some(offline);
        }
        self
    }

    /// `tts.provider` as configured (`openai`, `elevenlabs`, or a command provider's name).
    pub fn provider(&self) -> &str {
        &self.name
    }

    /// Input beyond this many characters is cut off before the provider call.
    pub fn max_text_length(&self) -> usize {
        self.max_chars
    }

    /// What besides the text changes the audio: provider, voice, model, speed (and for a
    /// command provider its command and format). The audio cache key is built from it.
    pub fn identity(&self) -> String {
        match &self.backend {
            Backend::OpenAi(api) | Backend::ElevenLabs(api) => format!(
                "{}\n{}\n{}\n{}\n{}",
                self.name, api.base_url, api.voice, api.model, self.speed
            ),
            Backend::Command(c) => format!(
                "{}\n{}\n{}\n{}\n{}\n{}",
                self.name, c.command, c.format, c.voice, c.model, self.speed
            ),
            Backend::Edge { edge, .. } => format!(
                "{}\n{}\n{}\n{}",
                self.name,
                edge.url(),
                edge.voice(),
                self.speed
            ),
        }
    }

    /// Start synthesising `text` (cut to [`Self::max_text_length`]); audio is handed on as it
    /// arrives. Cancelling `cancel` aborts the request or kills the command.
    pub async fn stream(
        &self,
        text: &str,
        cancel: &CancellationToken,
    ) -> Result<AudioStream, SynthError> {
        let text = limits::truncate(text, self.max_chars);
        match &self.backend {
            Backend::OpenAi(api) => {
                let url = format!("{}/audio/speech", api.base_url);
                let body = serde_json::json!({
                    "model": api.model,
                    "voice": api.voice,
                    "input": text,
                    "speed": self.speed,
                    "response_format": "pcm",
                });
                let request = api.client.post(&url).bearer_auth(&api.key).json(&body);
                http::post_pcm(request, &self.name, &url, PCM_RATE, cancel).await
            }
            Backend::ElevenLabs(api) => {
                let url = format!(
                    "{}/v1/text-to-speech/{}/stream?output_format=pcm_24000",
                    api.base_url, api.voice
                );
                let body = serde_json::json!({"text": text, "model_id": api.model});
                let request = api
                    .client
                    .post(&url)
                    .header("xi-api-key", &api.key)
                    .json(&body);
                http::post_pcm(request, &self.name, &url, PCM_RATE, cancel).await
            }
            Backend::Command(command) => Ok(AudioStream::from_clip(
                command.synthesize(text, cancel).await?,
            )),
            Backend::Edge { edge, offline } => {
                match (edge.synthesize(text, cancel).await, offline) {
                    (Ok(clip), _) => Ok(AudioStream::from_clip(clip)),
                    (
                        Err(
                            err @ (SynthError::Connect { .. }
                            | SynthError::Status { .. }
                            | SynthError::Stream { .. }),
                        ),
                        Some(offline),
                    ) => {
                        tracing::warn!("{err}; speaking with {} instead", offline.name);
                        let clip = offline.synthesize(text, cancel).await?;
                        Ok(AudioStream::from_clip(clip).uncacheable())
                    }
                    (Err(err), _) => Err(err),
                }
            }
        }
    }

    /// All of `text`'s audio as one clip.
    pub async fn synthesize(
        &self,
        text: &str,
        cancel: &CancellationToken,
    ) -> Result<Clip, SynthError> {
        let stream = self.stream(text, cancel).await?;
        tokio::select! {
            clip = stream.collect() => clip,
            () = cancel.cancelled() => Err(SynthError::Cancelled),
        }
    }
}

#[cfg(test)]
#[path = "provider_tests.rs"]
mod tests;
