use crossterm::event::Event as TermEvent;
use crossterm::event::KeyCode;
use crossterm::event::KeyModifiers;
use pretty_assertions::assert_eq;

use super::*;
use crate::protocol::Event;
use crate::protocol::HistoryReplay;
use crate::protocol::Op;
use crate::protocol::ReplayMessage;
use crate::protocol::TurnComplete;
use crate::protocol::TurnOutcome;
use crate::protocol::TurnStarted;
use crate::tui::app::AppEvent;
use crate::tui::app::BusyMode;
use crate::tui::input::on_terminal_event;
use crate::tui::test_support::AttachEnds;
use crate::tui::test_support::attach_app;
use crate::tui::test_support::deliver_attach_events;
use crate::tui::test_support::draw_app;
use crate::tui::test_support::last_notice;
use crate::tui::test_support::ops_sent;
use crate::tui::test_support::press;
use crate::tui::test_support::press_with;
use crate::tui::test_support::sample_image;
use crate::tui::test_support::setup;
use crate::tui::test_support::type_text;
use crate::tui::transcript::Cell;

fn attached(ends: &AttachEnds, app: &mut App, n: usize) {
    ends.answer(AttachEvent::Attached {
        image: sample_image(n),
        origin: "clipboard".into(),
    });
    deliver_attach_events(app);
}

/// `/paste` answered `n` times: `n` images attached.
fn attach_images(app: &mut App, ends: &mut AttachEnds, n: usize) {
    for i in 1..=n {
        paste_command(app);
        attached(ends, app, i);
    }
    assert_eq!(ends.requests_sent().len(), n);
    assert_eq!(app.attach.images().len(), n);
}

fn user_inputs(ops: Vec<Op>) -> Vec<(String, Vec<ImageAttachment>)> {
    ops.into_iter()
        .filter_map(|op| match op {
            Op::UserInput { text, images } => Some((text, images)),
            _ => None,
        })
        .collect()
}

fn start_turn(app: &mut App) {
    crate::tui::engine_link::on_engine_event(app, Event::TurnStarted(TurnStarted { turn_id: 1 }));
    assert!(app.turn_running);
}

fn end_turn(app: &mut App) {
    crate::tui::engine_link::on_engine_event(
        app,
        Event::TurnComplete(TurnComplete {
            turn_id: 1,
            outcome: TurnOutcome::Completed,
        }),
    );
}

fn screen(app: &mut App, width: u16, height: u16) -> String {
    let terminal = draw_app(app, width, height);
    format!("{}", terminal.backend())
}

#[tokio::test]
async fn slash_paste_asks_for_the_clipboard_image() {
    let (_dir, mut app, mut ends, _ops) = attach_app();
    type_text(&mut app, "/paste");
    press(&mut app, KeyCode::Enter);
    assert_eq!(ends.requests_sent(), [AttachRequest::ClipboardImage]);
    assert!(app.composer.is_empty());
    assert_eq!(app.attach.pending(), Some((PendingRead::Clipboard, 1)));
}

#[tokio::test]
async fn slash_image_sends_the_path_and_without_one_says_how() {
    let (_dir, mut app, mut ends, _ops) = attach_app();
    type_text(&mut app, "/image ~/shots/a b.png");
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        ends.requests_sent(),
        [AttachRequest::File {
            path: "~/shots/a b.png".into()
        }]
    );
    assert_eq!(app.attach.pending(), Some((PendingRead::File, 1)));
    image_command(&mut app, "  ");
    assert!(ends.requests_sent().is_empty());
    assert_eq!(
        last_notice(&app).as_deref(),
        Some("usage: /image PATH — attach an image file to the next message")
    );
}

