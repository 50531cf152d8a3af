//! The scheduler driven by a fake clock and a fake runner: no test sleeps for a schedule.

use std::sync::Arc;
use std::sync::Mutex;

use async_trait::async_trait;
use jiff::SignedDuration;
use jiff::Timestamp;

use super::*;
use crate::cron::AgentOutcome;
use crate::cron::AgentRun;
use crate::cron::CronPaths;
use crate::cron::clock::FixedClock;
use crate::cron::home::CronSettings;
use crate::cron::ops;
use crate::cron::ops::IncludeDisabled;
use crate::cron::ops::NewJob;
use crate::cron::time::CronZone;

#[derive(Default)]
struct FakeRunner {
    prompts: Mutex<Vec<String>>,
    reply: Mutex<String>,
    hold: Option<Arc<tokio::sync::Notify>>,
}

#[async_trait]
impl JobRunner for FakeRunner {
    async fn run_agent(&self, run: AgentRun) -> AgentOutcome {
        self.prompts.lock().unwrap().push(run.prompt.clone());
        if let Some(hold) = &self.hold {
            hold.notified().await;
        }
        AgentOutcome {
            final_response: self.reply.lock().unwrap().clone(),
            exit_reason: "completed".into(),
            input_tokens: 12,
            output_tokens: 3,
            ..AgentOutcome::default()
        }
    }
}

#[derive(Default)]
struct Sink(Mutex<Vec<Delivery>>);

impl DeliverySink for Sink {
    fn deliver(&self, delivery: Delivery) {
        self.0.lock().unwrap().push(delivery);
    }
}

struct Rig {
    _dir: tempfile::TempDir,
    clock: Arc<FixedClock>,
    home: Arc<CronHome>,
    runner: Arc<FakeRunner>,
    sink: Arc<Sink>,
}

fn rig_in(zone: &str, start: &str) -> Rig {
    rig_with(zone, start, FakeRunner::default())
}

fn rig_with(zone: &str, start: &str, runner: FakeRunner) -> Rig {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(FixedClock::new(start.parse().unwrap()));
    let home = CronHome::new(
        CronPaths::under(dir.path().to_path_buf()),
        CronZone::named(zone).unwrap(),
        Arc::clone(&clock) as Arc<dyn crate::cron::Clock>,
        CronSettings::default(),
    );
    *runner.reply.lock().unwrap() = "All good.".into();
    Rig {
        _dir: dir,
        clock,
        home: Arc::new(home),
        runner: Arc::new(runner),
        sink: Arc::new(Sink::default()),
    }
}

impl Rig {
    fn scheduler(&self) -> Scheduler {
        let runner: Arc<dyn JobRunner> = Arc::clone(&self.runner) as Arc<dyn JobRunner>;
        let sink: Arc<dyn DeliverySink> = Arc::clone(&self.sink) as Arc<dyn DeliverySink>;
        Scheduler::new(Arc::clone(&self.home), runner, sink).unwrap()
    }

    fn create(&self, schedule: &str, prompt: &str) -> Job {
        ops::create(
            &self.home,
            NewJob {
                schedule: schedule.into(),
                prompt: prompt.into(),
                deliver: Some("origin".into()),
                ..NewJob::default()
            },
        )
        .unwrap()
    }

    async fn tick(&self, scheduler: &Scheduler) -> TickReport {
        let mut runs = JoinSet::new();
        let report = scheduler
            .tick(&mut runs, &CancellationToken::new())
            .unwrap();
        while runs.join_next().await.is_some() {}
        report
    }

    fn job(&self, id: &str) -> Option<Job> {
        ops::list(&self.home, IncludeDisabled::Yes)
            .unwrap()
            .into_iter()
            .find(|j| j.id() == id)
    }

    fn at(&self, text: &str) {
        self.clock.set(text.parse::<Timestamp>().unwrap());
    }

    fn runs(&self) -> usize {
        self.runner.prompts.lock().unwrap().len()
    }
}

