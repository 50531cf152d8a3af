//! The voice service's speech: replies handed to a `Speaker` sentence by sentence, stopping
//! it, waiting for the speaker to fall silent (continuous mode records again only then), and
//! the beeps. The speaker device opens lazily on a blocking thread. Split from `service.rs`.

use std::time::Duration;

use tokio::sync::mpsc;

use super::Internal;
use super::Service;
use crate::protocol::CaptureState;
use crate::protocol::NoticeLevel;
use crate::voice::tts::speaker::Speaker;
use crate::voice::tts::speaker::SpeakerOptions;
use crate::voice::tts::speaker::SpeechEvent;

impl Service {
    pub(super) fn reply_delta(&mut self, turn_id: u64, text: &str) {
        if !self.state.tts {
            return;
        }
        let Some(synth) = self.synth.clone() else {
            return;
        };
        let Some(sink) = self.sink.clone() else {
            // The speaker is still opening (or failed): this reply stays silent.
            return;
        };
        let same_turn = self.speaker.as_ref().is_some_and(|(t, _)| *t == turn_id);
        if !same_turn {
            self.stop_speaking();
            let (events_tx, mut events_rx) = mpsc::unbounded_channel();
            let internal = self.internal.clone();
            tokio::spawn(async move {
                while let Some(event) = events_rx.recv().await {
                    let _ = internal.send(Internal::Speech(event));
                }
            });
            let options = SpeakerOptions {
                cache: Some(crate::voice::tts::cache::AudioCache::new(
                    self.settings.home.root().join("audio_cache"),
                )),
                events: Some(events_tx),
                ..SpeakerOptions::default()
            };
            self.speaker = Some((turn_id, Speaker::start(synth, sink, options)));
            self.state.speaking = true;
            self.emit_state();
        }
        if let Some((_, speaker)) = self.speaker.as_mut() {
            speaker.push_delta(text);
        }
    }

    pub(super) fn stop_speaking(&mut self) {
        if let Some((_, speaker)) = self.speaker.take() {
            speaker.stop();
        }
        if self.state.speaking {
            self.state.speaking = false;
            self.emit_state();
        }
    }

    pub(super) fn speech_event(&mut self, event: SpeechEvent) {
        match event {
            SpeechEvent::Failed { error, .. } => {
                self.notice(
                    NoticeLevel::Warning,
                    format!("a sentence was not spoken: {error}"),
                );
            }
            SpeechEvent::Done { .. } => {
                self.speaker = None;
                self.wait_for_silence();
            }
            SpeechEvent::Sentence { .. }
            | SpeechEvent::SynthStarted { .. }
            | SpeechEvent::FirstAudio { .. }
            | SpeechEvent::SynthFinished { .. } => {}
        }
    }

    /// Everything was handed to the sink, which may still be playing: poll it off the actor.
    pub(super) fn wait_for_silence(&mut self) {
        let Some(sink) = self.sink.clone() else {
            return self.sink_idle();
        };
        let tx = self.internal.clone();
        tokio::spawn(async move {
            while !sink.is_idle() {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let _ = tx.send(Internal::SinkIdle);
        });
    }

    pub(super) fn sink_idle(&mut self) {
        if self.speaker.is_some() {
            // A new reply started speaking meanwhile.
            return;
        }
        if self.state.speaking {
            self.state.speaking = false;
            self.emit_state();
        }
        self.maybe_record_again();
    }

    pub(super) fn maybe_record_again(&mut self) {
        let quiet = !self.state.speaking && self.speaker.is_none();
        if self.record_after_speech
            && quiet
            && self.take.is_none()
            && self.state.capture == CaptureState::Idle
        {
            self.record_after_speech = false;
            self.start_take();
        }
    }

    pub(super) fn beep(&mut self, clip: crate::voice::audio::Clip) {
        match &self.sink {
            Some(sink) => {
                let _ = sink.play(clip);
            }
            None if self.speaker_failed.is_none() => {
                self.pending_beeps.push(clip);
                self.open_speaker();
            }
            None => {}
        }
    }

    pub(super) fn open_speaker(&mut self) {
        if self.sink.is_some() || self.opening_speaker || self.speaker_failed.is_some() {
            return;
        }
        self.opening_speaker = true;
        let devices = std::sync::Arc::clone(&self.settings.devices);
        let tx = self.internal.clone();
        tokio::task::spawn_blocking(move || {
            let result = devices.speaker();
            let _ = tx.send(Internal::SpeakerOpened(result));
        });
    }
}
