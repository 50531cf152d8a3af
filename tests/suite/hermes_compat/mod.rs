//! The cross-program suite: the REAL Python Hermes Agent 0.19 (`$HERMES_PY_VENV/bin/hermes`,
//! installed from PyPI by `scripts/test.sh`) and this crate's `hermes` binary take turns on
//! one `HERMES_HOME`, Python → hermes → Python, against the scripted provider server
//! (`tests/support`, a custom OpenAI-compatible endpoint on 127.0.0.1 with a fake key).
//!
//! Scenarios, one module and one `HERMES_HOME` each, run in parallel by the test harness:
//! sessions (list, show, export, resume, `--continue`, archive and prune by both, with
//! `state.db` checked after every step), the bundled-skill manifest, Hermes's own 177 skills,
//! its skins, its full default `config.yaml`, memories, and `config set` edits.
//!
//! What it does not do: it never lets either program reach the internet (both get a proxy on
//! 127.0.0.1 that refuses everything and records what was tried; see `offline`), and it does
//! not drive either interactive UI. Without the venv a test prints why it skips, except under
//! `CI=true`, where that is a failure (`python::PythonHermes::locate`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod config_edit;
mod cron;
mod db;
mod default_config;
mod home;
mod manifest;
mod memories;
mod offline;
mod python;
mod run;
mod sessions;
mod skills;
mod skins;
mod toolsets;
