//! Scheduled tasks: Hermes-compatible cron jobs in `HERMES_HOME/cron/` — the job file
//! (`jobs.json`, readable and writable by Python Hermes too), schedules computed in the
//! configured time zone, the execution ledger (`executions.db`), per-run output files, the
//! ticker's locks and heartbeat, job scripts, prompt assembly and delivery.
//!
//! What it does not do: run an agent. A due job that needs one is handed to a [`JobRunner`]
//! (the engine implements it with a fresh session), so this module stays a service below the
//! engine. Messaging platforms are not delivery targets here (hermes has no gateway); a job
//! that names one is told so.
//!
//! Invariants: every write of `jobs.json` is atomic and made under `cron/.jobs.lock`, so a
//! crash never leaves a partial file and Python Hermes and hermes never clobber each other;
//! a job that could not be parsed is kept in the file untouched (never silently dropped); an
//! attempt is recorded in the ledger before it runs, so a crash mid-run shows `unknown`, never
//! `completed`; time comes from a [`Clock`], so tests drive the scheduler without sleeping.

pub mod bookkeeping;
pub mod clock;
pub mod delivery;
pub mod due;
pub mod edit;
pub mod error;
pub mod home;
pub mod job;
pub mod ledger;
pub mod next;
pub mod ops;
pub mod output;
pub mod paths;
pub mod prompt;
pub mod run_job;
pub mod runner;
pub mod scan;
pub mod schedule;
pub mod scheduler;
pub mod scripts;
pub mod store;
pub mod ticker;
pub mod time;
pub mod validate;

pub use clock::Clock;
pub use clock::SystemClock;
pub use error::CronError;
pub use home::CronHome;
pub use job::Job;
pub use paths::CronPaths;
pub use runner::AgentOutcome;
pub use runner::AgentRun;
pub use runner::JobRunner;
