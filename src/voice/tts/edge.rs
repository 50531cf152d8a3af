//! `tts.provider: edge` — Microsoft Edge's free read-aloud voices, Hermes's default provider.
//!
//! Speaks the websocket protocol the open-source `edge-tts` Python package implements: connect
//! to [`DEFAULT_URL`] with the trusted client token, a `Sec-MS-GEC` token (SHA-256 of the
//! Windows-epoch time rounded down to 5 minutes plus the client token) and the Edge version it
//! claims to be; send a `speech.config` message and an SSML message; collect the binary
//! `Path:audio` frames until `Path:turn.end`; decode the MP3 to a [`Clip`].
//!
//! Microsoft changes the accepted token and browser version without notice: an HTTP 403 on
//! the upgrade means [`CHROMIUM_FULL_VERSION`] (and perhaps [`TRUSTED_CLIENT_TOKEN`]) need
//! updating from the current edge-tts release. `HERMES_EDGE_TTS_URL` overrides the endpoint
//! (tests use a local fake). Query parameters and headers are never logged or put in errors.

use std::sync::Arc;
use std::time::Duration;

use futures::SinkExt;
use futures::StreamExt;
use sha2::Digest;
use tokio::io::AsyncRead;
use tokio::io::AsyncWrite;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_util::sync::CancellationToken;

use super::SynthError;
use crate::voice::audio::Clip;

// Protocol constants as used by edge-tts 7.2.7/7.2.8 (src/edge_tts/constants.py, drm.py;
// rany2/edge-tts). Microsoft rejects stale versions with HTTP 403: copy new values from the
// current edge-tts release when that happens.
/// The read-aloud websocket endpoint.
pub const DEFAULT_URL: &str =
    "wss://speech.platform.bing.com/consumer/speech/synthesize/readaloud/edge/v1";
/// Environment variable that replaces [`DEFAULT_URL`] (a `ws://` or `wss://` URL).
pub const URL_ENV: &str = "HERMES_EDGE_TTS_URL";
/// The Edge browser's public read-aloud client token.
pub const TRUSTED_CLIENT_TOKEN: &str = "6A5AA1D4EAFF4E9FB37E23D68491D6F4";
/// The Edge (Chromium) version hermes claims to be; sent as `Sec-MS-GEC-Version: 1-<this>`.
pub const CHROMIUM_FULL_VERSION: &str = "143.0.3650.75";
const CHROMIUM_MAJOR_VERSION: &str = "143";
const ORIGIN: &str = "chrome-extension://jdiccldimpdaibmpdkjnbmckianbfold";
/// The audio format requested: 24 kHz mono MP3.
pub const OUTPUT_FORMAT: &str = "audio-24khz-48kbitrate-mono-mp3";
/// Seconds from 1601-01-01 (the Windows epoch) to 1970-01-01.
const WIN_EPOCH_SECS: u64 = 11_644_473_600;
const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);
/// The service sending nothing for this long has failed.
const IDLE: Duration = Duration::from_secs(60);
/// Characters per SSML request: escaped, this stays well under the service's 64 KiB messages.
const CHUNK_CHARS: usize = 8_000;
const PROVIDER: &str = "edge";

/// One configured Edge voice.
#[derive(Clone)]
pub struct EdgeTts {
    url: String,
    voice: String,
    rate: String,
}

impl std::fmt::Debug for EdgeTts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EdgeTts")
            .field("url", &self.url)
            .field("voice", &self.voice)
            .field("rate", &self.rate)
            .finish()
    }
}

impl EdgeTts {
    /// `url` is the endpoint without query ([`DEFAULT_URL`] normally); `speed` 1.0 is normal.
    pub fn new(url: &str, voice: &str, speed: f64) -> Self {
        Self {
            url: url.trim().trim_end_matches('?').to_string(),
            voice: voice.trim().to_string(),
            rate: rate_of(speed),
        }
    }

    /// The endpoint (no query string).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The voice name, e.g. `en-US-AriaNeural`.
    pub fn voice(&self) -> &str {
        &self.voice
    }