#[tokio::test]
async fn ctrl_v_and_alt_v_read_whatever_the_clipboard_holds() {
    let (_dir, mut app, mut ends, _ops) = attach_app();
    press_with(&mut app, KeyCode::Char('v'), KeyModifiers::CONTROL);
    press_with(&mut app, KeyCode::Char('v'), KeyModifiers::ALT);
    assert_eq!(
        ends.requests_sent(),
        [AttachRequest::ClipboardAny, AttachRequest::ClipboardAny]
    );
    assert!(app.composer.is_empty());
    assert_eq!(app.attach.pending(), Some((PendingRead::Clipboard, 2)));
}

#[tokio::test]
async fn a_pasted_image_uri_goes_to_the_service_not_the_composer() {
    let (_dir, mut app, mut ends, _ops) = attach_app();
    on_terminal_event(&mut app, TermEvent::Paste("file:///tmp/x.png".into()));
    assert_eq!(
        ends.requests_sent(),
        [AttachRequest::PastedPath {
            text: "file:///tmp/x.png".into()
        }]
    );
    assert!(app.composer.is_empty());
}

#[tokio::test]
async fn an_empty_paste_looks_for_an_image_on_the_clipboard() {
    let (_dir, mut app, mut ends, _ops) = attach_app();
    on_terminal_event(&mut app, TermEvent::Paste(String::new()));
    assert_eq!(ends.requests_sent(), [AttachRequest::ClipboardImage]);
    assert!(app.composer.is_empty());
}

#[tokio::test]
async fn an_ordinary_paste_is_typed_in() {
    let (_dir, mut app, mut ends, _ops) = attach_app();
    on_terminal_event(&mut app, TermEvent::Paste("see /tmp/x.png please".into()));
    assert!(ends.requests_sent().is_empty());
    assert_eq!(app.composer.text(), "see /tmp/x.png please");
}

#[tokio::test]
async fn a_huge_paste_stays_fast_and_becomes_a_placeholder() {
    let (_dir, mut app, mut ends, _ops) = attach_app();
    let big = "line of pasted text\n".repeat(500_000);
    let started = std::time::Instant::now();
    on_terminal_event(&mut app, TermEvent::Paste(big.clone()));
    assert!(started.elapsed() < std::time::Duration::from_secs(1));
    assert!(ends.requests_sent().is_empty());
    assert_eq!(app.composer.text().len(), big.len());
}

#[tokio::test]
async fn inserted_text_lands_at_the_cursor_like_a_paste() {
    let (_dir, mut app, ends, _ops) = attach_app();
    type_text(&mut app, "ab");
    press(&mut app, KeyCode::Left);
    press_with(&mut app, KeyCode::Char('v'), KeyModifiers::CONTROL);
    ends.answer(AttachEvent::InsertText {
        text: "X\r\nY".into(),
    });
    deliver_attach_events(&mut app);
    assert_eq!(app.composer.text(), "aX\nYb");
    assert_eq!(app.attach.pending(), None);
}

#[tokio::test]
async fn a_service_notice_goes_to_the_transcript_and_ends_the_wait() {
    let (_dir, mut app, ends, _ops) = attach_app();
    paste_command(&mut app);
    ends.answer(AttachEvent::Notice {
        level: NoticeLevel::Warning,
        text: "no image on the clipboard".into(),
    });
    deliver_attach_events(&mut app);
    assert_eq!(
        last_notice(&app).as_deref(),
        Some("no image on the clipboard")
    );
    assert_eq!(app.attach.pending(), None);
    assert!(!app.attach.has_images());
}

#[tokio::test]
async fn enter_sends_the_text_with_the_images_in_order_and_clears_them() {
    let (_dir, mut app, mut ends, mut ops) = attach_app();
    attach_images(&mut app, &mut ends, 2);
    type_text(&mut app, "what differs?");
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        user_inputs(ops_sent(&mut ops)),
        [(
            "what differs?".to_string(),
            vec![sample_image(1), sample_image(2)]
        )]
    );
    assert!(!app.attach.has_images());
    // Input history keeps the text alone.
    assert_eq!(
        app.composer.history().entries().last().map(String::as_str),
        Some("what differs?")
    );
}

