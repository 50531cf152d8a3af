use std::sync::Arc;

use super::*;
use crate::cron::CronPaths;
use crate::cron::SystemClock;
use crate::cron::home::CronSettings;
use crate::cron::time::CronZone;

fn link() -> (tempfile::TempDir, Arc<CronLink>) {
    let dir = tempfile::tempdir().unwrap();
    let home = CronHome::new(
        CronPaths::under(dir.path().to_path_buf()),
        CronZone::utc(),
        Arc::new(SystemClock),
        CronSettings::default(),
    );
    (dir, CronLink::for_home(home))
}

fn delivery(origin: Option<&str>, text: &str) -> Delivery {
    Delivery {
        job_id: "a1".into(),
        job_name: "digest".into(),
        text: text.into(),
        origin_session: origin.map(str::to_string),
        output_path: String::new(),
        at: "2026-12-03 09:00".into(),
        failed: false,
    }
}

async fn next_delivery(rx: &mut tokio::sync::mpsc::UnboundedReceiver<Event>) -> CronDelivery {
    loop {
        let event = tokio::time::timeout(Duration::from_secs(10), rx.recv())
            .await
            .expect("no delivery arrived")
            .expect("the stream ended");
        if let Event::Cron(CronEvent::Delivered(d)) = event {
            return d;
        }
    }
}

#[tokio::test]
async fn results_reach_the_session_that_made_the_job_and_others_wait_in_the_inbox() {
    let (_dir, link) = link();
    // Kept from a run while no TUI was open: shown when the first session starts.
    link.deliver(delivery(Some("gone"), "while you were away"));
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(Arc::clone(&link).forward(
        EventSink::new(tx),
        "mine".into(),
        CancellationToken::new(),
    ));
    assert_eq!(next_delivery(&mut rx).await.text, "while you were away");
    // The forwarder subscribes once it has started; wait for it.
    while link.deliveries.receiver_count() == 0 {
        tokio::task::yield_now().await;
    }
    link.deliver(delivery(Some("mine"), "for me"));
    assert_eq!(next_delivery(&mut rx).await.text, "for me");
    // A job made in another hermes's session: kept for that one, not shown here.
    link.deliver(delivery(Some("elsewhere"), "for the other TUI"));
    let waiting = std::fs::read_to_string(&link.home.paths.deliveries).unwrap();
    assert!(waiting.contains("for the other TUI"), "{waiting}");
    // Another hermes's scheduler ran a job of this process: picked up from the inbox.
    Inbox::new(&link.home.paths.deliveries)
        .push(&delivery(Some("mine"), "via the inbox"))
        .unwrap();
    assert_eq!(next_delivery(&mut rx).await.text, "via the inbox");
    let still = std::fs::read_to_string(&link.home.paths.deliveries).unwrap();
    assert!(
        still.contains("for the other TUI") && !still.contains("via the inbox"),
        "{still}"
    );
}

#[test]
fn requests_change_jobs_and_answer_with_the_list() {
    let (_dir, link) = link();
    let added = link
        .answer(
            &CronOp::Add {
                schedule: "every 2h".into(),
                prompt: "Check the build".into(),
                skills: Vec::new(),
                name: Some("build".into()),
            },
            "sess-1",
        )
        .unwrap();
    assert!(
        added.changed.starts_with("Created 'build'"),
        "{}",
        added.changed
    );
    assert_eq!(added.jobs.len(), 1);
    assert_eq!(added.jobs[0].schedule_words, "every 2 hours");
    assert!(!added.scheduler_alive);
    let paused = link
        .answer(
            &CronOp::Pause {
                job: "build".into(),
            },
            "s",
        )
        .unwrap();
    assert_eq!(
        (paused.changed.as_str(), paused.jobs[0].state.as_str()),
        ("Paused 'build'", "paused")
    );
    assert_eq!(
        paused.jobs[0].next_run, None,
        "a paused job has no next run to show"
    );
    let refused = link
        .answer(&CronOp::Run { job: "nope".into() }, "s")
        .unwrap_err();
    assert!(refused.contains("'nope' not found"), "{refused}");
    let removed = link
        .answer(
            &CronOp::Remove {
                job: "build".into(),
            },
            "s",
        )
        .unwrap();
    assert!(removed.jobs.is_empty());
}
