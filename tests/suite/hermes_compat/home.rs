//! One shared `HERMES_HOME` that Python Hermes and hermes both use, with the scripted provider
//! and the refusing proxies. Each scenario makes its own (`SharedHome::new`).
//!
//! Both programs run with a cleared environment: `PATH`, a private `HOME`, the shared
//! `HERMES_HOME`, a fake `OPENAI_API_KEY`, the proxy variables, `NO_COLOR`, `COLUMNS=200`
//! (Rich tables otherwise truncate ids at 80 columns), `TZ=UTC`. Python also gets
//! `HERMES_BUNDLED_SKILLS`/`HERMES_OPTIONAL_SKILLS` pointing into the sdist, as a packaged
//! install has them, so its first `chat` seeds the 73 bundled skills like a real one, and
//! `HERMES_DISABLE_LAZY_INSTALLS=1`/`HERMES_SKIP_NODE_BOOTSTRAP=1`, so it never installs
//! packages into the cached venv at run time.
//!
//! A scenario records what fails without stopping ([`SharedHome::check`]) where the later
//! steps still mean something, so one run reports every gap at once; [`SharedHome::finish`]
//! fails the test with all of them. Steps that cannot go on (a program failing) still panic.
//!
//! Invariant: every command has a deadline, and its outputs are kept under `logs/` of the
//! temp dir (printed in full when a step fails).

use std::path::Path;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;
use std::sync::PoisonError;
use std::time::Duration;
use std::time::Instant;

use super::db::DbSnapshot;
use super::offline::RefusingProxy;
use super::python::PythonHermes;
use super::run::Run;
use super::run::run;
use crate::support::ScriptedServer;

/// The fake key both programs send to the scripted provider.
pub const FAKE_KEY: &str = "sk-compat-test-not-a-real-key";

/// A Python agent turn: start-up alone is several seconds of CPU, and the suite's scenarios
/// run in parallel on two cores.
const PYTHON_TURN: Duration = Duration::from_secs(240);
const PYTHON_COMMAND: Duration = Duration::from_secs(90);
const HERMES_TURN: Duration = Duration::from_secs(120);
const HERMES_COMMAND: Duration = Duration::from_secs(60);

#[derive(Default)]
struct Stats {
    python_runs: usize,
    python_time: Duration,
    hermes_runs: usize,
    hermes_time: Duration,
}

pub struct SharedHome {
    pub py: PythonHermes,
    pub server: ScriptedServer,
    name: &'static str,
    dir: tempfile::TempDir,
    python_proxy: RefusingProxy,
    hermes_proxy: RefusingProxy,
    started: Instant,
    stats: Mutex<Stats>,
    failures: Mutex<Vec<String>>,
}

impl SharedHome {
    /// A fresh `HERMES_HOME` (empty: no `config.yaml` yet) for scenario `name`.
    pub fn new(name: &'static str, py: PythonHermes, server: ScriptedServer) -> Self {
        let dir = tempfile::Builder::new()
            .prefix(&format!("hermes-compat-{name}-"))
            .tempdir()
            .unwrap();
        for sub in ["home", "user", "work", "logs"] {
            std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        }
        Self {
            py,
            server,
            name,
            dir,
            python_proxy: RefusingProxy::start(),
            hermes_proxy: RefusingProxy::start(),
            started: Instant::now(),
            stats: Mutex::new(Stats::default()),
            failures: Mutex::new(Vec::new()),
        }
    }

    /// The shared `HERMES_HOME`.
    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    pub fn path(&self, relative: &str) -> PathBuf {
        self.home().join(relative)
    }

    pub fn state_db(&self) -> PathBuf {
        self.path("state.db")
    }

