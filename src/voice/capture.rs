//! Microphone capture: a [`CaptureSource`] delivers 16 kHz mono chunks on a channel, and
//! [`record_take`] runs one VAD-bounded take (spec-002c §3.4–§3.5) from any source.
//!
//! [`CpalCapture`] opens the default input device on its own thread at the device's native
//! format, downmixes in the audio callback and resamples on that thread ([`StreamResampler`]);
//! the caller only ever holds a channel. [`WavCapture`] plays a WAV file (or samples) as if it
//! were a microphone — the headless stand-in for tests. [`list_devices`] is for
//! `hermes voice devices`.
//!
//! Not here: beeps, transcription, the record key, what to do with a take.
//!
//! Invariants: the device handle lives and dies on the capture thread; the audio callback
//! never blocks (a full queue drops the chunk and counts it); a chunk channel disconnects when
//! its source ends or stops; no device means [`AudioError::NoDevice`] with a fix hint.
//! The ALSA `file` plugin (headless tests, `tests/fixtures/audio/asoundrc.example`) is not
//! clocked and loses input between periods, so when the ALSA config routes through it the
//! buffer is [`FILE_PLUGIN_BUFFER`] frames (see `device`).

mod device;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub use device::{
    BufferPolicy, CpalCapture, DeviceInfo, Devices, Direction, FILE_PLUGIN_BUFFER, Session,
    device_hint, list_devices, over_ssh, uses_file_plugin,
};
pub(crate) use device::{device_name, open_error};

use super::audio::AudioError;
use super::vad::{StopReason, Vad, VadSettings, VadStatus};
use super::{SAMPLE_RATE, Samples};

/// One delivery from a source: 16 kHz mono samples, or what went wrong.
pub type Chunk = Result<Samples, AudioError>;

/// Something that records: a microphone or a stand-in.
pub trait CaptureSource: Send {
    /// Start recording. Chunks arrive on the receiver until [`stop`](Self::stop) or the end of
    /// the source, then it disconnects. Starting a running source restarts it.
    fn start(&mut self) -> Result<Receiver<Chunk>, AudioError>;
    /// Stop recording and release the device. Idempotent.
    fn stop(&mut self);
    /// The device (or file) being recorded, for messages.
    fn name(&self) -> String;
}

/// How fast a stand-in delivers audio.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pacing {
    /// As fast as the consumer takes it.
    Unpaced,
    /// One second of audio per second, like a device.
    RealTime,
}

/// How often waiting loops look at their stop flag.
const POLL: Duration = Duration::from_millis(20);
/// How long a device may go silent before it is treated as failed: once it has delivered
/// audio, gaps are callback-sized, so 3 s means it stopped; the first audio may take longer
/// (a Bluetooth headset switching profile, a busy machine opening ALSA).
#[derive(Debug, Clone, Copy)]
struct StallLimits {
    first_audio: Duration,
    between_chunks: Duration,
}

const STALL_LIMITS: StallLimits = StallLimits {
    first_audio: Duration::from_secs(10),
    between_chunks: Duration::from_secs(3),
};
/// Samples per chunk from [`WavCapture`]: 50 ms, a typical device callback.
const WAV_CHUNK: usize = 800;

/// Set from another thread to end a take early (the record key pressed again).
#[derive(Debug, Clone, Default)]
pub struct StopSignal(Arc<AtomicBool>);

