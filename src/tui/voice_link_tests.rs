use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyEventKind;
use crossterm::event::KeyModifiers;
use pretty_assertions::assert_eq;

use super::*;
use crate::protocol::Event;
use crate::protocol::MessageComplete;
use crate::protocol::MessageDelta;
use crate::protocol::Op;
use crate::protocol::TurnComplete;
use crate::protocol::TurnStarted;
use crate::tui::input::on_terminal_event;
use crate::tui::test_support::last_notice;
use crate::tui::test_support::ops_sent;
use crate::tui::test_support::setup;
use crate::tui::test_support::voice_app;

fn state(enabled: bool, tts: bool, capture: CaptureState) -> VoiceEvent {
    VoiceEvent::State(VoiceState {
        enabled,
        tts,
        capture,
        speaking: false,
        continuous: false,
    })
}

fn ctrl_b(kind: KeyEventKind) -> crossterm::event::Event {
    let mut key = KeyEvent::new(KeyCode::Char('b'), KeyModifiers::CONTROL);
    key.kind = kind;
    crossterm::event::Event::Key(key)
}

fn voice_ops(rx: &mut tokio::sync::mpsc::UnboundedReceiver<VoiceOp>) -> Vec<VoiceOp> {
    std::iter::from_fn(|| rx.try_recv().ok()).collect()
}

#[tokio::test]
async fn voice_commands_go_to_the_service_and_bad_ones_get_the_usage() {
    let (_dir, mut app, mut voice, _ops) = voice_app();
    command(&mut app, "on");
    command(&mut app, "");
    command(&mut app, "status");
    assert_eq!(
        voice_ops(&mut voice),
        [
            VoiceOp::Command(VoiceCommand::On),
            VoiceOp::Command(VoiceCommand::Toggle),
            VoiceOp::Command(VoiceCommand::Status),
        ]
    );
    command(&mut app, "loud");
    assert!(voice_ops(&mut voice).is_empty());
    assert!(
        last_notice(&app)
            .unwrap()
            .contains("/voice [on | off | tts | status]")
    );
}

#[tokio::test]
async fn without_a_voice_service_every_voice_command_explains_itself() {
    let (_dir, mut app, _ops) = setup();
    command(&mut app, "on");
    assert_eq!(
        last_notice(&app).as_deref(),
        Some("voice is not available in tests")
    );
}

#[tokio::test]
async fn the_record_key_records_only_in_voice_mode_and_reports_releases() {
    let (_dir, mut app, mut voice, _ops) = voice_app();
    // Voice mode off: Ctrl+B is the composer's (readline's "back a character").
    on_terminal_event(&mut app, ctrl_b(KeyEventKind::Press));
    assert!(voice_ops(&mut voice).is_empty());

    on_voice_event(&mut app, state(true, false, CaptureState::Idle));
    on_terminal_event(&mut app, ctrl_b(KeyEventKind::Press));
    on_terminal_event(&mut app, ctrl_b(KeyEventKind::Repeat));
    on_terminal_event(&mut app, ctrl_b(KeyEventKind::Release));
    assert_eq!(
        voice_ops(&mut voice),
        [VoiceOp::RecordKeyPressed, VoiceOp::RecordKeyReleased]
    );
    // Other keys still type.
    let key = KeyEvent::new(KeyCode::Char('x'), KeyModifiers::NONE);
    on_terminal_event(&mut app, crossterm::event::Event::Key(key));
    assert_eq!(app.composer.text(), "x");
}

#[tokio::test]
async fn the_meter_replaces_the_prompt_while_recording_and_the_status_bar_says_so() {
    let (_dir, mut app, _voice, _ops) = voice_app();
    on_voice_event(&mut app, state(true, true, CaptureState::Recording));
    on_voice_event(
        &mut app,
        VoiceEvent::Level {
            bars: vec![0, 1, 3, 5, 7, 7, 5, 2, 4, 6],
        },
    );
    assert_eq!(prompt_override(&app.voice).as_deref(), Some("● [▄▆██▆▃▅▇]"));
    assert_eq!(status_label(&app.voice), Some("● REC"));
    let terminal = crate::tui::test_support::draw_app(&mut app, 100, 20);
    insta::assert_snapshot!("voice_recording_100x20", terminal.backend());

    on_voice_event(&mut app, state(true, true, CaptureState::Transcribing));
    assert_eq!(prompt_override(&app.voice).as_deref(), Some("◉"));
    assert!(app.voice.levels.is_empty(), "levels belong to one take");
    assert_eq!(status_label(&app.voice), Some("◉ STT"));
    on_voice_event(&mut app, state(true, true, CaptureState::Idle));
    assert_eq!(prompt_override(&app.voice), None);
    assert_eq!(status_label(&app.voice), Some("voice+tts"));
    on_voice_event(&mut app, state(false, false, CaptureState::Idle));
    assert_eq!(status_label(&app.voice), None);
}