    /// A working directory `work/NAME` (created), for the programs' cwd.
    pub fn work(&self, name: &str) -> PathBuf {
        let dir = self.dir.path().join("work").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The `config.yaml` the scripted server suggests: `custom` provider, its base URL,
    /// `scripted-model`. Both programs accept it as it is.
    pub fn write_provider_config(&self) {
        std::fs::write(self.path("config.yaml"), self.server.config_yaml()).unwrap();
    }

    /// `hermes ARGS` in `cwd`. Turns (`-z`) get a longer deadline than commands.
    pub fn hermes(&self, cwd: &Path, args: &[&str]) -> Run {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_hermes"));
        cmd.args(args).current_dir(cwd);
        self.base_env(&mut cmd, &self.hermes_proxy);
        let deadline = if is_turn(args) {
            HERMES_TURN
        } else {
            HERMES_COMMAND
        };
        let label = format!("hermes {}", args.join(" "));
        let done = run(cmd, &label, deadline, &self.dir.path().join("logs"));
        self.log(&done);
        let mut stats = self.stats();
        stats.hermes_runs += 1;
        stats.hermes_time += done.elapsed;
        done
    }

    /// Python Hermes's CLI: `$HERMES_PY_VENV/bin/hermes ARGS` in `cwd`.
    pub fn python(&self, cwd: &Path, args: &[&str]) -> Run {
        let mut cmd = Command::new(self.py.hermes_bin());
        cmd.args(args).current_dir(cwd);
        let deadline = if is_turn(args) {
            PYTHON_TURN
        } else {
            PYTHON_COMMAND
        };
        self.run_python(cmd, &format!("python-hermes {}", args.join(" ")), deadline)
    }

    /// Python Hermes's own code: `$HERMES_PY_VENV/bin/python -c CODE` (in `work/`), for what its
    /// CLI only does interactively (writing the default config, a skills sync, `--continue`'s
    /// pick).
    pub fn python_code(&self, code: &str) -> Run {
        let mut cmd = Command::new(self.py.python_bin());
        cmd.arg("-c").arg(code).current_dir(self.work(""));
        let first_line = code.trim().lines().next().unwrap_or_default();
        self.run_python(cmd, &format!("python -c {first_line}…"), PYTHON_COMMAND)
    }

    fn run_python(&self, mut cmd: Command, label: &str, deadline: Duration) -> Run {
        self.base_env(&mut cmd, &self.python_proxy);
        cmd.env("HERMES_BUNDLED_SKILLS", self.py.bundled_skills())
            .env("HERMES_OPTIONAL_SKILLS", self.py.optional_skills())
            // Without these, a turn with Hermes's default config (`tts.provider: edge`) runs
            // `pip install edge-tts` into the cached venv — refused by the proxy after ~20 s of
            // retries, and a venv that changes between runs if it ever got through.
            .env("HERMES_DISABLE_LAZY_INSTALLS", "1")
            .env("HERMES_SKIP_NODE_BOOTSTRAP", "1")
            .env("PYTHONUNBUFFERED", "1");
        let done = run(cmd, label, deadline, &self.dir.path().join("logs"));
        self.log(&done);
        let mut stats = self.stats();
        stats.python_runs += 1;
        stats.python_time += done.elapsed;
        done
    }

    fn base_env(&self, cmd: &mut Command, proxy: &RefusingProxy) {
        cmd.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.dir.path().join("user"))
            .env("HERMES_HOME", self.home())
            .env("OPENAI_API_KEY", FAKE_KEY)
            .env("LANG", "C.UTF-8")
            .env("TZ", "UTC")
            .env("TERM", "dumb")
            .env("NO_COLOR", "1")
            .env("COLUMNS", "200");
        for var in ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"] {
            cmd.env(var, proxy.url())
                .env(var.to_ascii_lowercase(), proxy.url());
        }
        cmd.env("NO_PROXY", "127.0.0.1,localhost")
            .env("no_proxy", "127.0.0.1,localhost");
    }

    /// Record a failure unless `ok`; the scenario goes on (see [`SharedHome::finish`]).
    pub fn check(&self, ok: bool, what: impl FnOnce() -> String) {
        if !ok {
            let what = what();
            eprintln!("hermes_compat[{}]: FAILED: {what}", self.name);
            self.failures
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(what);
        }
    }

    /// A checked snapshot of `state.db` after `step` (its problems are recorded).
    pub fn snapshot(&self, step: &str) -> DbSnapshot {
        let snap = super::db::snapshot(&self.state_db(), step);
        self.check(snap.problems.is_empty(), || {
            format!("after {step}, state.db: {}", snap.problems.join("; "))
        });
        snap
    }

    /// Record every loss `after` shows against `before` (see `DbSnapshot::losses`).
    pub fn check_kept(
        &self,
        before: &DbSnapshot,
        after: &DbSnapshot,
        step: &str,
        deleted: &[&str],
    ) {
        let lost = before.losses(after, deleted);
        self.check(lost.is_empty(), || {
            format!(
                "after {step}, state.db lost what the other program wrote:\n  {}",
                lost.join("\n  ")
            )
        });
    }

    fn log(&self, done: &Run) {
        let ended = done
            .code()
            .map_or_else(|| "killed".to_string(), |c| format!("exit {c}"));
        eprintln!(
            "hermes_compat[{}]: {:5.1}s {ended}: {}",
            self.name,
            done.elapsed.as_secs_f64(),
            done.label
        );
    }

    fn stats(&self) -> std::sync::MutexGuard<'_, Stats> {
        self.stats.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// End of a scenario: hermes must not have tried to reach anything beyond 127.0.0.1;
    /// prints the timings and what Python tried (it was refused).
    pub fn finish(self) {
        let stats = self.stats();
        eprintln!(
            "hermes_compat[{}]: {:.1}s in all; {} Python Hermes runs {:.1}s, {} hermes runs {:.1}s; Python Hermes tried (refused): {:?}",
            self.name,
            self.started.elapsed().as_secs_f64(),
            stats.python_runs,
            stats.python_time.as_secs_f64(),
            stats.hermes_runs,
            stats.hermes_time.as_secs_f64(),
            dedup(self.python_proxy.attempts()),
        );
        drop(stats);
        let hermes_tried = self.hermes_proxy.attempts();
        self.check(hermes_tried.is_empty(), || {
            format!("hermes tried to reach beyond 127.0.0.1 (refused): {hermes_tried:?}")
        });
        let failures = self
            .failures
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        if failures.is_empty() {
            return;
        }
        // Keep the home and the programs' outputs for a look.
        let kept = self.dir.keep();
        panic!(
            "hermes_compat[{}]: {} check(s) failed (HERMES_HOME and logs kept in {}):\n- {}",
            self.name,
            failures.len(),
            kept.display(),
            failures.join("\n- ")
        );
    }
}

fn is_turn(args: &[&str]) -> bool {
    args.iter()
        .any(|a| matches!(*a, "-z" | "-q" | "--oneshot" | "--query"))
}

fn dedup(mut items: Vec<String>) -> Vec<String> {
    items.sort();
    items.dedup();
    items
}
