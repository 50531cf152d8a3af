//! Where clips are heard: [`RodioSink`] plays them on the default output device; [`WavSink`]
//! collects them in memory (and optionally a WAV file) with the times they were queued and
//! would have started — the headless stand-in tests use for ordering and latency.
//!
//! [`RodioSink`] owns the rodio device and player on its own thread, driven by a command
//! channel (`Play` / `Stop` / `Shutdown`); `play` returns at once. That thread resamples clips
//! to the device's rate a quarter second at a time (rodio's own converter mangles the first
//! ~20 ms of a clip), taking every waiting command between pieces, so a `Stop` overtakes
//! queued clips. Whether anything is still queued is an atomic counter shared with the queued
//! sources, so [`AudioSink::is_idle`] never waits on the thread. `stop` swaps in a fresh
//! counter as it sends the command, so the sink reads idle the moment `stop` returns; the
//! thread then drops the player (rodio stops its sources within 5 ms of audio plus the device
//! buffer, ~50 ms) and connects a new one. The device is open only while there is something
//! to play (and `CLOSE_WHEN_IDLE_AFTER` beyond), and its errors are logged rate-limited.
//!
//! Not here: TTS, beeps, deciding what to play. Invariants: no device handle ever touches the
//! caller's thread; opening without a device is [`AudioError::NoDevice`] with a fix hint;
//! a dead playback thread makes `play` fail, never panic.

use std::collections::VecDeque;
use std::num::NonZero;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use rodio::Source;
use rodio::buffer::SamplesBuffer;

mod device_errors;
mod wav_sink;

pub use wav_sink::{PlayedClip, WavSink};

use super::audio::{AudioError, AudioSink, Clip};
use super::capture::{Direction, Session, device_hint, device_name, open_error};
use super::resample::{MonoResampler, i16_to_f32};

/// How long opening the output may take before we give up on it.
const OPEN_TIMEOUT: Duration = Duration::from_secs(10);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere while holding the lock leaves plain data behind; keep using it.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

enum Command {
    Play(Clip, Arc<AtomicUsize>),
    Stop,
    Shutdown,
}

/// The default output device through rodio.
#[derive(Debug)]
pub struct RodioSink {
    commands: Sender<Command>,
    /// Clips queued or playing in the current generation (replaced on `stop`).
    pending: Mutex<Arc<AtomicUsize>>,
    name: String,
    exited: Mutex<Receiver<()>>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl std::fmt::Debug for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Play(clip, _) => write!(f, "Play({} samples)", clip.samples.len()),
            Self::Stop => f.write_str("Stop"),
            Self::Shutdown => f.write_str("Shutdown"),
        }
    }
}

impl RodioSink {
    /// Open the default output device on a new thread.
    pub fn open() -> Result<Self, AudioError> {
        let (commands, command_rx) = mpsc::channel();
        let (ready_tx, ready_rx) = mpsc::sync_channel(1);
        let (exit_tx, exit_rx) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("hermes-playback".into())
            .spawn(move || {
                let _exit = exit_tx;
                playback_thread(ready_tx, command_rx);
            })
            .map_err(|e| AudioError::Device(format!("cannot start the playback thread: {e}")))?;
        let name = match ready_rx.recv_timeout(OPEN_TIMEOUT) {
            Ok(Ok(name)) => name,
            Ok(Err(e)) => {
                let _ = thread.join();
                return Err(e);
            }
            Err(_) => {
                let _ = commands.send(Command::Shutdown);
                return Err(AudioError::Device(format!(
                    "the output device did not open within {} s",
                    OPEN_TIMEOUT.as_secs()
                )));
            }
        };
        Ok(Self {
            commands,
            pending: Mutex::new(Arc::new(AtomicUsize::new(0))),
            name,
            exited: Mutex::new(exit_rx),
            thread: Mutex::new(Some(thread)),
        })
    }

    /// The output device's name.
    pub fn device_name(&self) -> &str {
        &self.name
    }
}

impl AudioSink for RodioSink {
    fn play(&self, clip: Clip) -> Result<(), AudioError> {
        if clip.samples.is_empty() {
            return Ok(());
        }
        if clip.rate == 0 {
            return Err(AudioError::Device("a clip without a sample rate".into()));
        }
        // The lock is held while sending so a concurrent `stop` cannot slip between counting
        // this clip in a generation and queueing it (it would play uncounted).
        let pending = lock(&self.pending);
        pending.fetch_add(1, Ordering::SeqCst);
        if self
            .commands
            .send(Command::Play(clip, Arc::clone(&pending)))
            .is_err()
        {
            pending.fetch_sub(1, Ordering::SeqCst);
            return Err(AudioError::Device("the audio output has closed".into()));
        }
        Ok(())
    }

    fn stop(&self) {
        let mut pending = lock(&self.pending);
        *pending = Arc::new(AtomicUsize::new(0));
        let _ = self.commands.send(Command::Stop);
    }

    fn is_idle(&self) -> bool {
        lock(&self.pending).load(Ordering::SeqCst) == 0
    }
}

