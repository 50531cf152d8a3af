//! The voice service's takes: the record key, recording on a blocking thread with the level
//! meter, the stop beeps, transcription, and what a take without words does (continuous mode
//! tries again, three in a row end it). Split from `service.rs`, which routes.

use std::sync::Arc;
use std::time::Instant;

use super::Internal;
use super::LEVEL_BARS;
use super::LEVEL_EVERY;
use super::NO_SPEECH_LIMIT;
use super::RunningTake;
use super::Service;
use crate::protocol::CaptureState;
use crate::protocol::NoticeLevel;
use crate::protocol::TranscriptUse;
use crate::protocol::VoiceEvent;
use crate::voice::audio::AudioError;
use crate::voice::capture::StopSignal;
use crate::voice::capture::Take;
use crate::voice::capture::record_take;
use crate::voice::stt::Transcriber;
use crate::voice::stt::Transcript;
use crate::voice::stt::filter::Filtered;
use crate::voice::vad::VadSettings;

impl Service {
    pub(super) fn record_key_pressed(&mut self) {
        if !self.state.enabled {
            return;
        }
        if self.take.is_some() {
            // A press during a take ends it and leaves continuous mode (as Hermes).
            self.state.continuous = false;
            self.record_after_speech = false;
            return self.stop_take();
        }
        if self.state.capture == CaptureState::Transcribing {
            return self.notice(
                NoticeLevel::Info,
                "still transcribing the last take".to_string(),
            );
        }
        self.state.continuous = true;
        self.no_speech_streak = 0;
        self.start_take();
    }

    pub(super) fn start_take(&mut self) {
        self.stop_speaking();
        self.record_after_speech = false;
        let mut microphone = match self.settings.devices.microphone() {
            Ok(m) => m,
            Err(err) => return self.take_failed(&err),
        };
        if self.settings.config.voice.beep_enabled {
            self.beep(crate::voice::beep::start_beep());
        }
        let stop = StopSignal::new();
        self.take = Some(RunningTake {
            stop: stop.clone(),
            pressed_at: Instant::now(),
        });
        self.state.capture = CaptureState::Recording;
        self.emit_state();
        let vad = VadSettings::from_config(&self.settings.config.voice);
        let tx = self.internal.clone();
        tokio::task::spawn_blocking(move || {
            let mut bars: Vec<u8> = Vec::new();
            let mut last = Instant::now() - LEVEL_EVERY;
            let levels = tx.clone();
            let result = record_take(microphone.as_mut(), vad, &stop, |level| {
                bars.push((level.clamp(0.0, 1.0) * 7.0).round() as u8);
                let excess = bars.len().saturating_sub(LEVEL_BARS);
                bars.drain(..excess);
                if last.elapsed() >= LEVEL_EVERY {
                    last = Instant::now();
                    let _ = levels.send(Internal::Level(bars.clone()));
                }
            });
            let _ = tx.send(Internal::TakeDone(result));
        });
    }

    pub(super) fn stop_take(&mut self) {
        if let Some(take) = &self.take {
            take.stop.stop();
        }
    }

    pub(super) fn take_failed(&mut self, err: &AudioError) {
        self.take = None;
        self.state.capture = CaptureState::Idle;
        self.state.continuous = false;
        self.notice(NoticeLevel::Warning, err.to_string());
        self.emit_state();
    }

    pub(super) fn take_done(&mut self, result: Result<Take, AudioError>) {
        self.take = None;
        if self.settings.config.voice.beep_enabled {
            self.beep(crate::voice::beep::stop_beeps());
        }
        let take = match result {
            Ok(take) => take,
            Err(err) => return self.take_failed(&err),
        };
        if !take.heard_speech {
            return self.no_speech("no speech heard");
        }
        let Some(transcriber) = self
            .transcriber
            .clone()
            .or_else(|| self.ensure_transcriber())
        else {
            self.state.capture = CaptureState::Idle;
            return self.emit_state();
        };
        self.state.capture = CaptureState::Transcribing;
        self.emit_state();
        let tx = self.internal.clone();
        tokio::spawn(async move {
            let result = transcriber.transcribe(&take.samples).await;
            let _ = tx.send(Internal::Transcribed(result));
        });
    }

    pub(super) fn transcribed(&mut self, result: Result<Transcript, crate::voice::stt::SttError>) {
        self.state.capture = CaptureState::Idle;
        match result {
            Ok(transcript) => match transcript.filtered() {
                Filtered::Speech(text) => {
                    self.no_speech_streak = 0;
                    let usage = if self.settings.config.voice.auto_send {
                        TranscriptUse::Send
                    } else {
                        TranscriptUse::Edit
                    };
                    self.events
                        .send(VoiceEvent::Transcript { text, usage })
                        .ok();
                    self.emit_state();
                }
                Filtered::Hallucination => {
                    self.no_speech(&format!(
                        "heard only noise (whisper made {:?} of it; it was dropped)",
                        transcript.text
                    ));
                }
            },
            Err(err) => {
                self.state.continuous = false;
                self.notice(
                    NoticeLevel::Warning,
                    format!("speech-to-text failed: {err}"),
                );
                self.emit_state();
            }
        }
    }

    /// A take without words: continuous mode tries again, up to [`NO_SPEECH_LIMIT`] in a row.
    pub(super) fn no_speech(&mut self, what: &str) {
        self.state.capture = CaptureState::Idle;
        self.no_speech_streak += 1;
        if self.no_speech_streak >= NO_SPEECH_LIMIT {
            self.state.continuous = false;
            self.notice(
                NoticeLevel::Info,
                format!("{what} — {NO_SPEECH_LIMIT} takes in a row without speech, so continuous mode stopped"),
            );
            return self.emit_state();
        }
        self.notice(NoticeLevel::Info, what.to_string());
        self.emit_state();
        if self.state.continuous {
            self.start_take();
        }
    }

    pub(super) fn ensure_transcriber(&mut self) -> Option<Arc<Transcriber>> {
        if let Some(t) = &self.transcriber {
            return Some(Arc::clone(t));
        }
        let env = &self.settings.env;
        let lookup = |k: &str| env.get(k);
        match crate::voice::stt::select::select(
            &self.settings.config.stt,
            &self.settings.home,
            &lookup,
        ) {
            Ok(selected) => {
                if let Some(note) = selected.fallback_note {
                    self.notice(NoticeLevel::Info, note);
                }
                let transcriber = Arc::new(selected.transcriber);
                self.transcriber = Some(Arc::clone(&transcriber));
                Some(transcriber)
            }
            Err(err) => {
                self.notice(
                    NoticeLevel::Warning,
                    format!("speech cannot be turned into text: {err}"),
                );
                None
            }
        }
    }
}
