use super::*;
use crate::protocol::ErrorEvent;
use crate::protocol::ErrorKind;
use crate::protocol::MessageDelta;
use crate::protocol::ToolComplete;
use crate::protocol::ToolStatus;

/// Sends `event` through a sink and returns what the frontend receives.
fn through_sink(event: Event) -> Event {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    EventSink::new(tx).send(event);
    rx.try_recv().unwrap()
}

#[test]
fn an_echoed_known_key_never_leaves_the_engine() {
    let key = "Ev3ntKey9xQ2mP7vR4tL";
    crate::util::redact::register_known_secret(key);
    let error = through_sink(Event::Error(ErrorEvent {
        kind: ErrorKind::Auth,
        text: format!("authentication failed (HTTP 401): Incorrect API key provided: {key}"),
    }));
    assert_eq!(
        error,
        Event::Error(ErrorEvent {
            kind: ErrorKind::Auth,
            text: "authentication failed (HTTP 401): Incorrect API key provided: ***".into(),
        })
    );
    let delta = through_sink(Event::MessageDelta(MessageDelta {
        turn_id: 3,
        text: format!("the key is {key}."),
    }));
    assert_eq!(
        delta,
        Event::MessageDelta(MessageDelta {
            turn_id: 3,
            text: "the key is ***.".into(),
        })
    );
    let tool = through_sink(Event::ToolComplete(ToolComplete {
        call_id: key.into(),
        name: "terminal".into(),
        status: ToolStatus::Ok,
        output: format!("{key}\n"),
        duration_ms: 5,
    }));
    let Event::ToolComplete(tool) = tool else {
        panic!("not a tool event: {tool:?}");
    };
    assert_eq!(
        (tool.call_id.as_str(), tool.output.as_str()),
        ("***", "***\n")
    );
}

#[test]
fn notices_get_every_rule_other_events_only_the_known_values() {
    let notice = through_sink(Event::Notice(Notice {
        level: NoticeLevel::Warning,
        text: "mcp: server said OPENAI_API_KEY=sk-proj-abcdefghijklmnop1234".into(),
    }));
    assert_eq!(
        notice,
        Event::Notice(Notice {
            level: NoticeLevel::Warning,
            text: "mcp: server said OPENAI_API_KEY=***".into(),
        })
    );
    // The model's own text is shown as written, apart from known values.
    let text = "use OPENAI_API_KEY=sk-proj-abcdefghijklmnop1234 in .env";
    let delta = Event::MessageDelta(MessageDelta {
        turn_id: 1,
        text: text.into(),
    });
    assert_eq!(through_sink(delta.clone()), delta);
}
