//! The voice service: one task that owns voice mode for a frontend — push-to-talk takes,
//! transcription, continuous mode, beeps and speaking replies — and speaks `protocol`
//! (`VoiceOp` in, `VoiceEvent` out), so the TUI never touches a device or waits on audio.
//!
//! Devices are opened lazily and only on blocking threads: the microphone when a take starts,
//! the speaker on the first beep or sentence. Invariants: at most one take runs; a take that
//! heard speech is transcribed exactly once; `StopSpeaking`, a new take and `/voice off`
//! silence speech at once; three takes in a row without speech end continuous mode. Every
//! failure (no device, no model, a provider error) becomes a notice that says what to do.

use std::sync::Arc;
use std::time::Duration;
use std::time::Instant;

use tokio::sync::mpsc;

use super::audio::AudioError;
use super::audio::AudioSink;
use super::capture::CaptureSource;
use super::capture::StopSignal;
use super::capture::Take;
use super::stt::Transcriber;
use super::stt::Transcript;
use super::tts::provider::Synthesizer;
use super::tts::speaker::Speaker;
use super::tts::speaker::SpeechEvent;
use crate::config::Config;
use crate::config::EnvLookup;
use crate::config::HermesHome;
use crate::protocol::NoticeLevel;
use crate::protocol::VoiceCommand;
use crate::protocol::VoiceEvent;
use crate::protocol::VoiceHandle;
use crate::protocol::VoiceOp;
use crate::protocol::VoiceState;

/// A release this long after the press ends the take (holding the key); a quicker one is a
/// tap, and the take runs until the next press or the silence detector.
const HOLD: Duration = Duration::from_millis(400);
/// Takes in a row without speech that end continuous mode.
const NO_SPEECH_LIMIT: u32 = 3;
/// Level events at most this often (the meter needs no more).
const LEVEL_EVERY: Duration = Duration::from_millis(50);
/// Bars the meter keeps.
const LEVEL_BARS: usize = 8;

/// Opens the devices; tests give WAV-backed stand-ins.
pub trait VoiceDevices: Send + Sync {
    fn microphone(&self) -> Result<Box<dyn CaptureSource>, AudioError>;
    fn speaker(&self) -> Result<Arc<dyn AudioSink>, AudioError>;
}

/// The real microphone (cpal) and speaker (rodio), each on its own thread.
pub struct SystemDevices;

impl VoiceDevices for SystemDevices {
    fn microphone(&self) -> Result<Box<dyn CaptureSource>, AudioError> {
        Ok(Box::new(super::capture::CpalCapture::new()))
    }

    fn speaker(&self) -> Result<Arc<dyn AudioSink>, AudioError> {
        Ok(Arc::new(super::playback::RodioSink::open()?))
    }
}

/// What the service is started with.
pub struct VoiceSettings {
    pub config: Config,
    pub home: HermesHome,
    pub env: EnvLookup,
    pub devices: Arc<dyn VoiceDevices>,
}

/// Work finished on another task, reported back to the actor.
enum Internal {
    Level(Vec<u8>),
    TakeDone(Result<Take, AudioError>),
    Transcribed(Result<Transcript, super::stt::SttError>),
    Speech(SpeechEvent),
    /// Everything spoken has finished playing.
    SinkIdle,
    SpeakerOpened(Result<Arc<dyn AudioSink>, AudioError>),
}

struct RunningTake {
    stop: StopSignal,
    pressed_at: Instant,
}

struct Service {
    settings: VoiceSettings,
    state: VoiceState,
    events: mpsc::UnboundedSender<VoiceEvent>,
    internal: mpsc::UnboundedSender<Internal>,
    take: Option<RunningTake>,
    transcriber: Option<Arc<Transcriber>>,
    synth: Option<Arc<Synthesizer>>,
    sink: Option<Arc<dyn AudioSink>>,
    /// The reply being spoken: its turn and pipeline.
    speaker: Option<(u64, Speaker)>,
    /// Continuous mode wants a new take once speech has finished.
    record_after_speech: bool,
    no_speech_streak: u32,
    /// The speaker is being opened; beeps and sentences wait for it.
    opening_speaker: bool,
    speaker_failed: Option<String>,
    /// Beeps asked for while the speaker was still opening, played once it is.
    pending_beeps: Vec<super::audio::Clip>,
}

