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
    // Joined over the stream: another test may have registered a value whose start the
    // text's tail spells, and then the tail is held until the next event (as it should be).
    let text = "use OPENAI_API_KEY=sk-proj-abcdefghijklmnop1234 in .env";
    let out = through_one_sink(vec![
        delta(1, text),
        Event::Notice(Notice {
            level: NoticeLevel::Info,
            text: "done".into(),
        }),
    ]);
    let shown: String = out
        .iter()
        .filter_map(|e| match e {
            Event::MessageDelta(d) => Some(d.text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(shown, text);
}

/// Sends every event through one sink and returns what the frontend receives, in order.
fn through_one_sink(events: Vec<Event>) -> Vec<Event> {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let sink = EventSink::new(tx);
    for event in events {
        sink.send(event);
    }
    let mut out = Vec::new();
    while let Ok(event) = rx.try_recv() {
        out.push(event);
    }
    out
}

fn delta(turn_id: u64, text: &str) -> Event {
    Event::MessageDelta(MessageDelta {
        turn_id,
        text: text.into(),
    })
}

fn texts_of(events: &[Event]) -> (String, Vec<String>) {
    let mut deltas = String::new();
    let mut completes = Vec::new();
    for event in events {
        match event {
            Event::MessageDelta(d) => deltas.push_str(&d.text),
            Event::MessageComplete(m) => completes.push(m.text.clone()),
            _ => {}
        }
    }
    (deltas, completes)
}

#[test]
fn a_known_key_split_across_deltas_is_masked_and_the_message_matches() {
    let key = "Spl1tKey9xQ2mP7vR4tL";
    crate::util::redact::register_known_secret(key);
    let whole = format!("your key: {key}.");
    let out = through_one_sink(vec![
        delta(4, "your key: Spl1tK"),
        delta(4, "ey9xQ2mP7vR4tL"),
        delta(4, "."),
        Event::MessageComplete(crate::protocol::MessageComplete {
            turn_id: 4,
            text: whole,
            reasoning: None,
        }),
    ]);
    let (deltas, completes) = texts_of(&out);
    assert_eq!(deltas, "your key: ***.");
    assert_eq!(completes, vec!["your key: ***.".to_owned()]);
    assert!(
        out.iter().all(|e| !format!("{e:?}").contains("Spl1tK")),
        "{out:?}"
    );
}

#[test]
fn a_held_tail_is_released_before_the_event_that_ends_its_stream() {
    let key = "Ta1lKey9xQ2mP7vR4tLw";
    crate::util::redact::register_known_secret(key);
    let progress = |text: &str| {
        Event::ToolProgress(ToolProgress {
            call_id: "c1".into(),
            text: text.into(),
        })
    };
    let complete = Event::ToolComplete(ToolComplete {
        call_id: "c1".into(),
        name: "terminal".into(),
        status: ToolStatus::Ok,
        output: "out Ta1l".into(),
        duration_ms: 1,
    });
    let out = through_one_sink(vec![
        delta(5, "ends with Ta1lK"),
        Event::MessageStart(crate::protocol::MessageStart { turn_id: 6 }),
        progress("out Ta1l"),
        complete.clone(),
    ]);
    assert_eq!(
        out,
        vec![
            delta(5, "ends with "),
            delta(5, "Ta1lK"),
            Event::MessageStart(crate::protocol::MessageStart { turn_id: 6 }),
            progress("out "),
            progress("Ta1l"),
            complete,
        ]
    );
}

/// The cost of cleaning streamed deltas with a registered value: the JSON walk every event
/// took before, against the per-stream path. Run with
/// `cargo test --release --lib engine::events::tests::delta_cleaning_cost -- --ignored --nocapture`.
#[test]
#[ignore = "a timing measurement, not a check"]
fn delta_cleaning_cost() {
    crate::util::redact::register_known_secrets(["C0stKey9xQ2mP7vR4tLw", "Other-Vq81Lm0zXp"]);
    let n = 100_000;
    let deltas: Vec<Event> = (0..n)
        .map(|i| delta(7, &format!("word{} and more text ", i % 97)))
        .collect();
    let started = std::time::Instant::now();
    let json: usize = deltas
        .iter()
        .cloned()
        .map(|e| usize::from(matches!(without_secrets_by_json(e), Event::MessageDelta(_))))
        .sum();
    let json_time = started.elapsed();
    let started = std::time::Instant::now();
    let direct: usize = deltas
        .iter()
        .cloned()
        .map(|e| usize::from(matches!(without_secrets(e), Event::MessageDelta(_))))
        .sum();
    let direct_time = started.elapsed();
    assert_eq!(direct, n);
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let sink = EventSink::new(tx);
    let started = std::time::Instant::now();
    for event in deltas {
        sink.send(event);
    }
    let sink_time = started.elapsed();
    let mut received = 0;
    while rx.try_recv().is_ok() {
        received += 1;
    }
    assert_eq!((json, received), (n, n));
    let each = |t: std::time::Duration| t.as_secs_f64() * 1e6 / n as f64;
    eprintln!(
        "{n} deltas: JSON walk {json_time:?} ({:.2} µs each), field masking {direct_time:?} \
         ({:.2} µs each), the whole per-stream send {sink_time:?} ({:.2} µs each)",
        each(json_time),
        each(direct_time),
        each(sink_time),
    );
}