impl StopSignal {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn stop(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// A running worker thread: its stop flag and a channel that disconnects when it exits.
#[derive(Debug)]
struct Worker {
    stop: Arc<AtomicBool>,
    exited: Receiver<()>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Ask the thread to end and wait for it (bounded: a wedged driver must not hang the caller;
    /// the thread is then left to finish on its own).
    fn finish(mut self, wait: Duration) {
        self.stop.store(true, Ordering::SeqCst);
        match self.exited.recv_timeout(wait) {
            Err(RecvTimeoutError::Timeout) => {
                tracing::warn!("audio thread did not stop within {wait:?}; leaving it");
            }
            _ => {
                if let Some(thread) = self.thread.take() {
                    let _ = thread.join();
                }
            }
        }
    }
}

/// A WAV file (or samples) played as a microphone.
#[derive(Debug)]
pub struct WavCapture {
    name: String,
    samples: Arc<Samples>,
    pacing: Pacing,
    chunk: usize,
    worker: Option<Worker>,
}

impl WavCapture {
    /// Read `path` (any WAV, converted to 16 kHz mono).
    pub fn open(path: &Path, pacing: Pacing) -> Result<Self, AudioError> {
        let samples = super::wav::read_16k_mono(path)?;
        Ok(Self::from_samples(
            path.display().to_string(),
            samples,
            pacing,
        ))
    }

    pub fn from_samples(name: impl Into<String>, samples: Samples, pacing: Pacing) -> Self {
        Self {
            name: name.into(),
            samples: Arc::new(samples),
            pacing,
            chunk: WAV_CHUNK,
            worker: None,
        }
    }

    /// Deliver `samples` per chunk instead of 800 (50 ms).
    pub fn with_chunk(mut self, samples: usize) -> Self {
        self.chunk = samples.max(1);
        self
    }
}

impl CaptureSource for WavCapture {
    fn start(&mut self) -> Result<Receiver<Chunk>, AudioError> {
        self.stop();
        let (tx, rx) = mpsc::channel();
        let (exit_tx, exit_rx) = mpsc::channel::<()>();
        let stop = Arc::new(AtomicBool::new(false));
        let (samples, chunk, pacing, thread_stop) = (
            Arc::clone(&self.samples),
            self.chunk,
            self.pacing,
            Arc::clone(&stop),
        );
        let thread = std::thread::Builder::new()
            .name("hermes-wav-capture".into())
            .spawn(move || {
                let _exit = exit_tx;
                let started = Instant::now();
                let mut sent = 0usize;
                for piece in samples.chunks(chunk) {
                    if thread_stop.load(Ordering::SeqCst) || tx.send(Ok(piece.to_vec())).is_err() {
                        return;
                    }
                    sent += piece.len();
                    if pacing == Pacing::RealTime {
                        // Against the start time, so sleeps do not add up to drift.
                        let due = Duration::from_secs_f64(sent as f64 / f64::from(SAMPLE_RATE));
                        while !thread_stop.load(Ordering::SeqCst) {
                            let Some(left) = due.checked_sub(started.elapsed()) else {
                                break;
                            };
                            std::thread::sleep(left.min(POLL));
                        }
                    }
                }
            })
            .map_err(|e| AudioError::Device(format!("cannot start the capture thread: {e}")))?;
        self.worker = Some(Worker {
            stop,
            exited: exit_rx,
            thread: Some(thread),
        });
        Ok(rx)
    }

    fn stop(&mut self) {
        if let Some(worker) = self.worker.take() {
            worker.finish(Duration::from_secs(1));
        }
    }

    fn name(&self) -> String {
        self.name.clone()
    }
}

impl Drop for WavCapture {
    fn drop(&mut self) {
        self.stop();
    }
}

/// How a take ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TakeEnd {
    /// The detector stopped it.
    Vad(StopReason),
    /// The [`StopSignal`] was raised.
    Stopped,
    /// The source ran out (a file) before the detector stopped.
    SourceEnded,
}

/// One recording.
#[derive(Debug, Clone, PartialEq)]
pub struct Take {
    /// 16 kHz mono, up to the frame where the detector stopped.
    pub samples: Samples,
    pub reason: TakeEnd,
    /// The detector confirmed speech (Hermes discards takes without).
    pub heard_speech: bool,
    /// The loudest 20 ms frame's RMS.
    pub peak_rms: f64,
}

/// Record from `source` until the VAD stops, `stop` is raised, or the source ends; the source
/// is stopped before returning. `on_level` gets [`Vad::level`] after every chunk (for the
/// meter). Blocks: run it on a blocking thread.
pub fn record_take(
    source: &mut dyn CaptureSource,
    settings: VadSettings,
    stop: &StopSignal,
    on_level: impl FnMut(f32),
) -> Result<Take, AudioError> {
    record_take_with_stall(source, settings, stop, on_level, STALL_LIMITS)
}

fn record_take_with_stall(
    source: &mut dyn CaptureSource,
    settings: VadSettings,
    stop: &StopSignal,
    mut on_level: impl FnMut(f32),
    limits: StallLimits,
) -> Result<Take, AudioError> {
    let chunks = source.start()?;
    let mut vad = Vad::new(settings);
    let mut samples = Samples::new();
    let mut last_audio = Instant::now();
    let mut stall = limits.first_audio;
    let ended = loop {
        if stop.is_stopped() {
            break Ok(TakeEnd::Stopped);
        }
        match chunks.recv_timeout(POLL) {
            Ok(Ok(chunk)) => {
                last_audio = Instant::now();
                stall = limits.between_chunks;
                samples.extend_from_slice(&chunk);
                let status = vad.push(&chunk);
                on_level(vad.level());
                if let VadStatus::Stopped(reason) = status {
                    samples.truncate(vad.stopped_at().unwrap_or(samples.len()));
                    break Ok(TakeEnd::Vad(reason));
                }
            }
            Ok(Err(e)) => break Err(e),
            Err(RecvTimeoutError::Timeout) if last_audio.elapsed() >= stall => {
                break Err(AudioError::Device(format!(
                    "{} delivered no audio for {} s",
                    source.name(),
                    stall.as_secs_f32()
                )));
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break Ok(TakeEnd::SourceEnded),
        }
    };
    source.stop();
    Ok(Take {
        samples,
        reason: ended?,
        heard_speech: vad.heard_speech(),
        peak_rms: vad.peak_rms(),
    })
}

#[cfg(test)]
#[path = "capture_tests.rs"]
mod tests;