mod speech;
mod takes;

/// Start the voice service on the current tokio runtime.
pub fn spawn(settings: VoiceSettings) -> VoiceHandle {
    let (ops_tx, ops_rx) = mpsc::unbounded_channel();
    let (events_tx, events_rx) = mpsc::unbounded_channel();
    let (internal_tx, internal_rx) = mpsc::unbounded_channel();
    let auto_enable = settings.config.voice.auto_enable;
    let service = Service {
        settings,
        state: VoiceState::default(),
        events: events_tx,
        internal: internal_tx,
        take: None,
        transcriber: None,
        synth: None,
        sink: None,
        speaker: None,
        record_after_speech: false,
        no_speech_streak: 0,
        opening_speaker: false,
        speaker_failed: None,
        pending_beeps: Vec::new(),
    };
    tokio::spawn(service.run(ops_rx, internal_rx, auto_enable));
    VoiceHandle {
        ops: ops_tx,
        events: events_rx,
    }
}

impl Service {
    async fn run(
        mut self,
        mut ops: mpsc::UnboundedReceiver<VoiceOp>,
        mut internal: mpsc::UnboundedReceiver<Internal>,
        auto_enable: bool,
    ) {
        if auto_enable {
            self.command(VoiceCommand::On);
        }
        loop {
            tokio::select! {
                op = ops.recv() => match op {
                    None | Some(VoiceOp::Shutdown) => break,
                    Some(op) => self.op(op),
                },
                Some(work) = internal.recv() => self.internal(work),
            }
        }
        self.stop_take();
        self.stop_speaking();
    }

    fn op(&mut self, op: VoiceOp) {
        match op {
            VoiceOp::Command(command) => self.command(command),
            VoiceOp::RecordKeyPressed => self.record_key_pressed(),
            VoiceOp::RecordKeyReleased => {
                let held = self
                    .take
                    .as_ref()
                    .is_some_and(|t| t.pressed_at.elapsed() >= HOLD);
                if held {
                    self.stop_take();
                }
            }
            VoiceOp::ReplyDelta { turn_id, text } => self.reply_delta(turn_id, &text),
            VoiceOp::ReplyDone { turn_id } => {
                if let Some((speaking, speaker)) = self.speaker.as_mut()
                    && *speaking == turn_id
                {
                    speaker.finish();
                }
            }
            VoiceOp::TurnFinished => {
                if self.state.enabled && self.state.continuous {
                    self.record_after_speech = true;
                    self.maybe_record_again();
                }
            }
            VoiceOp::StopSpeaking => self.stop_speaking(),
            VoiceOp::Shutdown => {}
        }
    }

    fn command(&mut self, command: VoiceCommand) {
        match command {
            VoiceCommand::Toggle if self.state.enabled => self.command(VoiceCommand::Off),
            VoiceCommand::Toggle | VoiceCommand::On => {
                self.state.enabled = true;
                if self.settings.config.voice.auto_tts {
                    self.set_tts(true);
                }
                // State before the notice: a frontend that shows the notice must already
                // treat the record key as the record key (a press right after it was lost).
                self.emit_state();
                let key = self.settings.config.voice.record_key.clone();
                self.notice(
                    NoticeLevel::Info,
                    format!(
                        "voice mode on — press {key} to record, again (or stay silent) to stop"
                    ),
                );
                if super::capture::over_ssh(|k| self.settings.env.get(k)) {
                    self.notice(
                        NoticeLevel::Warning,
                        "this is an SSH session: the microphone and speaker of the machine \
                         hermes runs on (the remote one) are used, not yours"
                            .to_string(),
                    );
                }
                if self.settings.config.voice.beep_enabled {
                    self.open_speaker();
                }
                if let Some(transcriber) = self.ensure_transcriber() {
                    // Load the whisper model now, not when the first take ends.
                    let events = self.events.clone();
                    tokio::spawn(async move {
                        if let Err(err) = transcriber.preload().await {
                            let _ = events.send(VoiceEvent::Notice {
                                level: NoticeLevel::Warning,
                                text: format!("speech-to-text is not ready: {err}"),
                            });
                        }
                    });
                }
            }
            VoiceCommand::Off => {
                self.stop_take();
                self.stop_speaking();
                self.state = VoiceState::default();
                self.record_after_speech = false;
                self.emit_state();
                self.notice(NoticeLevel::Info, "voice mode off".to_string());
            }
            VoiceCommand::Tts => {
                let on = !self.state.tts;
                self.set_tts(on);
                self.emit_state();
            }
            VoiceCommand::Status => {
                let text = self.status_text();
                self.notice(NoticeLevel::Info, text);
            }
        }
    }