impl Drop for RodioSink {
    fn drop(&mut self) {
        let _ = self.commands.send(Command::Shutdown);
        // Bounded: a wedged driver must not hang whoever drops the sink.
        let exited = lock(&self.exited).recv_timeout(Duration::from_secs(2));
        if matches!(exited, Err(RecvTimeoutError::Disconnected))
            && let Some(thread) = lock(&self.thread).take()
        {
            let _ = thread.join();
        }
    }
}

/// An output device is closed once nothing has played for this long, and opened again for the
/// next clip: an open device writes silence without end (an unclocked sink — ALSA's file
/// plugin, a network stream — grows megabytes a second), and re-opening for the next
/// sentence costs milliseconds.
const CLOSE_WHEN_IDLE_AFTER: Duration = Duration::from_millis(1_500);

fn playback_thread(ready: SyncSender<Result<String, AudioError>>, commands: Receiver<Command>) {
    let name = cpal::traits::HostTrait::default_output_device(&cpal::default_host())
        .map(|d| device_name(&d))
        .unwrap_or_else(|| "the default output device".into());
    // Opened now so a missing device is reported at once; closed again when idle.
    let mut output = match Output::open() {
        Ok(output) => Some(output),
        Err(e) => {
            let _ = ready.send(Err(e));
            return;
        }
    };
    if ready.send(Ok(name)).is_err() {
        return;
    }
    'run: loop {
        // Block only when there is nothing to convert; wake while a device is open, to close
        // it once its player has run dry.
        if output.as_ref().is_none_or(|o| o.converting.is_empty()) {
            let command = match &output {
                Some(_) => match commands.recv_timeout(CLOSE_WHEN_IDLE_AFTER) {
                    Ok(command) => command,
                    Err(RecvTimeoutError::Timeout) => {
                        if output.as_ref().is_some_and(|o| o.player.empty()) {
                            tracing::debug!("audio output closed: idle");
                            output = None;
                        }
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => break,
                },
                None => match commands.recv() {
                    Ok(command) => command,
                    Err(_) => break,
                },
            };
            if handle(&mut output, command) == Flow::Shutdown {
                break;
            }
        }
        // Then take every command already waiting, so a `Stop` overtakes queued clips.
        loop {
            match commands.try_recv() {
                Ok(command) => {
                    if handle(&mut output, command) == Flow::Shutdown {
                        break 'run;
                    }
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected)
                    if output.as_ref().is_none_or(|o| o.converting.is_empty()) =>
                {
                    break 'run;
                }
                Err(TryRecvError::Disconnected) => break,
            }
        }
        if let Some(output) = output.as_mut() {
            output.convert_a_piece();
        }
    }
    if let Some(output) = output {
        output.player.stop();
    }
}