#[tokio::test]
async fn a_recurring_job_fires_when_due_and_not_before() {
    let rig = rig_in("Europe/Berlin", "2026-06-01T06:00:00Z");
    let job = rig.create("0 9 * * *", "Summarise the news");
    assert_eq!(job.next_run_at(), Some("2026-06-01T09:00:00+02:00"));
    let scheduler = rig.scheduler();
    rig.at("2026-06-01T06:59:59Z");
    assert!(rig.tick(&scheduler).await.started.is_empty());
    rig.at("2026-06-01T07:00:10Z");
    assert_eq!(rig.tick(&scheduler).await.started, [job.id().to_string()]);
    assert_eq!(rig.runs(), 1);
    let after = rig.job(job.id()).unwrap();
    assert_eq!(after.next_run_at(), Some("2026-06-02T09:00:00+02:00"));
    assert_eq!(after.text("last_status"), Some("ok"));
    assert!(
        rig.tick(&scheduler).await.started.is_empty(),
        "ran twice in one slot"
    );
    let prompt = rig.runner.prompts.lock().unwrap()[0].clone();
    assert!(prompt.starts_with("[IMPORTANT: You are running as a scheduled cron job."));
    assert!(prompt.ends_with("Summarise the news"));
}

#[tokio::test]
async fn a_six_hour_sleep_runs_a_missed_job_once_and_moves_it_to_the_future() {
    let rig = rig_in("America/New_York", "2026-06-01T12:00:00Z");
    let job = rig.create("every 1h", "check the queue");
    let scheduler = rig.scheduler();
    rig.clock.advance(SignedDuration::from_hours(6));
    assert_eq!(rig.tick(&scheduler).await.started.len(), 1);
    assert!(rig.tick(&scheduler).await.started.is_empty());
    assert_eq!(rig.runs(), 1, "a missed hourly job ran more than once");
    let next = rig.job(job.id()).unwrap();
    let next_at = rig.home.zone.parse(next.next_run_at().unwrap()).unwrap();
    assert!(
        next_at > rig.home.now(),
        "next run {next_at} is not in the future"
    );
    rig.clock.advance(SignedDuration::from_mins(61));
    assert_eq!(rig.tick(&scheduler).await.started.len(), 1);
}

#[tokio::test]
async fn daily_jobs_fire_at_local_nine_across_spring_forward_and_fall_back() {
    for (zone, days) in [
        (
            "America/New_York",
            [
                ("2026-03-07", "14:00"),
                ("2026-03-08", "13:00"),
                ("2026-10-31", "13:00"),
                ("2026-11-01", "14:00"),
            ],
        ),
        (
            "Europe/Berlin",
            [
                ("2026-03-28", "08:00"),
                ("2026-03-29", "07:00"),
                ("2026-10-24", "07:00"),
                ("2026-10-25", "08:00"),
            ],
        ),
    ] {
        let rig = rig_in(zone, "2026-03-07T00:00:00Z");
        let job = rig.create("0 9 * * *", "morning report");
        let scheduler = rig.scheduler();
        for (day, utc) in days {
            // Pretend the laptop slept until an hour before: the stored time is recomputed.
            let slot: Timestamp = format!("{day}T{utc}:00Z").parse().unwrap();
            rig.clock
                .set(slot.checked_sub(SignedDuration::from_mins(1)).unwrap());
            ops::resume(&rig.home, job.id()).unwrap();
            let before = rig.runs();
            assert!(
                rig.tick(&scheduler).await.started.is_empty(),
                "{zone} {day}: fired early"
            );
            rig.clock
                .set(slot.checked_add(SignedDuration::from_secs(5)).unwrap());
            assert_eq!(
                rig.tick(&scheduler).await.started.len(),
                1,
                "{zone} {day}: did not fire at 09:00 local"
            );
            assert_eq!(rig.runs(), before + 1);
        }
    }
}