    fn set_tts(&mut self, on: bool) {
        if !on {
            self.stop_speaking();
            self.state.tts = false;
            self.notice(
                NoticeLevel::Info,
                "replies are no longer spoken".to_string(),
            );
            return;
        }
        if self.synth.is_none() {
            match super::tts::fallback::configured_or_offline(
                &self.settings.config.tts,
                &self.settings.env,
            ) {
                Ok((synth, note)) => {
                    if let Some(note) = note {
                        self.notice(NoticeLevel::Info, note);
                    }
                    self.synth = Some(Arc::new(synth));
                }
                Err(err) => {
                    return self.notice(
                        NoticeLevel::Warning,
                        format!("replies cannot be spoken: {err}"),
                    );
                }
            }
        }
        self.state.tts = true;
        self.open_speaker();
        let provider = self
            .synth
            .as_ref()
            .map(|s| s.provider().to_string())
            .unwrap_or_default();
        self.notice(
            NoticeLevel::Info,
            format!("replies are spoken ({provider}); Esc stops speech"),
        );
    }

    fn status_text(&mut self) -> String {
        let voice = &self.settings.config.voice;
        let on = |b: bool| if b { "on" } else { "off" };
        let stt = match self.transcriber.as_ref() {
            Some(t) => t.describe(),
            None => self.settings.config.stt.provider.clone(),
        };
        let tts = self.settings.config.tts.provider.clone();
        let speaker = match (&self.sink, &self.speaker_failed) {
            (Some(_), _) => "open".to_string(),
            (None, Some(why)) => format!("unavailable ({why})"),
            (None, None) => "not opened yet".to_string(),
        };
        format!(
            "voice mode {} · TTS {} · continuous {} · record key {} · speech-to-text: {stt} · \
             text-to-speech: {tts} · speaker {speaker} · silence {} RMS for {:.1} s ends a take",
            on(self.state.enabled),
            on(self.state.tts),
            on(self.state.continuous),
            voice.record_key,
            voice.silence_threshold,
            voice.silence_duration,
        )
    }

    pub(super) fn internal(&mut self, work: Internal) {
        match work {
            Internal::Level(bars) => {
                if self.take.is_some() {
                    self.events.send(VoiceEvent::Level { bars }).ok();
                }
            }
            Internal::TakeDone(result) => self.take_done(result),
            Internal::Transcribed(result) => self.transcribed(result),
            Internal::Speech(event) => self.speech_event(event),
            Internal::SinkIdle => self.sink_idle(),
            Internal::SpeakerOpened(result) => {
                self.opening_speaker = false;
                match result {
                    Ok(sink) => {
                        for clip in self.pending_beeps.drain(..) {
                            let _ = sink.play(clip);
                        }
                        self.sink = Some(sink);
                    }
                    Err(why) => {
                        self.notice(
                            NoticeLevel::Warning,
                            format!("no sound output, so beeps and speech are silent: {why}"),
                        );
                        self.speaker_failed = Some(why.to_string());
                        self.pending_beeps.clear();
                    }
                }
            }
        }
    }

    pub(super) fn emit_state(&self) {
        self.events.send(VoiceEvent::State(self.state.clone())).ok();
    }

    pub(super) fn notice(&self, level: NoticeLevel, text: String) {
        self.events.send(VoiceEvent::Notice { level, text }).ok();
    }
}