    /// All of `text`'s audio. Long text is sent as several requests, one connection each.
    pub async fn synthesize(
        &self,
        text: &str,
        cancel: &CancellationToken,
    ) -> Result<Clip, SynthError> {
        let mut mp3 = Vec::new();
        for chunk in split_text(text, CHUNK_CHARS) {
            let audio = tokio::select! {
                audio = self.one_request(chunk) => audio?,
                () = cancel.cancelled() => return Err(SynthError::Cancelled),
            };
            mp3.extend(audio);
        }
        if mp3.is_empty() {
            return Ok(Clip::new(Vec::new(), 24_000));
        }
        let url = self.url.clone();
        tokio::task::spawn_blocking(move || super::decode::decode_bytes(mp3))
            .await
            .map_err(|e| e.to_string())
            .and_then(|r| r.map_err(|e| e.to_string()))
            .map_err(|detail| SynthError::Decode {
                provider: PROVIDER.into(),
                path: format!("the audio from {url}"),
                detail,
            })
    }

    /// One websocket session: config, SSML, then audio until `turn.end`.
    async fn one_request(&self, text: &str) -> Result<Vec<u8>, SynthError> {
        let mut ws = connect(&self.url).await?;
        let now = now_unix_secs();
        let stream_err = |detail: String| SynthError::Stream {
            provider: PROVIDER.into(),
            url: self.url.clone(),
            detail,
        };
        let date = js_date(now);
        let ssml = ssml(&self.voice, &self.rate, &escape_xml(text));
        for message in [speech_config(&date), ssml_message(&new_id(), &date, &ssml)] {
            ws.send(Message::text(message))
                .await
                .map_err(|e| stream_err(format!("cannot send the request: {e}")))?;
        }
        let mut audio = Vec::new();
        loop {
            let message = match tokio::time::timeout(IDLE, ws.next()).await {
                Err(_) => {
                    return Err(stream_err(format!(
                        "nothing received for {} s",
                        IDLE.as_secs()
                    )));
                }
                Ok(None) => return Err(stream_err("the connection closed before turn.end".into())),
                Ok(Some(Err(e))) => return Err(stream_err(e.to_string())),
                Ok(Some(Ok(message))) => message,
            };
            match message {
                Message::Text(text) if text_path(text.as_str()) == Some("turn.end") => break,
                Message::Binary(data) => match audio_frame(&data) {
                    Ok(Some(body)) => audio.extend_from_slice(body),
                    Ok(None) => {}
                    Err(err) => return Err(stream_err(err.to_string())),
                },
                Message::Close(frame) => {
                    let why = frame
                        .map(|f| format!("{} {}", u16::from(f.code), f.reason))
                        .unwrap_or_default();
                    return Err(stream_err(format!(
                        "the service closed the connection before turn.end {why}"
                    )));
                }
                _ => {}
            }
        }
        let _ = ws.close(None).await;
        if audio.is_empty() {
            return Err(stream_err(format!(
                "no audio received (is the voice `{}` right?)",
                self.voice
            )));
        }
        Ok(audio)
    }
}

/// Anything a websocket can run over (plain TCP or TLS).
trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

