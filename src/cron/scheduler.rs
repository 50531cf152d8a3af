//! The scheduler: one tick finds what is due and starts it; the loop ticks while this process
//! holds the home's ticker lease, waking at the earliest due job (at most a minute apart),
//! when `jobs.json` changes, or when nudged (`run` from this process).
//!
//! A tick, as Hermes's `tick`: take `cron/.tick.lock` without waiting (a Python Hermes gateway
//! takes it too), mark abandoned ledger rows `unknown`, scan under the jobs lock, then for each
//! due job move a recurring job's next run forward / count a one-shot, record the attempt in
//! the ledger (`claimed`), and only then run it. Runs are bounded by
//! `cron.max_parallel_jobs`; after each: output file, delivery, `mark_run`, ledger terminal.
//!
//! What it does not do: build sessions (the [`JobRunner`] does). Invariants: the tick lock is
//! held only for the scan and the claims (a long job never blocks other jobs); a job already
//! running in this process is never started again.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;
use std::time::Instant;

use tokio::sync::Notify;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use super::CronError;
use super::Job;
use super::JobRunner;
use super::bookkeeping;
use super::delivery::Delivery;
use super::delivery::DeliverySink;
use super::delivery::Target;
use super::delivery::targets;
use super::delivery::unsupported_message;
use super::due;
use super::home::CronHome;
use super::ledger::Finish;
use super::ledger::Ledger;
use super::ops::RunRecord;
use super::output;
use super::prompt;
use super::run_job;
use super::store::Edit;
use super::ticker;
use super::ticker::TickOutcome;
use crate::util::file_lock::FileLock;

/// The longest the loop sleeps between ticks.
const MAX_SLEEP: Duration = Duration::from_secs(60);
/// How often the loop looks at `jobs.json`'s modification time while asleep.
const FILE_POLL: Duration = Duration::from_secs(2);
/// How often a standby process retries the ticker lease.
const STANDBY_RETRY: Duration = Duration::from_secs(30);

/// What one tick did.
#[derive(Debug, Default)]
pub struct TickReport {
    /// Another scheduler held the tick lock; nothing was looked at.
    pub skipped: bool,
    pub started: Vec<String>,
    pub recovered_unknown: usize,
}

pub struct Scheduler {
    home: Arc<CronHome>,
    runner: Arc<dyn JobRunner>,
    sink: Arc<dyn DeliverySink>,
    ledger: Arc<Mutex<Ledger>>,
    running: Arc<Mutex<HashSet<String>>>,
    limit: Option<Arc<Semaphore>>,
    nudge: Arc<Notify>,
}

impl Scheduler {
    pub fn new(
        home: Arc<CronHome>,
        runner: Arc<dyn JobRunner>,
        sink: Arc<dyn DeliverySink>,
    ) -> Result<Self, CronError> {
        let ledger = Ledger::open(&home.paths.ledger)?;
        let limit = home
            .settings
            .max_parallel
            .map(|n| Arc::new(Semaphore::new(n)));
        Ok(Self {
            home,
            runner,
            sink,
            ledger: Arc::new(Mutex::new(ledger)),
            running: Arc::new(Mutex::new(HashSet::new())),
            limit,
            nudge: Arc::new(Notify::new()),
        })
    }

    pub fn home(&self) -> &Arc<CronHome> {
        &self.home
    }

    /// Wakes the loop now (a job was triggered or created in this process).
    pub fn nudge(&self) {
        self.nudge.notify_one();
    }

