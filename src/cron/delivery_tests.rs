use super::*;

#[test]
fn the_inbox_keeps_deliveries_until_taken() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::new(&dir.path().join("cron/deliveries.jsonl"));
    assert!(inbox.take_all().unwrap().is_empty());
    let d = Delivery {
        job_id: "a".into(),
        job_name: "digest".into(),
        text: "hello\nworld".into(),
        origin_session: Some("s1".into()),
        output_path: "/x.md".into(),
        at: "now".into(),
        failed: false,
    };
    inbox.deliver(d.clone());
    inbox.deliver(d.clone());
    assert_eq!(inbox.take_all().unwrap(), [d.clone(), d]);
    assert!(inbox.take_all().unwrap().is_empty());
}

#[test]
fn targets_name_what_hermes_cannot_deliver() {
    assert_eq!(
        targets("origin, local,telegram:123"),
        [
            Target::Origin,
            Target::Local,
            Target::Unsupported("telegram:123".into())
        ]
    );
}

#[test]
fn taking_some_leaves_the_others_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = Inbox::new(&dir.path().join("cron/deliveries.jsonl"));
    let to = |session: &str| Delivery {
        job_id: "a".into(),
        job_name: session.into(),
        text: "t".into(),
        origin_session: Some(session.into()),
        output_path: String::new(),
        at: String::new(),
        failed: false,
    };
    inbox.deliver(to("mine"));
    inbox.deliver(to("theirs"));
    let taken = inbox
        .take_matching(|d| d.origin_session.as_deref() == Some("mine"))
        .unwrap();
    assert_eq!(taken, [to("mine")]);
    assert_eq!(inbox.take_all().unwrap(), [to("theirs")]);
}
