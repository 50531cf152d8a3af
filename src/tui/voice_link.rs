//! The TUI's side of voice mode: the record key, `/voice`, the reply text handed to the voice
//! service for speaking, and the service's events (state, input levels, transcripts, notices).
//!
//! The voice service owns every device; this module only sends `VoiceOp`s, so a keystroke
//! never waits on audio. Without a service (no audio support in this run) every voice action
//! says so instead of doing nothing. Renders nothing itself: the composer shows the level
//! meter and the status bar the state, both from [`VoiceUi`].

use crossterm::event::KeyEvent;
use crossterm::event::KeyEventKind;
use tokio::sync::mpsc::UnboundedSender;

use super::app::App;
use super::voice_keys::RecordKey;
use crate::protocol::CaptureState;
use crate::protocol::NoticeLevel;
use crate::protocol::TranscriptUse;
use crate::protocol::VoiceCommand;
use crate::protocol::VoiceEvent;
use crate::protocol::VoiceOp;
use crate::protocol::VoiceState;

/// How many level bars the meter shows.
pub const METER_BARS: usize = 8;

/// Voice state as the UI knows it.
#[derive(Debug)]
pub struct VoiceUi {
    ops: Option<UnboundedSender<VoiceOp>>,
    pub state: VoiceState,
    /// The latest input levels (0–7), oldest first, at most [`METER_BARS`].
    pub levels: Vec<u8>,
    pub record_key: RecordKey,
    /// Why voice is unavailable in this run, when it is.
    unavailable: Option<String>,
}

impl VoiceUi {
    pub fn new(
        ops: Option<UnboundedSender<VoiceOp>>,
        record_key: RecordKey,
        unavailable: Option<String>,
    ) -> Self {
        Self {
            ops,
            state: VoiceState::default(),
            levels: Vec::new(),
            record_key,
            unavailable,
        }
    }

    /// Send `op`; `false` when there is no voice service.
    fn send(&self, op: VoiceOp) -> bool {
        self.ops.as_ref().is_some_and(|ops| ops.send(op).is_ok())
    }

    /// Whether replies should be handed over for speaking.
    fn speaking_replies(&self) -> bool {
        self.state.tts && self.ops.is_some()
    }

    fn why_unavailable(&self) -> String {
        self.unavailable
            .clone()
            .unwrap_or_else(|| "voice is not available in this run".to_string())
    }
}

/// `/voice ARGS`.
pub fn command(app: &mut App, args: &str) {
    match VoiceCommand::parse(args) {
        Ok(command) => {
            if !app.voice.send(VoiceOp::Command(command)) {
                let text = app.voice.why_unavailable();
                app.transcript.push_notice(NoticeLevel::Warning, &text);
            }
        }
        Err(usage) => app.transcript.push_notice(NoticeLevel::Info, &usage),
    }
}

/// The record key, if `key` is it and voice mode is on: `true` when it was handled. With voice
/// mode off the key is left to the composer (Ctrl+B is also readline's "back a character").
pub fn on_key(app: &mut App, key: &KeyEvent) -> bool {
    if !app.voice.state.enabled || !app.voice.record_key.matches(key) {
        return false;
    }
    let op = match key.kind {
        KeyEventKind::Press => VoiceOp::RecordKeyPressed,
        KeyEventKind::Release => VoiceOp::RecordKeyReleased,
        // Auto-repeat while the key is held changes nothing.
        KeyEventKind::Repeat => return true,
    };
    if !app.voice.send(op) {
        let text = app.voice.why_unavailable();
        app.transcript.push_notice(NoticeLevel::Warning, &text);
        app.request_frame();
    }
    true
}

/// Reply text streaming in: speak it when TTS is on.
pub fn reply_delta(app: &App, turn_id: u64, text: &str) {
    if app.voice.speaking_replies() {
        app.voice.send(VoiceOp::ReplyDelta {
            turn_id,
            text: text.to_string(),
        });
    }
}

pub fn reply_done(app: &App, turn_id: u64) {
    if app.voice.speaking_replies() {
        app.voice.send(VoiceOp::ReplyDone { turn_id });
    }
}

/// A turn ended: continuous mode may record again.
pub fn turn_finished(app: &App) {
    if app.voice.state.enabled {
        app.voice.send(VoiceOp::TurnFinished);
    }
}

/// An interrupt also silences speech.
pub fn stop_speaking(app: &App) {
    if app.voice.state.speaking {
        app.voice.send(VoiceOp::StopSpeaking);
    }
}

pub fn shutdown(app: &App) {
    app.voice.send(VoiceOp::Shutdown);
}

pub fn on_voice_event(app: &mut App, event: VoiceEvent) {
    match event {
        VoiceEvent::State(state) => {
            if state.capture != CaptureState::Recording {
                app.voice.levels.clear();
            }
            app.voice.state = state;
        }
        VoiceEvent::Level { bars } => {
            let skip = bars.len().saturating_sub(METER_BARS);
            app.voice.levels = bars.into_iter().skip(skip).collect();
        }
        VoiceEvent::Transcript { text, usage } => match usage {
            TranscriptUse::Send if !text.trim().is_empty() => {
                app.composer.set_text("");
                let images = app.attach.take_images();
                super::input::send_message(app, text, images);
            }
            TranscriptUse::Send | TranscriptUse::Edit => {
                app.composer.set_text(&text);
                app.focus = super::focus::Focus::Composer;
            }
        },
        VoiceEvent::Notice { level, text } => app.transcript.push_notice(level, &text),
    }
    app.request_frame();
}

/// What the composer shows instead of its prompt while voice is busy: `● [▁▂▃▅▇▇▅▂]` while
/// recording, `◉` while transcribing.
pub fn prompt_override(voice: &VoiceUi) -> Option<String> {
    match voice.state.capture {
        CaptureState::Idle => None,
        CaptureState::Recording => {
            let mut bars: String = voice.levels.iter().map(|l| level_glyph(*l)).collect();
            while bars.chars().count() < METER_BARS {
                bars.insert(0, level_glyph(0));
            }
            Some(format!("● [{bars}]"))
        }
        CaptureState::Transcribing => Some("◉".to_string()),
    }
}

/// The `▁▂▃▄▅▆▇█` glyph for a 0–7 level (higher values clamp).
pub fn level_glyph(level: u8) -> char {
    const GLYPHS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    GLYPHS[usize::from(level.min(7))]
}

/// The status bar's voice label: `● REC`, `◉ STT`, `🔊` while speaking, `voice` when on.
pub fn status_label(voice: &VoiceUi) -> Option<&'static str> {
    match (
        voice.state.capture,
        voice.state.speaking,
        voice.state.enabled,
    ) {
        (CaptureState::Recording, _, _) => Some("● REC"),
        (CaptureState::Transcribing, _, _) => Some("◉ STT"),
        (CaptureState::Idle, true, _) => Some("🔊 speaking"),
        (CaptureState::Idle, false, true) if voice.state.tts => Some("voice+tts"),
        (CaptureState::Idle, false, true) => Some("voice"),
        (CaptureState::Idle, false, false) => None,
    }
}

#[cfg(test)]
#[path = "voice_link_tests.rs"]
mod tests;
