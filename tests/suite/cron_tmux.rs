//! Scheduled jobs in the TUI as a user meets them, in tmux with the real binary against the
//! scripted provider: `/cron add` makes a job (the chat says so and the status bar shows it
//! once it is due within the hour), `/cron run` fires it at the next tick of the TUI's own
//! scheduler and its result lands in the chat, the jobs overlay shows its last result and
//! removes it with `d d`; a result that finished while no TUI was open is shown at start.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::time::Duration;

use support::Response;
use support::ScriptedServer;
use support::tmux::Tmux;
use support::tmux_app::TmuxApp;

const WAIT: Duration = Duration::from_secs(30);

#[test]
fn add_run_see_the_result_and_remove_a_job_in_the_tui() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let server = ScriptedServer::start_on_own_thread([Response::text(["The queue is empty."])]);
    let app = TmuxApp::new(&server, "");
    // A result kept from a run while no TUI was open.
    std::fs::create_dir_all(app.home().join("cron")).unwrap();
    std::fs::write(
        app.home().join("cron/deliveries.jsonl"),
        "{\"job_id\":\"abc\",\"job_name\":\"nightly\",\"text\":\"Kept while you were away\",\"output_path\":\"/x.md\",\"at\":\"2026-12-03 03:00\",\"failed\":false}\n",
    )
    .unwrap();
    let tmux = app.start();
    let screen = tmux.wait_for_chat_text("Kept while you were away", WAIT);
    assert!(screen.contains("nightly finished"), "{screen}");
    assert!(
        !app.home().join("cron/deliveries.jsonl").exists(),
        "the inbox was not emptied"
    );

    tmux.type_text("/cron add \"every 30m\" Check the queue");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_chat_text("cron: Created 'Check the queue'", WAIT);
    assert!(
        !screen.contains("No scheduler is running"),
        "the TUI's scheduler is not alive:\n{screen}"
    );
    tmux.wait_for_text("⏰ Check the queue", WAIT);

    tmux.type_text("/cron run Check the queue");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_chat_text("The queue is empty.", WAIT);
    assert!(screen.contains("Check the queue finished"), "{screen}");
    assert!(
        screen.contains("Cronjob Response: Check the queue"),
        "{screen}"
    );

    tmux.type_text("/cron");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_text("p pause/resume", WAIT);
    assert!(screen.contains("every 30 minutes"), "{screen}");
    assert!(screen.contains("last ok"), "{screen}");
    assert!(
        screen.contains("Scheduler running (this hermes)"),
        "{screen}"
    );
    tmux.keys(&["d"]);
    tmux.wait_for_text("press d again", WAIT);
    tmux.keys(&["d"]);
    tmux.wait_for_text("No scheduled jobs.", WAIT);
    tmux.keys(&["Escape"]);
    let jobs = std::fs::read_to_string(app.home().join("cron/jobs.json")).unwrap();
    assert!(!jobs.contains("Check the queue"), "{jobs}");
}
