//! Where one profile's cron state lives, by Hermes's layout: `cron/jobs.json`, its lock
//! `cron/.jobs.lock`, the per-tick lock `cron/.tick.lock`, the ticker heartbeat files, the
//! ledger `cron/executions.db`, outputs under `cron/output/<job>/`, and the scripts directory
//! `scripts/`. hermes adds `cron/.ticker.lock` (held by the one live ticker) and
//! `cron/deliveries.jsonl` (origin deliveries waiting for a TUI).
//!
//! Paths only; nothing here touches the disk.

use std::path::PathBuf;

use crate::config::HermesHome;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CronPaths {
    /// The profile home (`HERMES_HOME` or `…/profiles/<name>`).
    pub home: PathBuf,
    pub cron_dir: PathBuf,
    pub jobs_file: PathBuf,
    pub jobs_lock: PathBuf,
    pub tick_lock: PathBuf,
    pub ticker_lock: PathBuf,
    pub heartbeat: PathBuf,
    pub last_success: PathBuf,
    pub ledger: PathBuf,
    pub output_dir: PathBuf,
    pub deliveries: PathBuf,
    pub scripts_dir: PathBuf,
}

impl CronPaths {
    pub fn new(home: &HermesHome) -> Self {
        Self::under(home.root().to_path_buf())
    }

    /// The layout under a profile home directory.
    pub fn under(home: PathBuf) -> Self {
        let cron_dir = home.join("cron");
        Self {
            jobs_file: cron_dir.join("jobs.json"),
            jobs_lock: cron_dir.join(".jobs.lock"),
            tick_lock: cron_dir.join(".tick.lock"),
            ticker_lock: cron_dir.join(".ticker.lock"),
            heartbeat: cron_dir.join("ticker_heartbeat"),
            last_success: cron_dir.join("ticker_last_success"),
            ledger: cron_dir.join("executions.db"),
            output_dir: cron_dir.join("output"),
            deliveries: cron_dir.join("deliveries.jsonl"),
            scripts_dir: home.join("scripts"),
            cron_dir,
            home,
        }
    }
}
