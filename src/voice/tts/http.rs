//! HTTP speech endpoints that answer with raw 16-bit little-endian PCM (OpenAI-compatible
//! `/audio/speech` with `response_format: pcm`, ElevenLabs `…/stream?output_format=pcm_24000`):
//! POST JSON, then hand the body on as sample chunks while it downloads.
//!
//! An idle watchdog (no bytes for [`IDLE`]) fails the stream instead of hanging. Request
//! headers are never formatted into errors or logs (they hold API keys).

use std::time::Duration;

use futures::StreamExt;
use tokio_util::sync::CancellationToken;

use super::SynthError;
use super::provider::AudioStream;

/// A speech endpoint that sends nothing for this long has failed.
const IDLE: Duration = Duration::from_secs(60);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);
/// Error bodies are shown up to this many characters.
const ERROR_BODY_CHARS: usize = 500;

/// The client the HTTP providers share.
pub(super) fn client() -> Result<reqwest::Client, SynthError> {
    crate::util::http::install_crypto_provider();
    reqwest::Client::builder()
        .connect_timeout(CONNECT_TIMEOUT)
        .user_agent(concat!("hermes/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| SynthError::Config {
            provider: "tts".into(),
            detail: format!("cannot set up HTTP: {}", root_cause(&e)),
        })
}

/// POST `request` (already carrying its URL, headers and body) and stream the PCM answer at
/// `rate` Hz.
pub(super) async fn post_pcm(
    request: reqwest::RequestBuilder,
    provider: &str,
    url: &str,
    rate: u32,
    cancel: &CancellationToken,
) -> Result<AudioStream, SynthError> {
    let connect = |detail: String| SynthError::Connect {
        provider: provider.to_string(),
        url: url.to_string(),
        detail,
    };
    let sent = tokio::select! {
        r = tokio::time::timeout(IDLE, request.send()) => r,
        () = cancel.cancelled() => return Err(SynthError::Cancelled),
    };
    let response = match sent {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => return Err(connect(root_cause(&e))),
        Err(_) => return Err(connect(format!("no answer within {} s", IDLE.as_secs()))),
    };
    let status = response.status();
    if !status.is_success() {
        let body = tokio::time::timeout(IDLE, response.text())
            .await
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default();
        return Err(SynthError::Status {
            provider: provider.to_string(),
            url: url.to_string(),
            status: status.as_u16(),
            body: short(&body),
        });
    }
    let provider = provider.to_string();
    let url = url.to_string();
    let bytes = response.bytes_stream();
    let chunks = futures::stream::unfold(
        (bytes, None::<u8>, false),
        move |(mut bytes, mut odd, done)| {
            let provider = provider.clone();
            let url = url.clone();
            async move {
                if done {
                    return None;
                }
                loop {
                    let Ok(item) = tokio::time::timeout(IDLE, bytes.next()).await else {
                        let detail = format!("nothing received for {} s", IDLE.as_secs());
                        let err = SynthError::Stream {
                            provider,
                            url,
                            detail,
                        };
                        return Some((Err(err), (bytes, odd, true)));
                    };
                    match item {
                        None => return None,
                        Some(Err(e)) => {
                            let detail = root_cause(&e);
                            let err = SynthError::Stream {
                                provider,
                                url,
                                detail,
                            };
                            return Some((Err(err), (bytes, odd, true)));
                        }
                        Some(Ok(chunk)) => {
                            let mut data = Vec::with_capacity(chunk.len() + 1);
                            data.extend(odd.take());
                            data.extend_from_slice(&chunk);
                            if data.len() % 2 == 1 {
                                odd = data.pop();
                            }
                            if !data.is_empty() {
                                let samples = super::decode::pcm_s16le(&data);
                                return Some((Ok(samples), (bytes, odd, false)));
                            }
                        }
                    }
                }
            }
        },
    );
    Ok(AudioStream::new(rate, chunks.boxed()))
}

fn short(body: &str) -> String {
    let body = body.trim();
    let cut = super::limits::truncate(body, ERROR_BODY_CHARS);
    if cut.len() < body.len() {
        format!("{cut}…")
    } else if cut.is_empty() {
        "(empty body)".to_string()
    } else {
        cut.to_string()
    }
}

/// The innermost error message ("connection refused"), not reqwest's wrapper text.
fn root_cause(err: &(dyn std::error::Error + 'static)) -> String {
    let mut current = err;
    while let Some(source) = current.source() {
        current = source;
    }
    current.to_string()
}
