//! The work behind `hermes voice …`: transcribe a WAV file, speak or write text, list the audio
//! devices, record-and-play-back test, and the whisper models. The binary parses flags and
//! prints; everything here returns data or a typed error, so it is testable without a
//! terminal. Device work runs on blocking threads.

use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use std::time::Instant;

use tokio_util::sync::CancellationToken;

use super::SAMPLE_RATE;
use super::audio::AudioError;
use super::audio::AudioSink;
use super::audio::Clip;
use super::capture::CaptureSource;
use super::stt::filter::Filtered;
use crate::config::Config;
use crate::config::EnvLookup;
use crate::config::HermesHome;

/// Why a voice command failed; each message says what to fix.
#[derive(Debug, thiserror::Error)]
pub enum VoiceCliError {
    #[error(transparent)]
    Audio(#[from] AudioError),
    #[error(transparent)]
    Stt(#[from] super::stt::SttError),
    #[error(transparent)]
    Tts(#[from] super::tts::SynthError),
    #[error(transparent)]
    Model(#[from] super::stt::models::DownloadError),
    #[error("{0}")]
    Other(String),
}

/// What `hermes voice transcribe` found.
#[derive(Debug, Clone, PartialEq)]
pub struct TranscribeReport {
    /// What the agent would receive; `None` when it was only noise or a known hallucination.
    pub text: Option<String>,
    /// Whisper's raw output, before the hallucination filter.
    pub raw: String,
    /// The engine used, e.g. "local whisper (…/ggml-tiny.en.bin)".
    pub engine: String,
    /// Why the configured engine was not used, when it was not.
    pub fallback_note: Option<String>,
    pub audio: Duration,
    pub elapsed: Duration,
}

/// Transcribe a WAV file (any rate or channel count) with the configured engine.
pub async fn transcribe_file(
    path: &Path,
    config: &Config,
    home: &HermesHome,
    env: &EnvLookup,
) -> Result<TranscribeReport, VoiceCliError> {
    let owned = path.to_path_buf();
    let samples = tokio::task::spawn_blocking(move || super::wav::read_16k_mono(&owned))
        .await
        .map_err(|e| VoiceCliError::Other(format!("reading the file stopped: {e}")))??;
    let lookup = |k: &str| env.get(k);
    let selected = super::stt::select::select(&config.stt, home, &lookup)?;
    let transcript = selected.transcriber.transcribe(&samples).await?;
    let text = match transcript.filtered() {
        Filtered::Speech(text) => Some(text),
        Filtered::Hallucination => None,
    };
    Ok(TranscribeReport {
        text,
        raw: transcript.text.clone(),
        engine: selected.transcriber.describe(),
        fallback_note: selected.fallback_note,
        audio: Clip::new(samples, SAMPLE_RATE).duration(),
        elapsed: transcript.elapsed,
    })
}

/// What `hermes voice say` did.
#[derive(Debug, Clone, PartialEq)]
pub struct SayReport {
    pub provider: String,
    pub audio: Duration,
    /// Where the WAV went, with `--out`.
    pub written: Option<PathBuf>,
    pub note: Option<String>,
}

/// Speak `text` with the configured provider (or write it to `out` as WAV).
pub async fn say(
    text: &str,
    out: Option<&Path>,
    config: &Config,
    env: &EnvLookup,
    speaker: &dyn Fn() -> Result<Arc<dyn AudioSink>, AudioError>,
) -> Result<SayReport, VoiceCliError> {
    let (synth, note) = super::tts::fallback::configured_or_offline(&config.tts, env)?;
    let clip = synth.synthesize(text, &CancellationToken::new()).await?;
    let audio = clip.duration();
    let provider = synth.provider().to_string();
    if let Some(out) = out {
        super::wav::write(out, &clip)?;
        return Ok(SayReport {
            provider,
            audio,
            written: Some(out.to_path_buf()),
            note,
        });
    }
    let sink = speaker()?;
    play_to_end(sink, clip).await?;
    Ok(SayReport {
        provider,
        audio,
        written: None,
        note,
    })
}

/// Play `clip` and wait until the sink has finished (at most its length plus 5 s).
async fn play_to_end(sink: Arc<dyn AudioSink>, clip: Clip) -> Result<(), AudioError> {
    let limit = Instant::now() + clip.duration() + Duration::from_secs(5);
    sink.play(clip)?;
    tokio::time::sleep(Duration::from_millis(50)).await;
    while !sink.is_idle() && Instant::now() < limit {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(())
}

/// `hermes voice devices`: one line per device, the defaults marked.
pub fn devices_text() -> Result<String, AudioError> {
    let devices = super::capture::list_devices()?;
    let mut text = String::from("Input devices (microphones):\n");
    let line = |d: &super::capture::DeviceInfo| {
        let mark = if d.is_default { "*" } else { " " };
        format!("  {mark} {}  ({})\n", d.name, d.id)
    };
    if devices.inputs.is_empty() {
        text.push_str("  none — no microphone was found\n");
    }
    devices.inputs.iter().for_each(|d| text.push_str(&line(d)));
    text.push_str("Output devices (speakers):\n");
    if devices.outputs.is_empty() {
        text.push_str("  none — no speaker was found\n");
    }
    devices.outputs.iter().for_each(|d| text.push_str(&line(d)));
    text.push_str("(* the default device, which hermes uses)\n");
    Ok(text)
}

/// What `hermes voice test` heard.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordTest {
    pub device: String,
    pub recorded: Duration,
    /// The loudest 20 ms frame's RMS (0–32767); under `voice.silence_threshold` means the
    /// detector would not hear you.
    pub peak_rms: f64,
}

/// Record `seconds` from `microphone`, then play it back on `sink` (blocking: run it on a
/// blocking thread).
pub fn record_and_play(
    microphone: &mut dyn CaptureSource,
    sink: Option<Arc<dyn AudioSink>>,
    seconds: Duration,
) -> Result<RecordTest, AudioError> {
    let chunks = microphone.start()?;
    let mut samples = Vec::new();
    let until = Instant::now() + seconds;
    let wanted = (seconds.as_secs_f64() * f64::from(SAMPLE_RATE)) as usize;
    while Instant::now() < until && samples.len() < wanted {
        match chunks.recv_timeout(Duration::from_millis(100)) {
            Ok(Ok(chunk)) => samples.extend_from_slice(&chunk),
            Ok(Err(err)) => {
                microphone.stop();
                return Err(err);
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    microphone.stop();
    let peak_rms = samples
        .chunks(320)
        .map(super::vad::rms)
        .fold(0.0_f64, f64::max);
    let clip = Clip::new(samples, SAMPLE_RATE);
    let recorded = clip.duration();
    if let Some(sink) = sink {
        let limit = Instant::now() + recorded + Duration::from_secs(5);
        sink.play(clip)?;
        std::thread::sleep(Duration::from_millis(50));
        while !sink.is_idle() && Instant::now() < limit {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    Ok(RecordTest {
        device: microphone.name(),
        recorded,
        peak_rms,
    })
}

/// `hermes voice models`: the standard ggml models, which are installed, and which one the
/// configuration uses.
pub fn models_text(home: &HermesHome, config: &Config) -> String {
    let configured = config.stt.local.model.trim();
    let mut text = String::from("Whisper models (stt.local.model):\n");
    for model in super::stt::models::list(home) {
        let state = match model.installed_bytes {
            Some(bytes) => format!("installed, {} MiB", bytes / (1024 * 1024)),
            None => format!("not installed ({})", model.spec.size_label()),
        };
        let mark = if model.spec.name == configured {
            "*"
        } else {
            " "
        };
        text.push_str(&format!("  {mark} {:<16} {state}\n", model.spec.name));
    }
    text.push_str(&format!(
        "(* configured) Files live in {}; `hermes voice models download NAME` fetches one.\n",
        super::stt::models::models_dir(home).display()
    ));
    text
}

/// Download model `name` from `base_url`, reporting (bytes, total) as it goes.
pub async fn download_model(
    home: &HermesHome,
    name: &str,
    base_url: &str,
    progress: &mut (dyn FnMut(u64, Option<u64>) + Send),
) -> Result<PathBuf, VoiceCliError> {
    use super::stt::models;
    let spec = models::lookup(name)?;
    let dir = models::models_dir(home);
    let job = models::Download {
        spec,
        base_url,
        dir: &dir,
        checksum: Some(models::ChecksumCheck::published_sha1(spec)),
    };
    Ok(models::download(&models::http_client()?, job, progress).await?)
}

#[cfg(test)]
#[path = "cli_tests.rs"]
mod tests;
