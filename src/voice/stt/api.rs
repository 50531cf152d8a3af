//! OpenAI-compatible `POST {base_url}/audio/transcriptions` (Groq and OpenAI speak the same
//! API): a multipart upload of the recording as `audio.wav` with `model`,
//! `response_format=json` and, when known, `language`; the answer is `{"text": "…"}`.
//!
//! One attempt per recording, at most [`DEFAULT_TIMEOUT`] in all (the user is waiting; the
//! voice loop decides about retrying). Not here: choosing the provider or reading keys
//! (`select`). Invariants: the key goes only into a sensitive `Authorization` header; it is not
//! in `Debug`, and it is masked if a server echoes it into an error body.

use std::time::Duration;

use reqwest::header::{AUTHORIZATION, CONTENT_TYPE, HeaderValue};

use super::multipart::Multipart;
use super::{SttError, SttProvider, excerpt, wav_bytes};

/// The whole request (upload, processing, answer) must finish within this.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
/// Error bodies are quoted up to this many characters.
const BODY_EXCERPT: usize = 300;

/// Everything an endpoint needs.
#[derive(Clone)]
pub struct ApiSettings {
    pub provider: SttProvider,
    /// `https://api.openai.com/v1`; `/audio/transcriptions` is appended.
    pub base_url: String,
    pub model: String,
    /// ISO-639-1 code sent as `language`; `None` lets the server detect it.
    pub language: Option<String>,
    pub api_key: String,
}

/// A transcription endpoint with its connection pool.
#[derive(Clone)]
pub struct ApiTranscriber {
    settings: ApiSettings,
    url: String,
    client: reqwest::Client,
    timeout: Duration,
}

impl std::fmt::Debug for ApiTranscriber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApiTranscriber")
            .field("provider", &self.settings.provider)
            .field("url", &self.url)
            .field("model", &self.settings.model)
            .field("language", &self.settings.language)
            .finish_non_exhaustive()
    }
}

impl ApiTranscriber {
    pub fn new(settings: ApiSettings) -> Result<Self, SttError> {
        let url = format!(
            "{}/audio/transcriptions",
            settings.base_url.trim().trim_end_matches('/')
        );
        let client = crate::util::http::build_client().map_err(|e| SttError::Transport {
            url: url.clone(),
            detail: e.to_string(),
        })?;
        Ok(Self {
            settings,
            url,
            client,
            timeout: DEFAULT_TIMEOUT,
        })
    }

    /// The same endpoint with another overall timeout.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    pub fn provider(&self) -> SttProvider {
        self.settings.provider
    }

    /// The full endpoint URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    pub fn describe(&self) -> String {
        format!(
            "{} {} ({})",
            self.settings.provider.as_str(),
            self.settings.model,
            self.url
        )
    }

    /// Uploads `samples` as WAV and returns the server's text.
    pub async fn transcribe(&self, samples: &[i16]) -> Result<String, SttError> {
        let wav = wav_bytes(samples)?;
        let mut form = Multipart::new()
            .text("model", &self.settings.model)
            .text("response_format", "json");
        if let Some(language) = &self.settings.language {
            form = form.text("language", language);
        }
        let form = form.file("file", "audio.wav", "audio/wav", &wav);
        let content_type = form.content_type();
        let mut auth = HeaderValue::from_str(&format!("Bearer {}", self.settings.api_key.trim()))
            .map_err(|_| SttError::Transport {
            url: self.url.clone(),
            detail: "the API key contains characters not allowed in a header".into(),
        })?;
        auth.set_sensitive(true);
        let request = self
            .client
            .post(&self.url)
            .header(AUTHORIZATION, auth)
            .header(CONTENT_TYPE, content_type)
            .timeout(self.timeout)
            .body(form.finish());
        let response = request.send().await.map_err(|e| self.transport(&e))?;
        let status = response.status();
        let body = response.bytes().await.map_err(|e| self.transport(&e))?;
        if !status.is_success() {
            return Err(SttError::Http {
                url: self.url.clone(),
                status: status.as_u16(),
                body: self.mask(&excerpt(&String::from_utf8_lossy(&body), BODY_EXCERPT)),
            });
        }
        // Masked as text: a server may quote the key back inside the body.
        parse_text(&body).map_err(|err| SttError::BadResponse {
            url: self.url.clone(),
            detail: self.mask(&err.to_string()),
        })
    }

    fn transport(&self, err: &reqwest::Error) -> SttError {
        let detail = if err.is_timeout() {
            format!("no answer within {} s", self.timeout.as_secs())
        } else {
            let mut current: &dyn std::error::Error = err;
            while let Some(next) = current.source() {
                current = next;
            }
            current.to_string()
        };
        SttError::Transport {
            url: self.url.clone(),
            detail,
        }
    }

    /// Replaces the key if a server quoted it back.
    fn mask(&self, text: &str) -> String {
        let key = self.settings.api_key.trim();
        if key.len() >= 8 {
            text.replace(key, "***")
        } else {
            text.to_string()
        }
    }
}

/// A transcription response that is not `{"text": "…"}`; `body` is an excerpt of it.
#[derive(Debug, thiserror::Error)]
enum BodyError {
    #[error("{source}; body: {body}")]
    Json {
        source: serde_json::Error,
        body: String,
    },
    #[error("no \"text\" field; body: {body}")]
    NoText { body: String },
}

/// `{"text": "…"}` → the text; anything else → what was wrong, quoting the body.
fn parse_text(body: &[u8]) -> Result<String, BodyError> {
    let quoted = || excerpt(&String::from_utf8_lossy(body), BODY_EXCERPT);
    let value: serde_json::Value =
        serde_json::from_slice(body).map_err(|source| BodyError::Json {
            source,
            body: quoted(),
        })?;
    value
        .get("text")
        .and_then(serde_json::Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| BodyError::NoText { body: quoted() })
}

#[cfg(test)]
#[path = "api_tests.rs"]
mod tests;
