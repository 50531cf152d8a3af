//! One profile's cron service: where its files are, the zone and clock it computes with, and
//! the settings from `config.yaml` (`cron:`, `timezone`) and the environment
//! (`HERMES_TIMEZONE`, `HERMES_CRON_SCRIPT_TIMEOUT`, `HERMES_CRON_MAX_PARALLEL`,
//! `HERMES_CRON_TIMEOUT`). Everything else in `cron` takes a `&CronHome`.
//!
//! What it does not do: touch the disk when built. Invariants: the environment wins over the
//! config file, as in Hermes; an unreadable number falls back to the default.

use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;

use super::Clock;
use super::CronPaths;
use super::SystemClock;
use super::store::JobStore;
use super::time::CronZone;
use crate::config::Config;
use crate::config::CronApprovalMode;
use crate::config::HermesHome;
use crate::config::env::EnvLookup;

/// Script timeout when neither the environment nor `cron.script_timeout_seconds` sets one.
pub const DEFAULT_SCRIPT_TIMEOUT: Duration = Duration::from_secs(120);
/// A job's agent run is stopped after this long without progress (Hermes's 600 s).
pub const DEFAULT_INACTIVITY_TIMEOUT: Duration = Duration::from_secs(600);

/// How jobs run and deliver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CronSettings {
    pub wrap_response: bool,
    pub script_timeout: Duration,
    /// At most this many jobs at once; `None`: as many as are due.
    pub max_parallel: Option<usize>,
    /// Output files kept per job; `None` keeps all.
    pub output_retention: Option<usize>,
    pub inactivity_timeout: Duration,
    pub approvals: CronApprovalMode,
}

impl Default for CronSettings {
    fn default() -> Self {
        Self {
            wrap_response: true,
            script_timeout: DEFAULT_SCRIPT_TIMEOUT,
            max_parallel: None,
            output_retention: Some(50),
            inactivity_timeout: DEFAULT_INACTIVITY_TIMEOUT,
            approvals: CronApprovalMode::Deny,
        }
    }
}

impl CronSettings {
    pub fn from_config(config: &Config, env: &EnvLookup) -> Self {
        let number = |key: &str| {
            env.get(key)
                .and_then(|v| v.trim().parse::<f64>().ok())
                .filter(|v| v.is_finite() && *v > 0.0)
        };
        let script_timeout = number("HERMES_CRON_SCRIPT_TIMEOUT")
            .map(Duration::from_secs_f64)
            .or_else(|| {
                config
                    .cron
                    .script_timeout_seconds
                    .filter(|s| *s > 0)
                    .map(Duration::from_secs)
            })
            .unwrap_or(DEFAULT_SCRIPT_TIMEOUT);
        let max_parallel = number("HERMES_CRON_MAX_PARALLEL")
            .map(|v| v as usize)
            .or_else(|| config.cron.max_parallel_jobs.map(|v| v as usize))
            .filter(|v| *v > 0);
        let inactivity_timeout = number("HERMES_CRON_TIMEOUT")
            .map(Duration::from_secs_f64)
            .unwrap_or(DEFAULT_INACTIVITY_TIMEOUT);
        Self {
            wrap_response: config.cron.wrap_response,
            script_timeout,
            max_parallel,
            output_retention: usize::try_from(config.cron.output_retention)
                .ok()
                .filter(|n| *n > 0),
            inactivity_timeout,
            approvals: config.approvals.cron_mode,
        }
    }
}

/// A profile's cron state and the means to compute with it.
#[derive(Clone)]
pub struct CronHome {
    pub paths: CronPaths,
    pub store: JobStore,
    pub zone: CronZone,
    pub clock: Arc<dyn Clock>,
    pub settings: CronSettings,
    /// `host:pid`, written into one-shot claims and ledger rows.
    pub owner: String,
}

impl std::fmt::Debug for CronHome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CronHome")
            .field("paths", &self.paths)
            .field("zone", &self.zone.name)
            .finish_non_exhaustive()
    }
}

impl CronHome {
    pub fn new(
        paths: CronPaths,
        zone: CronZone,
        clock: Arc<dyn Clock>,
        settings: CronSettings,
    ) -> Self {
        Self {
            store: JobStore::new(paths.clone()),
            paths,
            zone,
            clock,
            settings,
            owner: format!("{}:{}", host_name(), std::process::id()),
        }
    }

    /// The real service for `home`, configured by `config` and `env`.
    pub fn open(home: &HermesHome, config: &Config, env: &EnvLookup) -> Self {
        let configured = Some(config.timezone.as_str());
        let zone = CronZone::resolve(env.get("HERMES_TIMEZONE").as_deref(), configured);
        Self::new(
            CronPaths::new(home),
            zone,
            Arc::new(SystemClock),
            CronSettings::from_config(config, env),
        )
    }

    pub fn now(&self) -> Timestamp {
        self.clock.now()
    }

    pub fn now_iso(&self) -> String {
        self.zone.iso(self.now())
    }
}

fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".to_string())
}
