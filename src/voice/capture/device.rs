//! The real microphone: [`CpalCapture`] (cpal on its own thread), device enumeration for
//! `hermes voice devices`, and the "no device" hint shared with playback.
//!
//! The capture thread opens the default input at its native format, the audio callback
//! downmixes each buffer to mono and hands it over without blocking (a full queue drops the
//! buffer and counts it), and the thread resamples to 16 kHz and forwards chunks. Device
//! handles never leave that thread. Errors that mean "nothing to record from" become
//! [`AudioError::NoDevice`] with a fix hint (PulseAudio/PipeWire, `arecord -l`, SSH).
//!
//! The ALSA `file` plugin (headless tests) is not clocked, and with an `infile` it skips input
//! at every period boundary (measured: 81 of every 160 frames at the default period, ~1 950
//! frames at 16 kHz per 65 536-frame period). So [`BufferPolicy::Auto`] asks for
//! [`FILE_PLUGIN_BUFFER`] frames when the ALSA config routes through `type file`: a test take
//! then arrives whole in the first period.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender, TrySendError};
use std::time::Duration;

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};

use super::{CaptureSource, Chunk, POLL, Worker};
use crate::voice::audio::AudioError;
use crate::voice::resample::{StreamResampler, downmix};

/// Buffer size for the input stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BufferPolicy {
    /// The device's default, or [`FILE_PLUGIN_BUFFER`] when ALSA routes through `type file`.
    #[default]
    Auto,
    DeviceDefault,
    /// A fixed number of frames.
    Fixed(u32),
}

/// Frames per buffer for the ALSA file plugin: 10.9 s at 48 kHz (the plugin loses input between
/// periods, so a whole take must fit in one). Costs ~16 MB while capturing, in tests only.
pub const FILE_PLUGIN_BUFFER: u32 = 1 << 19;

/// Raw callback buffers queued for the capture thread before new ones are dropped (seconds of
/// audio even at small buffer sizes).
const RAW_QUEUE: usize = 512;
/// How long opening a device may take (PulseAudio can be slow to answer, a hung one never does).
const OPEN_TIMEOUT: Duration = Duration::from_secs(10);

/// Which way a missing device faces, for the hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Input,
    Output,
}

/// Where this process runs, as far as the microphone and speakers are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Session {
    Local,
    /// An SSH login: audio devices are the remote machine's.
    Ssh,
}

/// True when `env` says this is an SSH session (`SSH_CONNECTION` or `SSH_TTY` set).
pub fn over_ssh(env: impl Fn(&str) -> Option<String>) -> bool {
    ["SSH_CONNECTION", "SSH_TTY"]
        .iter()
        .any(|k| env(k).is_some_and(|v| !v.is_empty()))
}

impl Session {
    /// `Ssh` when [`over_ssh`] says so.
    pub fn detect(env: impl Fn(&str) -> Option<String>) -> Self {
        if over_ssh(env) {
            Self::Ssh
        } else {
            Self::Local
        }
    }

    /// From this process's environment.
    pub fn current() -> Self {
        Self::detect(|k| std::env::var(k).ok())
    }
}

/// The text of [`AudioError::NoDevice`]: what is missing, the cpal detail, how to fix it.
pub fn device_hint(direction: Direction, detail: Option<&str>, session: Session) -> String {
    let (what, tool) = match direction {
        Direction::Input => ("no microphone or audio input", "arecord -l"),
        Direction::Output => ("no speaker or audio output", "aplay -l"),
    };
    let mut text = what.to_string();
    if let Some(detail) = detail {
        text.push_str(&format!(" ({detail})"));
    }
    text.push_str(&format!(
        ". Install/start PulseAudio or PipeWire, and check that `{tool}` lists a device."
    ));
    if session == Session::Ssh {
        let device = match direction {
            Direction::Input => "microphone",
            Direction::Output => "speakers",
        };
        text.push_str(&format!(
            " This is an SSH session: the {device} would be the remote machine's, not yours."
        ));
    }
    text
}

fn hint_now(direction: Direction, detail: Option<&str>) -> String {
    device_hint(direction, detail, Session::current())
}

/// A cpal error while opening a device, as an [`AudioError`]: absence is `NoDevice` with a hint.
pub(crate) fn open_error(direction: Direction, e: &cpal::Error) -> AudioError {
    use cpal::ErrorKind as K;
    match e.kind() {
        K::DeviceNotAvailable | K::HostUnavailable | K::PermissionDenied | K::BackendError => {
            AudioError::NoDevice(hint_now(direction, Some(&e.to_string())))
        }
        _ => AudioError::Device(e.to_string()),
    }
}

/// Does this ALSA config text route a PCM through the `file` plugin?
pub fn uses_file_plugin(alsa_config: &str) -> bool {
    alsa_config
        .lines()
        .map(|line| line.split('#').next().unwrap_or(""))
        .any(|line| {
            let tokens: Vec<&str> = line
                .split(|c: char| c.is_whitespace() || matches!(c, '{' | '}' | ';' | ',' | '='))
                .filter(|t| !t.is_empty())
                .collect();
            tokens
                .windows(2)
                .any(|w| w[0] == "type" && w[1].trim_matches('"') == "file")
        })
}

