//! The voice part of the protocol: what a frontend tells the voice service (record key,
//! `/voice` commands, the reply text to speak) and what it hears back (state, input levels,
//! transcripts, notices). Plain data, like the rest of `protocol`.
//!
//! The voice service owns every device; a frontend only sends these ops, so a keystroke never
//! waits on audio. Invariants: every `Recording` state is followed by `Transcribing` or `Idle`;
//! a `Transcript` is sent at most once per take; `StopSpeaking` silences at once.

use serde::Deserialize;
use serde::Serialize;

use super::NoticeLevel;

/// Frontend → voice service.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum VoiceOp {
    /// `/voice …`.
    Command(VoiceCommand),
    /// The record key went down: start a take, or stop the one running (toggle).
    RecordKeyPressed,
    /// The record key came up (terminals with key-release events): push-to-talk stops the take
    /// that the press started, if it has run long enough to be a hold.
    RecordKeyReleased,
    /// Visible reply text as it streams; spoken sentence by sentence when TTS is on.
    ReplyDelta { turn_id: u64, text: String },
    /// The reply is complete: speak what is left.
    ReplyDone { turn_id: u64 },
    /// The turn a transcript started has ended (continuous mode records again once speech
    /// has finished playing).
    TurnFinished,
    /// Silence now (an interrupt, a new recording).
    StopSpeaking,
    /// The frontend is closing: release the devices.
    Shutdown,
}

/// `/voice`, `/voice on|off|tts|status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VoiceCommand {
    Toggle,
    On,
    Off,
    /// Toggle speaking replies.
    Tts,
    Status,
}

impl VoiceCommand {
    /// The command for `/voice ARGS`, or the usage line.
    pub fn parse(args: &str) -> Result<Self, String> {
        match args.trim().to_ascii_lowercase().as_str() {
            "" => Ok(Self::Toggle),
            "on" => Ok(Self::On),
            "off" => Ok(Self::Off),
            "tts" => Ok(Self::Tts),
            "status" => Ok(Self::Status),
            other => Err(format!(
                "unknown /voice option {other:?} — use /voice [on | off | tts | status]"
            )),
        }
    }
}

/// What the microphone side is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum CaptureState {
    #[default]
    Idle,
    /// A take is running (the level meter shows).
    Recording,
    /// The take is being turned into text.
    Transcribing,
}

/// The voice service's state, sent after every change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct VoiceState {
    /// Voice mode (`/voice on`): the record key works.
    pub enabled: bool,
    /// Replies are spoken.
    pub tts: bool,
    pub capture: CaptureState,
    /// Speech is playing or queued.
    pub speaking: bool,
    /// Continuous mode: a new take starts after each reply.
    pub continuous: bool,
}

/// Whether a transcript is sent at once (`voice.auto_send`) or left in the composer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TranscriptUse {
    Send,
    Edit,
}

/// Voice service → frontend.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum VoiceEvent {
    State(VoiceState),
    /// Recent input levels, oldest first, each 0–7 (a `▁…█` bar).
    Level {
        bars: Vec<u8>,
    },
    /// What was said, for the composer.
    Transcript {
        text: String,
        usage: TranscriptUse,
    },
    /// Something the user should read (no device, no speech heard, a provider failed).
    Notice {
        level: NoticeLevel,
        text: String,
    },
}

/// A frontend's end of the voice service.
#[derive(Debug)]
pub struct VoiceHandle {
    pub ops: tokio::sync::mpsc::UnboundedSender<VoiceOp>,
    pub events: tokio::sync::mpsc::UnboundedReceiver<VoiceEvent>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn voice_arguments_pick_the_command() {
        assert_eq!(VoiceCommand::parse(""), Ok(VoiceCommand::Toggle));
        assert_eq!(VoiceCommand::parse(" ON "), Ok(VoiceCommand::On));
        assert_eq!(VoiceCommand::parse("off"), Ok(VoiceCommand::Off));
        assert_eq!(VoiceCommand::parse("tts"), Ok(VoiceCommand::Tts));
        assert_eq!(VoiceCommand::parse("status"), Ok(VoiceCommand::Status));
        assert!(
            VoiceCommand::parse("loud")
                .unwrap_err()
                .contains("/voice [on")
        );
    }

    #[test]
    fn voice_messages_round_trip_through_json() {
        let op = VoiceOp::Command(VoiceCommand::Tts);
        let json = serde_json::to_string(&op).unwrap();
        assert_eq!(serde_json::from_str::<VoiceOp>(&json).unwrap(), op);
        let event = VoiceEvent::Transcript {
            text: "hi".into(),
            usage: TranscriptUse::Send,
        };
        let json = serde_json::to_string(&event).unwrap();
        assert_eq!(serde_json::from_str::<VoiceEvent>(&json).unwrap(), event);
    }
}