#[tokio::test]
async fn images_alone_can_be_sent() {
    let (_dir, mut app, mut ends, mut ops) = attach_app();
    attach_images(&mut app, &mut ends, 1);
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        user_inputs(ops_sent(&mut ops)),
        [(String::new(), vec![sample_image(1)])]
    );
    assert!(!app.attach.has_images());
    // Nothing attached and nothing typed: Enter sends nothing.
    press(&mut app, KeyCode::Enter);
    assert!(ops_sent(&mut ops).is_empty());
}

#[tokio::test]
async fn references_are_read_off_the_ui_task_and_the_images_wait_for_them() {
    let (dir, mut app, mut ends, mut ops) = attach_app();
    std::fs::write(dir.path().join("notes.txt"), "remember the milk").unwrap();
    if let Some(info) = &mut app.info {
        info.cwd = dir.path().display().to_string();
    }
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    app.app_tx = tx;
    attach_images(&mut app, &mut ends, 1);
    type_text(&mut app, "compare @notes.txt");
    // Enter picks the completion when the path popup is open; the second Enter sends.
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Enter);
    assert!(!app.attach.has_images());
    loop {
        let event = rx.recv().await.unwrap();
        let expanded = matches!(event, AppEvent::ReferencesExpanded { .. });
        app.on_app_event(event);
        if expanded {
            break;
        }
    }
    let sent = user_inputs(ops_sent(&mut ops));
    assert_eq!(sent.len(), 1);
    assert!(sent[0].0.contains("remember the milk"), "{:?}", sent[0].0);
    assert_eq!(sent[0].1, [sample_image(1)]);
}

#[tokio::test]
async fn a_queued_message_keeps_its_images() {
    let (_dir, mut app, mut ends, mut ops) = attach_app();
    app.busy_mode = BusyMode::Queue;
    start_turn(&mut app);
    attach_images(&mut app, &mut ends, 2);
    type_text(&mut app, "and these?");
    press(&mut app, KeyCode::Enter);
    assert!(!app.attach.has_images());
    assert_eq!(app.queue.len(), 1);
    assert!(user_inputs(ops_sent(&mut ops)).is_empty());
    end_turn(&mut app);
    assert_eq!(
        user_inputs(ops_sent(&mut ops)),
        [(
            "and these?".to_string(),
            vec![sample_image(1), sample_image(2)]
        )]
    );
}

#[tokio::test]
async fn a_queued_message_taken_back_brings_its_images_back() {
    let (_dir, mut app, mut ends, _ops) = attach_app();
    start_turn(&mut app);
    attach_images(&mut app, &mut ends, 1);
    type_text(&mut app, "later");
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.queue.len(), 1);
    assert!(!app.attach.has_images());
    press(&mut app, KeyCode::Up);
    assert_eq!(app.composer.text(), "later");
    assert_eq!(app.attach.images(), [sample_image(1)]);
}

#[tokio::test]
async fn a_steer_leaves_the_images_for_the_next_message() {
    let (_dir, mut app, mut ends, mut ops) = attach_app();
    app.busy_mode = BusyMode::Steer;
    start_turn(&mut app);
    attach_images(&mut app, &mut ends, 1);
    type_text(&mut app, "use the red one");
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        ops_sent(&mut ops),
        [Op::Steer {
            text: "use the red one".into()
        }]
    );
    assert_eq!(app.attach.images(), [sample_image(1)]);
    assert_eq!(
        last_notice(&app).as_deref(),
        Some(
            "a steer cannot carry images: it stays attached for your next message \
             (Tab on an empty draft queues the image now)"
        )
    );
    // Tab on the empty draft queues the image alone.
    press(&mut app, KeyCode::Tab);
    assert!(!app.attach.has_images());
    assert_eq!(app.queue.len(), 1);
}

