//! Scheduled jobs in a long-lived hermes: the in-process scheduler the TUI runs (on its own
//! thread, so a job never competes with keystrokes), and the link between it and the
//! sessions: `Op::Cron` answered from `jobs.json`, finished jobs' results delivered to the
//! open session as `Event::Cron(Delivered)` (kept in `cron/deliveries.jsonl` when no session
//! listens, and shown at the next start), and the job list re-sent whenever `jobs.json`
//! changes, so the jobs overlay and the status bar stay current.
//!
//! What it does not do: schedule or run jobs (`cron::scheduler`, `cron_run`). Invariants:
//! one link per `cron/` directory per process; a delivery reaches a listening session or
//! the inbox, never neither.

use std::sync::Arc;
use std::sync::LazyLock;
use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

use super::cron_run::EngineJobRunner;
use super::events::EventSink;
use crate::cron::CronError;
use crate::cron::CronHome;
use crate::cron::Job;
use crate::cron::delivery::Delivery;
use crate::cron::delivery::DeliverySink;
use crate::cron::delivery::Inbox;
use crate::cron::ops;
use crate::cron::ops::IncludeDisabled;
use crate::cron::ops::NewJob;
use crate::cron::scheduler::Scheduler;
use crate::cron::ticker;
use crate::protocol::CronDelivery;
use crate::protocol::CronEvent;
use crate::protocol::CronJobView;
use crate::protocol::CronJobs;
use crate::protocol::CronOp;
use crate::protocol::Event;

/// How often an open session looks at `jobs.json` for changes.
const WATCH: Duration = Duration::from_secs(2);

static LINKS: LazyLock<Mutex<Vec<Arc<CronLink>>>> = LazyLock::new(|| Mutex::new(Vec::new()));

/// One home's jobs as this process's sessions see them.
pub struct CronLink {
    pub home: Arc<CronHome>,
    deliveries: broadcast::Sender<Delivery>,
    inbox: Inbox,
    /// Every session this process has shown deliveries to: a job made in one of them is
    /// delivered here; one made in another hermes waits in the inbox for that one.
    served: Mutex<std::collections::HashSet<String>>,
}

impl CronLink {
    /// The process's link for `home`'s `cron/` directory (made on first use).
    pub fn for_home(home: CronHome) -> Arc<CronLink> {
        let mut links = LINKS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(link) = links
            .iter()
            .find(|l| l.home.paths.cron_dir == home.paths.cron_dir)
        {
            return Arc::clone(link);
        }
        let (deliveries, _) = broadcast::channel(64);
        let link = Arc::new(CronLink {
            inbox: Inbox::new(&home.paths.deliveries),
            home: Arc::new(home),
            deliveries,
            served: Mutex::new(std::collections::HashSet::new()),
        });
        links.push(Arc::clone(&link));
        link
    }

    /// The job list as the protocol carries it.
    pub fn jobs(&self, changed: String) -> Result<CronJobs, CronError> {
        let status = ticker::status(&self.home.paths, self.home.now());
        let jobs = ops::list(&self.home, IncludeDisabled::Yes)?;
        Ok(CronJobs {
            jobs: jobs.iter().map(|j| view(&self.home, j)).collect(),
            scheduler: status.describe(),
            scheduler_alive: status.alive(),
            changed,
        })
    }

    /// Carries out one `/cron` request for `session_id`; the list after it, or why not.
    pub fn answer(&self, op: &CronOp, session_id: &str) -> Result<CronJobs, String> {
        let home = &self.home;
        let changed = match op {
            CronOp::List => String::new(),
            CronOp::Add {
                schedule,
                prompt,
                skills,
                name,
            } => {
                let job = ops::create(
                    home,
                    NewJob {
                        schedule: schedule.clone(),
                        prompt: prompt.clone(),
                        skills: skills.clone(),
                        name: name.clone(),
                        origin: Some(
                            serde_json::json!({"platform": "hermes", "chat_id": session_id}),
                        ),
                        ..NewJob::default()
                    },
                )
                .map_err(|e| e.to_string())?;
                format!(
                    "Created '{}' ({}): {}",
                    job.name(),
                    job.id(),
                    next_words(home, &job)
                )
            }
            CronOp::Pause { job } => {
                let job = ops::pause(home, job, None).map_err(|e| e.to_string())?;
                format!("Paused '{}'", job.name())
            }
            CronOp::Resume { job } => {
                let job = ops::resume(home, job).map_err(|e| e.to_string())?;
                format!("Resumed '{}': {}", job.name(), next_words(home, &job))
            }
            CronOp::Run { job } => {
                let job = ops::trigger(home, job).map_err(|e| e.to_string())?;
                format!("'{}' runs at the scheduler's next tick", job.name())
            }
            CronOp::Remove { job } => {
                let job = ops::remove(home, job).map_err(|e| e.to_string())?;
                format!("Removed '{}'", job.name())
            }
        };
        crate::cron::scheduler::nudge_local(&home.paths);
        self.jobs(changed).map_err(|e| e.to_string())
    }

    fn serves(&self, session: Option<&str>) -> bool {
        let served = self
            .served
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        session.is_none_or(|s| served.contains(s))
    }