#[tokio::test]
async fn a_one_shot_runs_once_and_is_removed() {
    let rig = rig_in("UTC", "2026-06-01T10:00:00Z");
    let job = rig.create("30m", "remind me to stretch");
    let scheduler = rig.scheduler();
    rig.at("2026-06-01T10:30:01Z");
    assert_eq!(rig.tick(&scheduler).await.started.len(), 1);
    assert!(
        rig.job(job.id()).is_none(),
        "a one-shot stayed after its run"
    );
    assert!(rig.tick(&scheduler).await.started.is_empty());
    let delivered = rig.sink.0.lock().unwrap().clone();
    assert_eq!(delivered.len(), 1);
    assert!(
        delivered[0]
            .text
            .starts_with("Cronjob Response: remind me to stretch\n-------------\n\nAll good.")
    );
    assert!(std::path::Path::new(&delivered[0].output_path).is_file());
}

#[tokio::test]
async fn silent_answers_are_not_delivered_but_failures_always_are() {
    let rig = rig_in("UTC", "2026-06-01T10:00:00Z");
    let job = rig.create("every 5m", "watch");
    let scheduler = rig.scheduler();
    *rig.runner.reply.lock().unwrap() = "[SILENT]".into();
    rig.at("2026-06-01T10:05:00Z");
    rig.tick(&scheduler).await;
    assert!(rig.sink.0.lock().unwrap().is_empty());
    assert_eq!(
        crate::cron::output::files(&rig.home.paths.output_dir, job.id()).len(),
        1
    );
    *rig.runner.reply.lock().unwrap() = "   ".into();
    rig.at("2026-06-01T10:10:00Z");
    rig.tick(&scheduler).await;
    let delivered = rig.sink.0.lock().unwrap().clone();
    assert_eq!(delivered.len(), 1);
    assert!(delivered[0].failed);
    assert!(
        delivered[0]
            .text
            .contains("⚠️ Cron 'watch' failed: Agent completed but produced empty response")
    );
    let after = rig.job(job.id()).unwrap();
    assert_eq!(after.text("last_status"), Some("error"));
}

#[tokio::test]
async fn a_platform_target_is_reported_not_pretended() {
    let rig = rig_in("UTC", "2026-06-01T10:00:00Z");
    let job = ops::create(
        &rig.home,
        NewJob {
            schedule: "every 5m".into(),
            prompt: "status".into(),
            deliver: Some("telegram".into()),
            ..NewJob::default()
        },
    )
    .unwrap();
    let scheduler = rig.scheduler();
    rig.at("2026-06-01T10:05:00Z");
    rig.tick(&scheduler).await;
    let after = rig.job(job.id()).unwrap();
    assert!(
        after
            .text("last_delivery_error")
            .unwrap()
            .contains("'telegram' is a messaging platform")
    );
    assert_eq!(after.text("last_status"), Some("ok"));
}

#[tokio::test]
async fn the_ledger_records_claimed_running_completed_with_duration_and_tokens() {
    let rig = rig_in("UTC", "2026-06-01T10:00:00Z");
    let job = rig.create("every 5m", "status");
    let scheduler = rig.scheduler();
    rig.at("2026-06-01T10:05:00Z");
    rig.tick(&scheduler).await;
    let ledger = Ledger::open(&rig.home.paths.ledger).unwrap();
    let rows = ledger.list(Some(job.id()), 10).unwrap();
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(row.status, "completed");
    assert_eq!(row.source, "builtin");
    assert!(row.started_at.is_some() && row.finished_at.is_some());
    assert_eq!(row.exit_reason.as_deref(), Some("completed"));
    assert_eq!((row.input_tokens, row.output_tokens), (Some(12), Some(3)));
    assert!(row.duration_ms.is_some());
}