/// Open the websocket to `base` with the token query and Edge's headers.
async fn connect(base: &str) -> Result<WebSocketStream<Box<dyn Io>>, SynthError> {
    let connect_err = |detail: String| SynthError::Connect {
        provider: PROVIDER.into(),
        url: base.to_string(),
        detail,
    };
    let full = format!(
        "{base}?TrustedClientToken={TRUSTED_CLIENT_TOKEN}&Sec-MS-GEC={}&Sec-MS-GEC-Version=1-{CHROMIUM_FULL_VERSION}&ConnectionId={}",
        sec_ms_gec(now_unix_secs()),
        new_id()
    );
    let mut request = full
        .into_client_request()
        .map_err(|_| connect_err("not a valid ws:// or wss:// URL".into()))?;
    let user_agent = format!(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{CHROMIUM_MAJOR_VERSION}.0.0.0 Safari/537.36 Edg/{CHROMIUM_MAJOR_VERSION}.0.0.0"
    );
    let cookie = format!("muid={};", new_id().to_ascii_uppercase());
    let headers = [
        ("Pragma", "no-cache".to_string()),
        ("Cache-Control", "no-cache".to_string()),
        ("Origin", ORIGIN.to_string()),
        ("User-Agent", user_agent),
        ("Accept-Encoding", "gzip, deflate, br".to_string()),
        ("Accept-Language", "en-US,en;q=0.9".to_string()),
        ("Cookie", cookie),
    ];
    for (name, value) in headers {
        let value = tungstenite::http::HeaderValue::from_str(&value)
            .map_err(|e| connect_err(format!("bad {name} header: {e}")))?;
        request.headers_mut().insert(name, value);
    }
    let uri = request.uri().clone();
    let host = uri
        .host()
        .ok_or_else(|| connect_err("the URL has no host".into()))?
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_string();
    let tls = match uri.scheme_str() {
        Some("wss") => true,
        Some("ws") => false,
        _ => {
            return Err(connect_err(
                "the URL must start with ws:// or wss://".into(),
            ));
        }
    };
    let port = uri.port_u16().unwrap_or(if tls { 443 } else { 80 });
    let opened = tokio::time::timeout(CONNECT_TIMEOUT, async {
        let tcp = tokio::net::TcpStream::connect((host.as_str(), port))
            .await
            .map_err(|e| connect_err(e.to_string()))?;
        let stream: Box<dyn Io> = if tls {
            let name = rustls::pki_types::ServerName::try_from(host.clone())
                .map_err(|e| connect_err(e.to_string()))?;
            let tls = tokio_rustls::TlsConnector::from(tls_config().map_err(&connect_err)?)
                .connect(name, tcp)
                .await
                .map_err(|e| connect_err(format!("TLS: {e}")))?;
            Box::new(tls)
        } else {
            Box::new(tcp)
        };
        tokio_tungstenite::client_async(request, stream)
            .await
            .map_err(|e| handshake_error(base, e))
    })
    .await;
    match opened {
        Ok(Ok((ws, _response))) => Ok(ws),
        Ok(Err(err)) => Err(err),
        Err(_) => Err(connect_err(format!(
            "no answer within {} s",
            CONNECT_TIMEOUT.as_secs()
        ))),
    }
}

fn tls_config() -> Result<Arc<rustls::ClientConfig>, String> {
    crate::util::http::install_crypto_provider();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .and_then(rustls_platform_verifier::BuilderVerifierExt::with_platform_verifier)
        .map_err(|e| format!("cannot set up TLS: {e}"))?
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// A failed upgrade. HTTP 403 is what Microsoft answers a stale token or version with.
fn handshake_error(base: &str, err: tungstenite::Error) -> SynthError {
    match err {
        tungstenite::Error::Http(response) => {
            let status = response.status().as_u16();
            let body = if status == 403 {
                format!(
                    "Microsoft Edge read-aloud refused the connection; the Edge client token or \
                     Sec-MS-GEC-Version (1-{CHROMIUM_FULL_VERSION}) probably needs updating from \
                     the current edge-tts release (a wrong system clock also causes this)"
                )
            } else {
                let text = response
                    .body()
                    .as_deref()
                    .map(String::from_utf8_lossy)
                    .unwrap_or_default();
                let text = super::limits::truncate(text.trim(), 300).to_string();
                if text.is_empty() {
                    "(empty body)".to_string()
                } else {
                    text
                }
            };
            SynthError::Status {
                provider: PROVIDER.into(),
                url: base.to_string(),
                status,
                body,
            }
        }
        other => SynthError::Connect {
            provider: PROVIDER.into(),
            url: base.to_string(),
            detail: other.to_string(),
        },
    }
}

/// The `Sec-MS-GEC` token for a moment given as Unix seconds: the upper-case hex SHA-256 of
/// the Windows file time (100 ns ticks since 1601) rounded down to 5 minutes, followed by
/// [`TRUSTED_CLIENT_TOKEN`].
pub fn sec_ms_gec(unix_secs: u64) -> String {
    let secs = unix_secs + WIN_EPOCH_SECS;
    let ticks = u128::from(secs - secs % 300) * 10_000_000;
    let digest = sha2::Sha256::digest(format!("{ticks}{TRUSTED_CLIENT_TOKEN}").as_bytes());
    digest.iter().map(|b| format!("{b:02X}")).collect()
}

/// The SSML prosody rate for a speed factor: 1.0 → `+0%`, 1.5 → `+50%`, 0.8 → `-20%`.
/// Clamped to 0.5–2.0, the range the service accepts.
pub fn rate_of(speed: f64) -> String {
    let speed = if speed.is_finite() && speed > 0.0 {
        speed.clamp(0.5, 2.0)
    } else {
        1.0
    };
    let percent = ((speed - 1.0) * 100.0).round() as i64;
    format!("{percent:+}%")
}

/// Text made safe inside SSML: `& < > " '` escaped, and the control characters the service
/// rejects (everything below U+0020 except tab, newline and carriage return) made spaces.
pub fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if u32::from(c) < 0x20 => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The SSML document for already escaped text. Voice names are escaped too.
pub fn ssml(voice: &str, rate: &str, escaped_text: &str) -> String {
    format!(
        "<speak version='1.0' xmlns='http://www.w3.org/2001/10/synthesis' xml:lang='en-US'>\
         <voice name='{}'><prosody pitch='+0Hz' rate='{rate}' volume='+0%'>{escaped_text}\
         </prosody></voice></speak>",
        escape_xml(voice)
    )
}

fn speech_config(date: &str) -> String {
    format!(
        "X-Timestamp:{date}\r\nContent-Type:application/json; charset=utf-8\r\n\
         Path:speech.config\r\n\r\n\
         {{\"context\":{{\"synthesis\":{{\"audio\":{{\"metadataoptions\":{{\
         \"sentenceBoundaryEnabled\":\"false\",\"wordBoundaryEnabled\":\"false\"}},\
         \"outputFormat\":\"{OUTPUT_FORMAT}\"}}}}}}}}\r\n"
    )
}

fn ssml_message(request_id: &str, date: &str, ssml: &str) -> String {
    // The `Z` after the JavaScript date string is what Edge sends.
    format!(
        "X-RequestId:{request_id}\r\nContent-Type:application/ssml+xml\r\n\
         X-Timestamp:{date}Z\r\nPath:ssml\r\n\r\n{ssml}"
    )
}

/// The `Path` header of a text frame (headers end at the first blank line).
fn text_path(message: &str) -> Option<&str> {
    let head = message.split("\r\n\r\n").next().unwrap_or(message);
    head.split("\r\n")
        .find_map(|line| line.strip_prefix("Path:"))
        .map(str::trim)
}

/// A binary frame that does not have the read-aloud service's layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    #[error("a binary frame shorter than its header length")]
    NoHeaderLength,
    #[error("a binary frame whose header is longer than the frame")]
    HeaderTooLong,
}