    /// Sends `link`'s events to session `session_id` until `cancel`: what waited in the
    /// inbox, the list now, each delivery as it comes (and, from the inbox, those another
    /// hermes's scheduler ran for this process's sessions), and the list again whenever
    /// `jobs.json` changes.
    pub async fn forward(
        self: Arc<Self>,
        events: EventSink,
        session_id: String,
        cancel: CancellationToken,
    ) {
        self.served
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(session_id);
        let mut deliveries = self.deliveries.subscribe();
        let link = Arc::clone(&self);
        let waiting = tokio::task::spawn_blocking(move || {
            let kept = link.inbox.take_all().unwrap_or_default();
            (kept, link.jobs(String::new()).ok())
        })
        .await
        .unwrap_or_default();
        for delivery in waiting.0 {
            events.send(delivered(delivery));
        }
        if let Some(jobs) = waiting.1 {
            events.send(Event::Cron(CronEvent::Jobs(jobs)));
        }
        let mut stamp = modified(&self.home.paths.jobs_file);
        loop {
            tokio::select! {
                _ = cancel.cancelled() => return,
                received = deliveries.recv() => match received {
                    Ok(delivery) => events.send(delivered(delivery)),
                    Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                _ = tokio::time::sleep(WATCH) => {
                    if events.is_closed() {
                        return;
                    }
                    if self.home.paths.deliveries.exists() {
                        let link = Arc::clone(&self);
                        let mine = tokio::task::spawn_blocking(move || {
                            link.inbox.take_matching(|d| link.serves(d.origin_session.as_deref()))
                        })
                        .await;
                        for delivery in mine.ok().and_then(Result::ok).unwrap_or_default() {
                            events.send(delivered(delivery));
                        }
                    }
                    let now = modified(&self.home.paths.jobs_file);
                    if now == stamp {
                        continue;
                    }
                    stamp = now;
                }
            }
            let link = Arc::clone(&self);
            if let Ok(Ok(jobs)) =
                tokio::task::spawn_blocking(move || link.jobs(String::new())).await
            {
                events.send(Event::Cron(CronEvent::Jobs(jobs)));
            }
        }
    }
}

impl DeliverySink for CronLink {
    fn deliver(&self, delivery: Delivery) {
        if self.deliveries.receiver_count() == 0 || !self.serves(delivery.origin_session.as_deref())
        {
            return self.inbox.deliver(delivery);
        }
        if let Err(broadcast::error::SendError(delivery)) = self.deliveries.send(delivery) {
            self.inbox.deliver(delivery);
        }
    }
}

fn delivered(delivery: Delivery) -> Event {
    Event::Cron(CronEvent::Delivered(CronDelivery {
        job_id: delivery.job_id,
        job_name: delivery.job_name,
        text: delivery.text,
        failed: delivery.failed,
        at: delivery.at,
        output_path: delivery.output_path,
    }))
}

fn modified(path: &std::path::Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

fn next_words(home: &CronHome, job: &Job) -> String {
    match job.next_run_at().and_then(|t| home.zone.parse(t)) {
        Some(at) => format!("next run {}", home.zone.local_minutes(at)),
        None => "no next run".to_string(),
    }
}

fn view(home: &CronHome, job: &Job) -> CronJobView {
    let next = job.next_run_at().and_then(|t| home.zone.parse(t));
    CronJobView {
        id: job.id().to_string(),
        name: job.name(),
        schedule: job.schedule_display(),
        schedule_words: job
            .schedule()
            .map(|s| crate::cron::next::describe(s, &home.zone))
            .unwrap_or_default(),
        next_run: next
            .filter(|_| job.enabled())
            .map(|at| home.zone.local_minutes(at)),
        next_run_unix: next
            .filter(|_| job.enabled())
            .map(jiff::Timestamp::as_second),
        state: job.state().to_string(),
        last_status: job.text("last_status").map(str::to_string),
        last_error: job.text("last_error").map(str::to_string),
        last_run: job
            .last_run_at()
            .and_then(|t| home.zone.parse(t))
            .map(|at| home.zone.local_minutes(at)),
        deliver: job.deliver(),
    }
}

/// The TUI's scheduler, on its own thread; stops (and waits for running jobs to be
/// cancelled) when dropped.
pub struct SchedulerThread {
    cancel: CancellationToken,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for SchedulerThread {
    fn drop(&mut self) {
        self.cancel.cancel();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Starts the scheduler for `link`'s home. It ticks only while it holds the home's ticker
/// lease (a second hermes stands by), delivering through `link`.
pub fn spawn_scheduler(link: Arc<CronLink>) -> Result<SchedulerThread, std::io::Error> {
    let cancel = CancellationToken::new();
    let stop = cancel.clone();
    let thread = std::thread::Builder::new()
        .name("hermes-cron".into())
        .spawn(move || {
            let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            let runner = Arc::new(EngineJobRunner {
                inactivity: link.home.settings.inactivity_timeout,
            });
            let sink: Arc<dyn DeliverySink> = Arc::clone(&link) as Arc<dyn DeliverySink>;
            match Scheduler::new(Arc::clone(&link.home), runner, sink) {
                Ok(scheduler) => runtime.block_on(scheduler.run_forever(stop)),
                Err(e) => tracing::warn!("cron scheduler not started: {e}"),
            }
        })?;
    Ok(SchedulerThread {
        cancel,
        thread: Some(thread),
    })
}

#[cfg(test)]
#[path = "cron_link_tests.rs"]
mod tests;