/// One command for the playback thread; a clip opens the device if it was closed.
fn handle(output: &mut Option<Output>, command: Command) -> Flow {
    match command {
        Command::Play(clip, pending) => {
            if output.is_none() {
                match Output::open() {
                    Ok(opened) => {
                        tracing::debug!("audio output opened for a clip");
                        *output = Some(opened);
                    }
                    Err(e) => {
                        device_errors::report(&format!("cannot open the audio output: {e}"));
                        pending.fetch_sub(1, Ordering::SeqCst);
                        return Flow::Continue;
                    }
                }
            }
            if let Some(output) = output.as_mut() {
                output.queue(clip, pending);
            }
            Flow::Continue
        }
        Command::Stop => {
            if let Some(output) = output.as_mut() {
                output.stop();
            }
            Flow::Continue
        }
        Command::Shutdown => Flow::Shutdown,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    Continue,
    Shutdown,
}

/// The playback thread's state.
struct Output {
    device: rodio::MixerDeviceSink,
    device_rate: u32,
    player: rodio::Player,
    /// Clips still being converted, oldest first, a piece per loop turn so commands are
    /// looked at between pieces.
    converting: VecDeque<Conversion>,
}

impl Output {
    fn open() -> Result<Self, AudioError> {
        let mut device = rodio::DeviceSinkBuilder::from_default_device()
            .map(|b| {
                // The default callback prints to stderr, which would scribble over the TUI; a
                // failing device reports the same error thousands of times a second.
                b.with_error_callback(|e: cpal::Error| {
                    device_errors::report(&format!("audio output: {e}"));
                })
            })
            .and_then(|b| b.open_sink_or_fallback())
            .map_err(|e| sink_error(&e))?;
        device.log_on_drop(false);
        Ok(Self {
            device_rate: device.config().sample_rate().get(),
            player: rodio::Player::connect_new(device.mixer()),
            device,
            converting: VecDeque::new(),
        })
    }

    fn queue(&mut self, clip: Clip, pending: Arc<AtomicUsize>) {
        match Conversion::new(clip, self.device_rate, pending) {
            Ok(conversion) => self.converting.push_back(conversion),
            Err(e) => tracing::warn!("cannot play a clip: {e}"),
        }
    }

    fn stop(&mut self) {
        self.converting.clear();
        self.player.stop();
        // Dropping the old player stops what it had queued; a new one starts clean.
        self.player = rodio::Player::connect_new(self.device.mixer());
    }

    fn convert_a_piece(&mut self) {
        let Some(conversion) = self.converting.front_mut() else {
            return;
        };
        match conversion.next_piece() {
            Ok(Some(piece)) => self.player.append(piece),
            Ok(None) => {
                self.converting.pop_front();
            }
            Err(e) => {
                tracing::warn!("cannot play a clip: {e}");
                self.converting.pop_front();
            }
        }
    }
}

/// A clip on its way to the device's rate, a piece at a time. rodio 0.23's own converter
/// garbles the start of a clip (measured: a 120 ms 880 Hz beep at 16 kHz came out as 98 ms at
/// 1 070 Hz), so clips reach it at the device's rate.
struct Conversion {
    samples: Vec<i16>,
    next: usize,
    from: u32,
    to: u32,
    resampler: Option<MonoResampler>,
    /// Counted out by the last piece (or when the conversion is dropped).
    pending: Option<Arc<AtomicUsize>>,
}

/// Pieces per second of input: a debug build converts a quarter second 16 → 48 kHz in ~40 ms
/// (measured on a loaded 2-core machine), so the first audio comes quickly, a `Stop` is seen
/// soon, and the next piece is ready long before the one playing ends.
const PIECES_PER_SECOND: u32 = 4;

impl Conversion {
    fn new(clip: Clip, to: u32, pending: Arc<AtomicUsize>) -> Result<Self, AudioError> {
        let resampler = if clip.rate == to {
            None
        } else {
            Some(MonoResampler::new(clip.rate, to).map_err(|e| AudioError::Device(e.to_string()))?)
        };
        Ok(Self {
            samples: clip.samples,
            next: 0,
            from: clip.rate,
            to,
            resampler,
            pending: Some(pending),
        })
    }

    /// The next piece as a source, `None` when the clip is done.
    fn next_piece(&mut self) -> Result<Option<Tracked>, AudioError> {
        if self.next >= self.samples.len() && self.pending.is_none() {
            return Ok(None);
        }
        let piece_len = (self.from / PIECES_PER_SECOND).max(1) as usize;
        let end = (self.next + piece_len).min(self.samples.len());
        let input: Vec<f32> = self.samples[self.next..end]
            .iter()
            .map(|&s| i16_to_f32(s))
            .collect();
        self.next = end;
        let last = end >= self.samples.len();
        let mut out = match self.resampler.as_mut() {
            Some(r) => r
                .push(&input)
                .map_err(|e| AudioError::Device(e.to_string()))?,
            None => input,
        };
        if last && let Some(r) = self.resampler.as_mut() {
            out.extend(r.finish().map_err(|e| AudioError::Device(e.to_string()))?);
        }
        let pending = if last { self.pending.take() } else { None };
        Ok(Some(Tracked::new(out, self.to, pending)))
    }
}

impl Drop for Conversion {
    fn drop(&mut self) {
        if let Some(pending) = self.pending.take() {
            pending.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

fn sink_error(e: &rodio::DeviceSinkError) -> AudioError {
    use rodio::DeviceSinkError as E;
    let no_device = |detail: Option<String>| {
        AudioError::NoDevice(device_hint(
            Direction::Output,
            detail.as_deref(),
            Session::current(),
        ))
    };
    match e {
        E::NoDevice => no_device(None),
        // The default device cannot even say what it plays: there is nothing to play on.
        E::DefaultSinkConfigError(c) | E::SupportedConfigsError(c) => {
            no_device(Some(c.to_string()))
        }
        E::PlayError(c) | E::BuildError(c) => open_error(Direction::Output, c),
        other => AudioError::Device(other.to_string()),
    }
}

/// Samples as a rodio source that counts itself out of `pending` (if it carries the count) when
/// it ends or is dropped.
struct Tracked {
    inner: SamplesBuffer,
    pending: Option<Arc<AtomicUsize>>,
}

impl Tracked {
    fn new(samples: Vec<f32>, rate: u32, pending: Option<Arc<AtomicUsize>>) -> Self {
        let rate = NonZero::new(rate).unwrap_or(NonZero::<u32>::MIN);
        Self {
            inner: SamplesBuffer::new(NonZero::<u16>::MIN, rate, samples),
            pending,
        }
    }

    fn done(&mut self) {
        if let Some(pending) = self.pending.take() {
            pending.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

impl Iterator for Tracked {
    type Item = rodio::Sample;
    fn next(&mut self) -> Option<Self::Item> {
        let next = self.inner.next();
        if next.is_none() {
            self.done();
        }
        next
    }
}

impl Source for Tracked {
    fn current_span_len(&self) -> Option<usize> {
        self.inner.current_span_len()
    }
    fn channels(&self) -> rodio::ChannelCount {
        self.inner.channels()
    }
    fn sample_rate(&self) -> rodio::SampleRate {
        self.inner.sample_rate()
    }
    fn total_duration(&self) -> Option<Duration> {
        self.inner.total_duration()
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.done();
    }
}

#[cfg(test)]
#[path = "playback_tests.rs"]
mod tests;
