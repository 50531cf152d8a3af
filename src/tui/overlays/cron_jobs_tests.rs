use crossterm::event::KeyModifiers;
use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

pub(crate) fn jobs(alive: bool) -> CronJobs {
    CronJobs {
        jobs: vec![
            CronJobView {
                id: "a1b2c3d4e5f6".into(),
                name: "digest".into(),
                schedule: "0 9 * * 1-5".into(),
                schedule_words: "At 09:00 on Monday through Friday".into(),
                next_run: Some("2026-12-04 09:00".into()),
                next_run_unix: Some(1_796_371_200),
                state: "scheduled".into(),
                last_status: Some("ok".into()),
                last_run: Some("2026-12-03 09:00".into()),
                deliver: "origin".into(),
                ..CronJobView::default()
            },
            CronJobView {
                id: "0f9e8d7c6b5a".into(),
                name: "disk watch".into(),
                schedule: "every 5m".into(),
                schedule_words: "every 5 minutes".into(),
                state: "paused".into(),
                last_status: Some("error".into()),
                last_error: Some("Script exited with code 1".into()),
                last_run: Some("2026-12-03 08:55".into()),
                deliver: "local".into(),
                ..CronJobView::default()
            },
        ],
        scheduler: if alive {
            "Scheduler running (this hermes); last tick 3s ago.".into()
        } else {
            "No scheduler is running for this HERMES_HOME, so jobs will not fire. Start one: \
             keep hermes open (the TUI runs the scheduler), run `hermes cron daemon`."
                .into()
        },
        scheduler_alive: alive,
        changed: String::new(),
    }
}

fn screen(overlay: &mut CronJobsOverlay) -> TestBackend {
    let theme = Theme::default();
    let mut terminal = Terminal::new(TestBackend::new(110, 14)).unwrap();
    terminal
        .draw(|f| overlay.render(f.area(), f.buffer_mut(), &theme))
        .unwrap();
    terminal.backend().clone()
}

#[test]
fn cron_jobs_loading_snapshot() {
    insta::assert_snapshot!("cron_jobs_loading", screen(&mut CronJobsOverlay::new()));
}

#[test]
fn cron_jobs_list_snapshot() {
    let mut overlay = CronJobsOverlay::new();
    overlay.set_list(&jobs(true));
    insta::assert_snapshot!("cron_jobs_list", screen(&mut overlay));
}

#[test]
fn cron_jobs_without_a_scheduler_and_a_failed_job_snapshot() {
    let mut overlay = CronJobsOverlay::new();
    overlay.set_list(&jobs(false));
    overlay.handle_key(KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
    insta::assert_snapshot!("cron_jobs_no_scheduler", screen(&mut overlay));
}

#[test]
fn cron_jobs_empty_snapshot() {
    let mut overlay = CronJobsOverlay::new();
    overlay.set_list(&CronJobs::default());
    insta::assert_snapshot!("cron_jobs_empty", screen(&mut overlay));
}

#[test]
fn keys_pause_resume_run_and_remove_after_a_second_press() {
    let mut overlay = CronJobsOverlay::new();
    assert!(
        matches!(overlay.handle_key(key('p')), OverlayAction::None),
        "nothing to act on while loading"
    );
    overlay.set_list(&jobs(true));
    let sent = |action: OverlayAction| match action {
        OverlayAction::Send(Op::Cron(op)) => Some(op),
        _ => None,
    };
    assert_eq!(
        sent(overlay.handle_key(key('p'))),
        Some(CronOp::Pause {
            job: "a1b2c3d4e5f6".into()
        })
    );
    assert_eq!(
        sent(overlay.handle_key(key('r'))),
        Some(CronOp::Run {
            job: "a1b2c3d4e5f6".into()
        })
    );
    assert_eq!(sent(overlay.handle_key(key('d'))), None, "one d only asks");
    assert_eq!(
        sent(overlay.handle_key(key('d'))),
        Some(CronOp::Remove {
            job: "a1b2c3d4e5f6".into()
        })
    );
    overlay.handle_key(KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
    assert_eq!(
        sent(overlay.handle_key(key('p'))),
        Some(CronOp::Resume {
            job: "0f9e8d7c6b5a".into()
        })
    );
    assert!(matches!(
        overlay.handle_key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)),
        OverlayAction::Close
    ));
}