    /// One tick; the started runs are added to `runs` (await them to finish the batch).
    pub fn tick(
        &self,
        runs: &mut JoinSet<()>,
        cancel: &CancellationToken,
    ) -> Result<TickReport, CronError> {
        let home = &self.home;
        std::fs::create_dir_all(&home.paths.cron_dir)
            .map_err(|e| CronError::io(&home.paths.cron_dir, e))?;
        let Ok(_tick_lock) = FileLock::acquire(&home.paths.tick_lock, Duration::ZERO) else {
            return Ok(TickReport {
                skipped: true,
                ..TickReport::default()
            });
        };
        let now = home.now();
        let now_iso = home.zone.iso(now);
        let mut report = TickReport {
            recovered_unknown: self.with_ledger(|l| l.recover(&now_iso))?,
            ..TickReport::default()
        };
        let running = self.running_ids();
        let scan = home.store.update(&now_iso, |file| {
            let in_flight = |id: &str| running.contains(id);
            let scan = due::scan(&mut file.jobs, now, &home.zone, &home.owner, &in_flight);
            Ok(Edit {
                changed: scan.changed,
                value: scan,
            })
        })?;
        for note in &scan.notes {
            tracing::info!("cron: {note}");
        }
        for job in scan.due {
            let id = job.id().to_string();
            if running.contains(&id) {
                continue;
            }
            match job.schedule_kind() {
                Some("cron" | "interval") => {
                    bookkeeping::advance_next_run(home, &id)?;
                }
                Some("once") if !bookkeeping::claim_dispatch(home, &id)? => continue,
                _ => {}
            }
            let execution = self.with_ledger(|l| l.claim(&id, "builtin", &now_iso))?;
            self.start(job, execution, runs, cancel.child_token());
            report.started.push(id);
        }
        Ok(report)
    }

    fn start(
        &self,
        job: Job,
        execution: String,
        runs: &mut JoinSet<()>,
        cancel: CancellationToken,
    ) {
        if let Ok(mut running) = self.running.lock() {
            running.insert(job.id().to_string());
        }
        let home = Arc::clone(&self.home);
        let runner = Arc::clone(&self.runner);
        let sink = Arc::clone(&self.sink);
        let ledger = Arc::clone(&self.ledger);
        let running = Arc::clone(&self.running);
        let limit = self.limit.clone();
        runs.spawn(async move {
            let _permit = match &limit {
                Some(sem) => Some(Arc::clone(sem).acquire_owned().await),
                None => None,
            };
            let id = job.id().to_string();
            let started = Instant::now();
            if let Ok(l) = ledger.lock() {
                let _ = l.mark_running(&execution, &home.now_iso());
            }
            let result = run_job::run(&home, &runner, &job, cancel).await;
            let finished = Finish {
                succeeded: result.succeeded,
                error: result.error.clone(),
                exit_reason: Some(result.exit_reason.clone()),
                duration_ms: i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX),
                input_tokens: result.input_tokens,
                output_tokens: result.output_tokens,
            };
            let delivery_error = finish_run(&home, sink.as_ref(), &job, &result);
            let record = RunRecord {
                succeeded: result.succeeded,
                error: result.error,
                delivery_error,
            };
            if let Err(e) = bookkeeping::mark_run(&home, &id, &record) {
                tracing::warn!("cron: recording the run of job {id} failed: {e}");
            }
            if let Ok(l) = ledger.lock()
                && let Err(e) = l.finish(&execution, &home.now_iso(), &finished)
            {
                tracing::warn!("cron: ledger row {execution} not finished: {e}");
            }
            if let Ok(mut running) = running.lock() {
                running.remove(&id);
            }
        });
    }

    fn running_ids(&self) -> HashSet<String> {
        self.running.lock().map(|r| r.clone()).unwrap_or_default()
    }

    fn with_ledger<T>(
        &self,
        f: impl FnOnce(&Ledger) -> Result<T, CronError>,
    ) -> Result<T, CronError> {
        match self.ledger.lock() {
            Ok(ledger) => f(&ledger),
            Err(poisoned) => f(&poisoned.into_inner()),
        }
    }

    /// Ticks until `cancel`, while holding the ticker lease (standing by while another
    /// process holds it). Runs still going at cancel are cancelled and awaited.
    pub async fn run_forever(&self, cancel: CancellationToken) {
        if let Ok(mut local) = LOCAL.lock() {
            local.push((
                self.home.paths.cron_dir.clone(),
                Arc::downgrade(&self.nudge),
            ));
        }
        let mut runs = JoinSet::new();
        let mut lease = None;
        while !cancel.is_cancelled() {
            if lease.is_none() {
                lease = ticker::try_acquire(&self.home.paths);
                if lease.is_none() {
                    self.sleep(STANDBY_RETRY, &cancel, &mut runs).await;
                    continue;
                }
            }
            let outcome = match self.tick(&mut runs, &cancel) {
                Ok(_) => TickOutcome::Succeeded,
                Err(e) => {
                    tracing::warn!("cron tick failed: {e}");
                    TickOutcome::Failed
                }
            };
            ticker::beat(&self.home.paths, self.home.now(), outcome);
            let wait = self.until_next_due().unwrap_or(MAX_SLEEP).min(MAX_SLEEP);
            self.sleep(wait, &cancel, &mut runs).await;
        }
        cancel.cancel();
        while runs.join_next().await.is_some() {}
    }

    /// Sleeps `wait`, waking early for a nudge, a changed `jobs.json`, or cancellation, and
    /// reaping finished runs meanwhile.
    async fn sleep(&self, wait: Duration, cancel: &CancellationToken, runs: &mut JoinSet<()>) {
        let deadline = tokio::time::Instant::now() + wait;
        let stamp = modified(&self.home.paths.jobs_file);
        loop {
            let step =
                FILE_POLL.min(deadline.saturating_duration_since(tokio::time::Instant::now()));
            if step.is_zero() {
                return;
            }
            tokio::select! {
                _ = cancel.cancelled() => return,
                _ = self.nudge.notified() => return,
                Some(_) = runs.join_next(), if !runs.is_empty() => {}
                _ = tokio::time::sleep(step) => {
                    // Only a stat while idle; the heartbeat is written once per loop (≤ 60 s).
                    if modified(&self.home.paths.jobs_file) != stamp {
                        return;
                    }
                }
            }
        }
    }

    /// Time until the earliest enabled job's next run (zero when one is already due).
    fn until_next_due(&self) -> Option<Duration> {
        let file = self.home.store.load().ok()?;
        let now = self.home.now();
        file.jobs
            .iter()
            .filter(|j| j.enabled())
            .filter_map(|j| j.next_run_at().and_then(|t| self.home.zone.parse(t)))
            .map(|at| {
                let secs = (at.as_second() - now.as_second()).max(0);
                Duration::from_secs(u64::try_from(secs).unwrap_or(0))
            })
            .min()
    }
}