#[tokio::test]
async fn a_short_meter_is_padded_to_its_width() {
    let (_dir, mut app, _voice, _ops) = voice_app();
    on_voice_event(&mut app, state(true, false, CaptureState::Recording));
    on_voice_event(&mut app, VoiceEvent::Level { bars: vec![7, 3] });
    assert_eq!(prompt_override(&app.voice).as_deref(), Some("● [▁▁▁▁▁▁█▄]"));
}

#[tokio::test]
async fn a_transcript_is_sent_or_left_in_the_composer() {
    let (_dir, mut app, _voice, mut ops) = voice_app();
    on_voice_event(
        &mut app,
        VoiceEvent::Transcript {
            text: "what is the weather".into(),
            usage: TranscriptUse::Send,
        },
    );
    assert_eq!(ops_sent(&mut ops), [Op::user("what is the weather")]);
    assert_eq!(app.composer.text(), "");
    on_voice_event(
        &mut app,
        VoiceEvent::Transcript {
            text: "draft this".into(),
            usage: TranscriptUse::Edit,
        },
    );
    assert!(ops_sent(&mut ops).is_empty());
    assert_eq!(app.composer.text(), "draft this");
}

#[tokio::test]
async fn replies_are_handed_over_for_speaking_only_with_tts_on() {
    let (_dir, mut app, mut voice, _ops) = voice_app();
    let delta = |text: &str| {
        Event::MessageDelta(MessageDelta {
            turn_id: 4,
            text: text.into(),
        })
    };
    crate::tui::engine_link::on_engine_event(
        &mut app,
        Event::TurnStarted(TurnStarted { turn_id: 4 }),
    );
    crate::tui::engine_link::on_engine_event(&mut app, delta("not spoken. "));
    assert!(voice_ops(&mut voice).is_empty());

    on_voice_event(&mut app, state(true, true, CaptureState::Idle));
    crate::tui::engine_link::on_engine_event(&mut app, delta("Spoken now. "));
    crate::tui::engine_link::on_engine_event(
        &mut app,
        Event::MessageComplete(MessageComplete {
            turn_id: 4,
            text: "not spoken. Spoken now. ".into(),
            reasoning: None,
        }),
    );
    crate::tui::engine_link::on_engine_event(
        &mut app,
        Event::TurnComplete(TurnComplete {
            turn_id: 4,
            outcome: crate::protocol::TurnOutcome::Completed,
        }),
    );
    assert_eq!(
        voice_ops(&mut voice),
        [
            VoiceOp::ReplyDelta {
                turn_id: 4,
                text: "Spoken now. ".into()
            },
            VoiceOp::ReplyDone { turn_id: 4 },
            VoiceOp::TurnFinished,
        ]
    );
}

#[tokio::test]
async fn interrupting_silences_speech() {
    let (_dir, mut app, mut voice, _ops) = voice_app();
    on_voice_event(
        &mut app,
        VoiceEvent::State(VoiceState {
            enabled: true,
            tts: true,
            capture: CaptureState::Idle,
            speaking: true,
            continuous: false,
        }),
    );
    crate::tui::engine_link::on_engine_event(
        &mut app,
        Event::TurnStarted(TurnStarted { turn_id: 1 }),
    );
    let esc = KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE);
    on_terminal_event(&mut app, crossterm::event::Event::Key(esc));
    assert_eq!(voice_ops(&mut voice), [VoiceOp::StopSpeaking]);
}

#[test]
fn levels_map_to_bar_glyphs() {
    let bars: String = [0u8, 2, 4, 7, 9].iter().map(|l| level_glyph(*l)).collect();
    assert_eq!(bars, "▁▃▅██");
}