#[tokio::test]
async fn backspace_on_an_empty_draft_removes_the_last_image() {
    let (_dir, mut app, mut ends, _ops) = attach_app();
    attach_images(&mut app, &mut ends, 2);
    type_text(&mut app, "x");
    press(&mut app, KeyCode::Backspace);
    assert_eq!(
        app.attach.images().len(),
        2,
        "the first Backspace edits the text"
    );
    press(&mut app, KeyCode::Backspace);
    assert_eq!(app.attach.images(), [sample_image(1)]);
    assert_eq!(
        app.hint.as_ref().map(|h| h.text.as_str()),
        Some("removed [📎 Image #2]")
    );
}

#[tokio::test]
async fn ctrl_c_clears_the_images_and_the_draft_in_one_press() {
    let (_dir, mut app, mut ends, mut ops) = attach_app();
    attach_images(&mut app, &mut ends, 2);
    type_text(&mut app, "draft");
    press_with(&mut app, KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(!app.attach.has_images());
    assert!(app.composer.is_empty());
    assert!(!app.quit);
    // The next message carries no images.
    type_text(&mut app, "hello");
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        user_inputs(ops_sent(&mut ops)),
        [("hello".to_string(), Vec::new())]
    );
    // Everything is empty now: the usual double Ctrl+C exits.
    press_with(&mut app, KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(!app.quit);
    press_with(&mut app, KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(app.quit);
}

#[tokio::test]
async fn ctrl_c_drops_the_answer_to_a_request_still_waiting() {
    let (_dir, mut app, ends, _ops) = attach_app();
    paste_command(&mut app);
    press_with(&mut app, KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(!app.quit);
    assert!(
        app.ctrl_c_armed.is_none(),
        "cancelling is not the first exit press"
    );
    attached(&ends, &mut app, 1);
    assert!(!app.attach.has_images());
    assert_eq!(app.attach.pending(), None);
}

#[tokio::test]
async fn ctrl_c_during_a_turn_interrupts_and_keeps_the_images() {
    let (_dir, mut app, mut ends, mut ops) = attach_app();
    start_turn(&mut app);
    attach_images(&mut app, &mut ends, 1);
    press_with(&mut app, KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert_eq!(ops_sent(&mut ops), [Op::Interrupt]);
    assert_eq!(app.attach.images(), [sample_image(1)]);
}

#[tokio::test]
async fn without_a_service_requests_explain_themselves() {
    let (_dir, mut app, _ops) = setup();
    paste_command(&mut app);
    assert_eq!(
        last_notice(&app).as_deref(),
        Some("images cannot be attached: attachments are not available in tests")
    );
    // A pasted image path is still typed in, with the same explanation.
    on_terminal_event(&mut app, TermEvent::Paste("/tmp/shot.png".into()));
    assert_eq!(app.composer.text(), "/tmp/shot.png");
    let notices = app
        .transcript
        .entries()
        .iter()
        .filter(|e| matches!(e.cell(), Cell::Notice { .. }))
        .count();
    assert_eq!(notices, 2);
    assert_eq!(app.attach.pending(), None);
}

#[tokio::test]
async fn a_stopped_service_is_reported_and_nothing_stays_pending() {
    let (_dir, mut app, ends, _ops) = attach_app();
    paste_command(&mut app);
    drop(ends);
    service_ended(&mut app);
    assert_eq!(app.attach.pending(), None);
    paste_command(&mut app);
    assert_eq!(
        last_notice(&app).as_deref(),
        Some("images cannot be attached: the attach service has stopped")
    );
}

#[test]
fn sizes_read_like_a_file_manager() {
    assert_eq!(format_size(512), "512 B");
    assert_eq!(format_size(86_000), "84 KB");
    assert_eq!(format_size(3_565_158), "3.4 MB");
    assert_eq!(
        image_line(1, &sample_image(3)),
        "Image #1 · image_20261130_031512_123.png · 1280×720 · 84 KB"
    );
}

// Screens.

#[tokio::test]
async fn snapshot_one_badge() {
    let (_dir, mut app, mut ends, _ops) = attach_app();
    attach_images(&mut app, &mut ends, 1);
    app.hint = None;
    insta::assert_snapshot!("attach_one_badge", screen(&mut app, 80, 12));
}

#[tokio::test]
async fn snapshot_two_badges_with_a_draft() {
    let (_dir, mut app, mut ends, _ops) = attach_app();
    attach_images(&mut app, &mut ends, 2);
    type_text(&mut app, "what is different between these?");
    app.hint = None;
    insta::assert_snapshot!("attach_two_badges", screen(&mut app, 80, 12));
}

#[tokio::test]
async fn snapshot_many_badges_cut_with_a_count() {
    let (_dir, mut app, mut ends, _ops) = attach_app();
    attach_images(&mut app, &mut ends, 7);
    app.hint = None;
    insta::assert_snapshot!("attach_many_badges", screen(&mut app, 80, 12));
}

#[tokio::test]
async fn snapshot_pending() {
    let (_dir, mut app, mut ends, _ops) = attach_app();
    attach_images(&mut app, &mut ends, 1);
    app.hint = None;
    press_with(&mut app, KeyCode::Char('v'), KeyModifiers::CONTROL);
    insta::assert_snapshot!("attach_pending", screen(&mut app, 80, 12));
}

#[tokio::test]
async fn snapshot_after_backspace_removal() {
    let (_dir, mut app, mut ends, _ops) = attach_app();
    attach_images(&mut app, &mut ends, 2);
    press(&mut app, KeyCode::Backspace);
    insta::assert_snapshot!("attach_after_backspace", screen(&mut app, 80, 12));
}

#[tokio::test]
async fn snapshot_after_ctrl_c_clear() {
    let (_dir, mut app, mut ends, _ops) = attach_app();
    attach_images(&mut app, &mut ends, 2);
    type_text(&mut app, "never mind");
    press_with(&mut app, KeyCode::Char('c'), KeyModifiers::CONTROL);
    insta::assert_snapshot!("attach_after_ctrl_c", screen(&mut app, 80, 12));
}

#[tokio::test]
async fn snapshot_sent_messages_with_images() {
    let (_dir, mut app, mut ends, _ops) = attach_app();
    attach_images(&mut app, &mut ends, 2);
    type_text(&mut app, "what is in these screenshots?");
    press(&mut app, KeyCode::Enter);
    // Then an image alone.
    paste_command(&mut app);
    attached(&ends, &mut app, 3);
    press(&mut app, KeyCode::Enter);
    app.hint = None;
    insta::assert_snapshot!("attach_sent_messages", screen(&mut app, 80, 14));
}

#[tokio::test]
async fn snapshot_replayed_message_with_images() {
    let (_dir, mut app, _ends, _ops) = attach_app();
    crate::tui::engine_link::on_engine_event(
        &mut app,
        Event::HistoryReplay(HistoryReplay {
            messages: vec![
                ReplayMessage::User {
                    text: "what does this chart show?".into(),
                    images: vec![
                        "/home/u/.hermes/images/image_20261130_031512_121.png".into(),
                        "/home/u/.hermes/images/image_20261130_031514_007.png".into(),
                    ],
                },
                ReplayMessage::Assistant {
                    text: "Sales doubled in March.".into(),
                },
            ],
        }),
    );
    insta::assert_snapshot!("attach_replayed_message", screen(&mut app, 80, 12));
}

#[tokio::test]
async fn snapshot_unavailable_notice() {
    let (_dir, mut app, _ops) = setup();
    type_text(&mut app, "/paste");
    press(&mut app, KeyCode::Enter);
    insta::assert_snapshot!("attach_unavailable", screen(&mut app, 80, 12));
}