/// The user's and system's ALSA config routes through the `file` plugin.
fn alsa_file_plugin_configured() -> bool {
    let mut files = vec![std::path::PathBuf::from("/etc/asound.conf")];
    if let Some(home) = std::env::var_os("HOME") {
        files.push(Path::new(&home).join(".asoundrc"));
        files.push(Path::new(&home).join(".config/alsa/asoundrc"));
    }
    if let Some(xdg) = std::env::var_os("XDG_CONFIG_HOME") {
        files.push(Path::new(&xdg).join("alsa/asoundrc"));
    }
    files
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .any(|text| uses_file_plugin(&text))
}

pub(super) fn buffer_size(policy: BufferPolicy) -> cpal::BufferSize {
    match policy {
        BufferPolicy::DeviceDefault => cpal::BufferSize::Default,
        BufferPolicy::Fixed(frames) => cpal::BufferSize::Fixed(frames.max(1)),
        BufferPolicy::Auto if cfg!(target_os = "linux") && alsa_file_plugin_configured() => {
            cpal::BufferSize::Fixed(FILE_PLUGIN_BUFFER)
        }
        BufferPolicy::Auto => cpal::BufferSize::Default,
    }
}

/// The description's name, or the id when the backend has none.
pub(crate) fn device_name(device: &cpal::Device) -> String {
    device
        .description()
        .map(|d| d.name().to_string())
        .or_else(|_| device.id().map(|id| id.to_string()))
        .unwrap_or_else(|_| "unnamed device".into())
}

/// A device in [`list_devices`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceInfo {
    /// The backend's id (`alsa:default`, `alsa:hw:CARD=PCH,DEV=0`).
    pub id: String,
    /// The human name.
    pub name: String,
    pub is_default: bool,
}

/// The input and output devices of the default host.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Devices {
    pub inputs: Vec<DeviceInfo>,
    pub outputs: Vec<DeviceInfo>,
}

/// Enumerate devices (slow on some backends: call it from a blocking thread).
pub fn list_devices() -> Result<Devices, AudioError> {
    let host = cpal::default_host();
    let id = |d: &cpal::Device| d.id().map(|id| id.to_string()).unwrap_or_default();
    let default_in = host.default_input_device().map(|d| id(&d));
    let default_out = host.default_output_device().map(|d| id(&d));
    let info = |d: cpal::Device, default: &Option<String>| {
        let id = id(&d);
        DeviceInfo {
            is_default: default.as_deref() == Some(id.as_str()),
            name: device_name(&d),
            id,
        }
    };
    let inputs = host
        .input_devices()
        .map_err(|e| open_error(Direction::Input, &e))?
        .map(|d| info(d, &default_in))
        .collect();
    let outputs = host
        .output_devices()
        .map_err(|e| open_error(Direction::Output, &e))?
        .map(|d| info(d, &default_out))
        .collect();
    Ok(Devices { inputs, outputs })
}

/// What the audio callback hands the capture thread.
enum Raw {
    Audio(Vec<f32>),
    Failed(cpal::Error),
}

/// The default microphone through cpal.
#[derive(Debug, Default)]
pub struct CpalCapture {
    buffer: BufferPolicy,
    name: Option<String>,
    worker: Option<Worker>,
    dropped: Arc<AtomicUsize>,
}

impl CpalCapture {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with_buffer(buffer: BufferPolicy) -> Self {
        let mut capture = Self::default();
        capture.buffer = buffer;
        capture
    }

    /// Callback buffers dropped because the capture thread fell behind (should stay 0).
    pub fn dropped_buffers(&self) -> usize {
        self.dropped.load(Ordering::Relaxed)
    }
}

impl CaptureSource for CpalCapture {
    fn start(&mut self) -> Result<Receiver<Chunk>, AudioError> {
        self.stop();
        let (out_tx, out_rx) = mpsc::channel();
        let (ready_tx, ready_rx) = mpsc::sync_channel(1);
        let (exit_tx, exit_rx) = mpsc::channel::<()>();
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = Arc::clone(&stop);
        let policy = self.buffer;
        let dropped = Arc::clone(&self.dropped);
        let thread = std::thread::Builder::new()
            .name("hermes-capture".into())
            .spawn(move || {
                let _exit = exit_tx;
                capture_thread(policy, &thread_stop, &dropped, ready_tx, out_tx);
            })
            .map_err(|e| AudioError::Device(format!("cannot start the capture thread: {e}")))?;
        let worker = Worker {
            stop,
            exited: exit_rx,
            thread: Some(thread),
        };
        match ready_rx.recv_timeout(OPEN_TIMEOUT) {
            Ok(Ok(name)) => {
                self.name = Some(name);
                self.worker = Some(worker);
                Ok(out_rx)
            }
            Ok(Err(e)) => {
                worker.finish(POLL * 10);
                Err(e)
            }
            Err(_) => {
                worker.finish(Duration::ZERO);
                Err(AudioError::Device(format!(
                    "the input device did not open within {} s",
                    OPEN_TIMEOUT.as_secs()
                )))
            }
        }
    }