#[tokio::test]
async fn a_crash_mid_run_leaves_unknown_and_the_job_is_not_run_again() {
    let hold = Arc::new(tokio::sync::Notify::new());
    let rig = rig_with(
        "UTC",
        "2026-06-01T10:00:00Z",
        FakeRunner {
            hold: Some(Arc::clone(&hold)),
            ..FakeRunner::default()
        },
    );
    let job = rig.create("every 1h", "long task");
    rig.at("2026-06-01T11:00:00Z");
    {
        let scheduler = rig.scheduler();
        let mut runs = JoinSet::new();
        scheduler
            .tick(&mut runs, &CancellationToken::new())
            .unwrap();
        while rig.runs() == 0 {
            tokio::task::yield_now().await;
        }
        // The process "dies": its run is dropped mid-flight, nothing is recorded.
        runs.abort_all();
        while runs.join_next().await.is_some() {}
    }
    let ledger = Ledger::open(&rig.home.paths.ledger).unwrap();
    assert_eq!(ledger.list(Some(job.id()), 5).unwrap()[0].status, "running");
    // Make the row's owner a process that provably exited.
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead_pid = child.id();
    child.wait().unwrap();
    rusqlite::Connection::open(&rig.home.paths.ledger)
        .unwrap()
        .execute("UPDATE executions SET pid = ?1", [dead_pid])
        .unwrap();
    let restarted = rig.scheduler();
    rig.at("2026-06-01T11:00:30Z");
    let report = rig.tick(&restarted).await;
    assert_eq!(report.recovered_unknown, 1);
    assert!(
        report.started.is_empty(),
        "the interrupted job was run again"
    );
    let row = ledger.list(Some(job.id()), 5).unwrap().remove(0);
    assert_eq!(row.status, "unknown");
    assert_eq!(
        row.error.as_deref(),
        Some(crate::cron::ledger::UNKNOWN_MESSAGE)
    );
    assert_eq!(
        rig.job(job.id()).unwrap().next_run_at(),
        Some("2026-06-01T12:00:00+00:00")
    );
}

#[tokio::test]
async fn two_tickers_on_one_home_fire_a_job_once() {
    let rig = rig_in("UTC", "2026-06-01T10:00:00Z");
    rig.create("every 5m", "status");
    let first = rig.scheduler();
    let second = rig.scheduler();
    let lease = crate::cron::ticker::try_acquire(&rig.home.paths).unwrap();
    assert!(
        crate::cron::ticker::try_acquire(&rig.home.paths).is_none(),
        "two leases on one home"
    );
    rig.at("2026-06-01T10:05:00Z");
    let (a, b) = tokio::join!(rig.tick(&first), rig.tick(&second));
    assert_eq!(a.started.len() + b.started.len(), 1);
    assert_eq!(rig.runs(), 1);
    let status = crate::cron::ticker::status(&rig.home.paths, rig.home.now());
    assert!(status.lock_held && status.alive());
    drop(lease);
    let status = crate::cron::ticker::status(&rig.home.paths, rig.home.now());
    assert!(!status.alive());
    assert!(status.describe().contains("hermes cron daemon"));
}

#[tokio::test]
async fn run_now_fires_at_the_next_tick() {
    let rig = rig_in("UTC", "2026-06-01T10:00:00Z");
    let job = rig.create("0 9 * * *", "digest");
    let scheduler = rig.scheduler();
    assert!(rig.tick(&scheduler).await.started.is_empty());
    ops::trigger(&rig.home, job.id()).unwrap();
    assert_eq!(rig.tick(&scheduler).await.started.len(), 1);
    assert_eq!(
        rig.job(job.id()).unwrap().next_run_at(),
        Some("2026-06-02T09:00:00+00:00")
    );
}

#[tokio::test]
async fn a_paused_job_does_not_fire_and_resume_recomputes() {
    let rig = rig_in("UTC", "2026-06-01T10:00:00Z");
    let job = rig.create("every 5m", "status");
    ops::pause(&rig.home, job.id(), None).unwrap();
    let scheduler = rig.scheduler();
    rig.at("2026-06-01T11:00:00Z");
    assert!(rig.tick(&scheduler).await.started.is_empty());
    let resumed = ops::resume(&rig.home, &job.name()).unwrap();
    assert_eq!(resumed.next_run_at(), Some("2026-06-01T11:05:00+00:00"));
}
