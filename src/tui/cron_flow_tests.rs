use pretty_assertions::assert_eq;

use super::*;
use crate::protocol::CronDelivery;
use crate::protocol::Event;
use crate::tui::engine_link::on_engine_event;
use crate::tui::overlays::cron_jobs::tests::jobs;
use crate::tui::test_support::last_notice;
use crate::tui::test_support::ops_sent;
use crate::tui::test_support::setup;

#[tokio::test]
async fn bare_cron_opens_the_jobs_view_and_asks_for_the_list() {
    let (_dir, mut app, mut ops) = setup();
    crate::tui::commands::execute(&mut app, "cron", "");
    assert!(app.overlays.contains::<CronJobsOverlay>());
    assert_eq!(ops_sent(&mut ops), vec![Op::Cron(CronOp::List)]);
}

#[tokio::test]
async fn subcommands_send_one_request_each_with_quoted_schedules() {
    let (_dir, mut app, mut ops) = setup();
    let run = |app: &mut App, args: &str| crate::tui::commands::execute(app, "cron", args);
    run(&mut app, r#"add "every 2h" Check the build --skill triage"#);
    run(&mut app, "pause digest");
    run(&mut app, "resume issue digest");
    run(&mut app, "run a1b2c3d4e5f6");
    run(&mut app, "remove digest");
    assert_eq!(
        ops_sent(&mut ops),
        vec![
            Op::Cron(CronOp::Add {
                schedule: "every 2h".into(),
                prompt: "Check the build".into(),
                skills: vec!["triage".into()],
                name: None,
            }),
            Op::Cron(CronOp::Pause {
                job: "digest".into()
            }),
            Op::Cron(CronOp::Resume {
                job: "issue digest".into()
            }),
            Op::Cron(CronOp::Run {
                job: "a1b2c3d4e5f6".into()
            }),
            Op::Cron(CronOp::Remove {
                job: "digest".into()
            }),
        ]
    );
    run(&mut app, "frobnicate");
    assert!(last_notice(&app).unwrap().starts_with("usage: /cron"));
    assert!(ops_sent(&mut ops).is_empty());
}

#[tokio::test]
async fn a_change_is_said_in_the_chat_with_the_scheduler_warning_when_none_runs() {
    let (_dir, mut app, _ops) = setup();
    let mut list = jobs(false);
    list.changed = "Created 'digest' (a1b2c3d4e5f6): next run 2026-12-04 09:00".into();
    on_engine_event(&mut app, Event::Cron(CronEvent::Jobs(list)));
    let notice = last_notice(&app).unwrap();
    assert!(notice.starts_with("cron: Created 'digest'"), "{notice}");
    assert!(notice.contains("No scheduler is running"), "{notice}");
}

#[tokio::test]
async fn a_delivery_lands_in_the_transcript() {
    let (_dir, mut app, _ops) = setup();
    let delivery = CronDelivery {
        job_id: "a1b2c3d4e5f6".into(),
        job_name: "digest".into(),
        text: "Cronjob Response: digest\n-------------\n\n3 new issues".into(),
        at: "2026-12-03 09:00".into(),
        ..CronDelivery::default()
    };
    let before = app.transcript.len();
    on_engine_event(&mut app, Event::Cron(CronEvent::Delivered(delivery)));
    assert_eq!(app.transcript.len(), before + 1);
}

#[test]
fn the_badge_shows_the_next_job_due_within_the_hour() {
    let list = jobs(true);
    let at = list.jobs[0].next_run_unix.unwrap();
    assert_eq!(badge(&list, at - 600), "⏰ digest 09:00");
    assert_eq!(badge(&list, at - 3601), "", "more than an hour away");
    let mut paused = list;
    paused.jobs[0].state = "paused".into();
    assert_eq!(badge(&paused, at - 600), "");
}