/// This process's live schedulers, by `cron/` directory, so a tool call or a TUI command
/// can wake the one that serves its home.
type LocalSchedulers = Mutex<Vec<(std::path::PathBuf, std::sync::Weak<Notify>)>>;
static LOCAL: std::sync::LazyLock<LocalSchedulers> =
    std::sync::LazyLock::new(|| Mutex::new(Vec::new()));

/// Wakes this process's scheduler for `paths`' home, if one runs here.
pub fn nudge_local(paths: &super::CronPaths) {
    if let Ok(mut local) = LOCAL.lock() {
        local.retain(|(_, weak)| weak.strong_count() > 0);
        for (dir, weak) in local.iter() {
            if *dir == paths.cron_dir
                && let Some(notify) = weak.upgrade()
            {
                notify.notify_one();
            }
        }
    }
}

fn modified(path: &std::path::Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Saves the output, delivers; returns the delivery error to record, if any.
fn finish_run(
    home: &CronHome,
    sink: &dyn DeliverySink,
    job: &Job,
    result: &run_job::JobResult,
) -> Option<String> {
    let now = home.now();
    let mut problems: Vec<String> = Vec::new();
    let path = if result.document.is_empty() {
        None
    } else {
        match output::save(
            &home.paths.output_dir,
            job.id(),
            now,
            &home.zone,
            &result.document,
            home.settings.output_retention,
        ) {
            Ok(path) => Some(path),
            Err(e) => {
                problems.push(format!("output not saved: {e}"));
                None
            }
        }
    };
    let Some(text) = &result.deliver else {
        return (!problems.is_empty()).then(|| problems.join("; "));
    };
    let wrapped = prompt::wrap(&job.name(), text, home.settings.wrap_response);
    for target in targets(&job.deliver()) {
        match target {
            Target::Local => {}
            Target::Origin => sink.deliver(Delivery {
                job_id: job.id().to_string(),
                job_name: job.name(),
                text: wrapped.clone(),
                origin_session: job
                    .origin()
                    .and_then(|o| o.get("chat_id"))
                    .and_then(serde_json::Value::as_str)
                    .map(str::to_string),
                output_path: path
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default(),
                at: home.zone.local_minutes(now),
                failed: !result.succeeded,
            }),
            Target::Unsupported(name) => problems.push(unsupported_message(&name)),
        }
    }
    (!problems.is_empty()).then(|| problems.join("; "))
}

#[cfg(test)]
#[path = "scheduler_tests.rs"]
mod tests;