/// The audio bytes of a binary frame: a 2-byte big-endian header length, the header
/// (`Path:audio` for audio), then the data. `None` for frames that are not audio.
pub fn audio_frame(data: &[u8]) -> Result<Option<&[u8]>, FrameError> {
    let [hi, lo, rest @ ..] = data else {
        return Err(FrameError::NoHeaderLength);
    };
    let len = usize::from(u16::from_be_bytes([*hi, *lo]));
    if rest.len() < len {
        return Err(FrameError::HeaderTooLong);
    }
    let (head, body) = rest.split_at(len);
    let is_audio = String::from_utf8_lossy(head)
        .split("\r\n")
        .any(|line| line.trim() == "Path:audio");
    Ok(is_audio.then_some(body))
}

/// Text cut into pieces of at most `max` characters, at whitespace where possible.
fn split_text(text: &str, max: usize) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let cut = match rest.char_indices().nth(max) {
            None => rest.len(),
            Some((limit, _)) => rest[..limit]
                .rfind(char::is_whitespace)
                .filter(|&at| at > 0)
                .unwrap_or(limit),
        };
        let (piece, tail) = rest.split_at(cut);
        if !piece.trim().is_empty() {
            pieces.push(piece.trim());
        }
        rest = tail.trim_start();
    }
    pieces
}

fn new_id() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

fn now_unix_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

/// A JavaScript-style UTC date, as Edge sends it: `Mon Nov 30 2026 02:24:29 GMT+0000
/// (Coordinated Universal Time)`.
pub fn js_date(unix_secs: u64) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let days = unix_secs / 86_400;
    let secs = unix_secs % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    format!(
        "{} {} {day:02} {year} {:02}:{:02}:{:02} GMT+0000 (Coordinated Universal Time)",
        DAYS[(days % 7) as usize],
        MONTHS[(month - 1) as usize],
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}

#[cfg(test)]
#[path = "edge_tests.rs"]
mod tests;