    fn stop(&mut self) {
        if let Some(worker) = self.worker.take() {
            worker.finish(Duration::from_secs(2));
        }
    }

    fn name(&self) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| "the default input device".into())
    }
}

impl Drop for CpalCapture {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The capture thread: open, report, pump until stopped, release.
fn capture_thread(
    policy: BufferPolicy,
    stop: &AtomicBool,
    dropped: &Arc<AtomicUsize>,
    ready: SyncSender<Result<String, AudioError>>,
    out: Sender<Chunk>,
) {
    let (raw_tx, raw_rx) = mpsc::sync_channel(RAW_QUEUE);
    let (stream, name, rate) = match open_input(policy, raw_tx, dropped) {
        Ok(opened) => opened,
        Err(e) => {
            let _ = ready.send(Err(e));
            return;
        }
    };
    let mut resampler = match StreamResampler::new(rate, 1) {
        Ok(r) => r,
        Err(e) => {
            let _ = ready.send(Err(AudioError::Device(e.to_string())));
            return;
        }
    };
    if ready.send(Ok(name)).is_err() {
        return; // the caller gave up waiting
    }
    while !stop.load(Ordering::SeqCst) {
        let chunk = match raw_rx.recv_timeout(POLL) {
            Ok(Raw::Audio(mono)) => resampler
                .push_mono(&mono)
                .map_err(|e| AudioError::Device(e.to_string())),
            Ok(Raw::Failed(e)) if is_transient(&e) => {
                tracing::debug!("input stream: {e}");
                continue;
            }
            Ok(Raw::Failed(e)) => Err(AudioError::Device(format!("the input device failed: {e}"))),
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => break,
        };
        let failed = chunk.is_err();
        if matches!(&chunk, Ok(s) if s.is_empty()) {
            continue;
        }
        if out.send(chunk).is_err() || failed {
            break;
        }
    }
    // Release the device before anything else.
    drop(stream);
    if let Ok(tail) = resampler.finish()
        && !tail.is_empty()
    {
        let _ = out.send(Ok(tail));
    }
}

fn is_transient(e: &cpal::Error) -> bool {
    use cpal::ErrorKind as K;
    matches!(e.kind(), K::Xrun | K::RealtimeDenied | K::DeviceChanged)
}

/// Open and start the default input; the callback sends mono `f32` buffers to `raw`.
fn open_input(
    policy: BufferPolicy,
    raw: SyncSender<Raw>,
    dropped: &Arc<AtomicUsize>,
) -> Result<(cpal::Stream, String, u32), AudioError> {
    let host = cpal::default_host();
    let device = host
        .default_input_device()
        .ok_or_else(|| AudioError::NoDevice(hint_now(Direction::Input, None)))?;
    let supported = device
        .default_input_config()
        .map_err(|e| AudioError::NoDevice(hint_now(Direction::Input, Some(&e.to_string()))))?;
    let mut config = supported.config();
    config.buffer_size = buffer_size(policy);
    let channels = config.channels;
    let errors = raw.clone();
    let on_error = move |e: cpal::Error| {
        let _ = errors.try_send(Raw::Failed(e));
    };
    let dropped = Arc::clone(dropped);
    macro_rules! build {
        ($t:ty) => {
            device.build_input_stream::<$t, _, _>(
                config,
                move |data: &[$t], _: &cpal::InputCallbackInfo| {
                    let mono = downmix(data, channels);
                    if let Err(TrySendError::Full(_)) = raw.try_send(Raw::Audio(mono)) {
                        dropped.fetch_add(1, Ordering::Relaxed);
                    }
                },
                on_error,
                Some(OPEN_TIMEOUT),
            )
        };
    }
    use cpal::SampleFormat as F;
    let stream = match supported.sample_format() {
        F::F32 => build!(f32),
        F::F64 => build!(f64),
        F::I8 => build!(i8),
        F::I16 => build!(i16),
        F::I24 => build!(cpal::I24),
        F::I32 => build!(i32),
        F::I64 => build!(i64),
        F::U8 => build!(u8),
        F::U16 => build!(u16),
        F::U24 => build!(cpal::U24),
        F::U32 => build!(u32),
        F::U64 => build!(u64),
        other => {
            return Err(AudioError::Device(format!(
                "the input device uses an unsupported sample format ({other})"
            )));
        }
    }
    .map_err(|e| open_error(Direction::Input, &e))?;
    stream
        .play()
        .map_err(|e| open_error(Direction::Input, &e))?;
    Ok((stream, device_name(&device), supported.sample_rate()))
}
