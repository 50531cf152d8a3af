//! The integration suite as one test binary (like codex's `core/tests/all.rs` and ripgrep's
//! `tests/tests.rs`): every area is a module under `tests/suite/`, and `tests/support` (the
//! scripted provider server, engine and tmux helpers) is compiled once for all of them.
//!
//! One binary links once instead of once per file. Its tests are threads of one process, so a
//! test must not change process-wide state (environment variables, the working directory):
//! children get their environment through `Command::env` (`support::env::clean_command`).
//! Run one area with a filter: `cargo test --test all suite::engine_loop::`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod suite;
mod support;
