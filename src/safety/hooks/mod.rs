//! Shell hooks: user scripts declared under `hooks:` in `config.yaml` that run as subprocesses
//! at lifecycle events (`pre_tool_call`, `post_tool_call`, `pre_llm_call`, `post_llm_call`,
//! `on_session_start`, `on_session_end`, `on_session_reset`, `subagent_stop`).
//!
//! Each hook gets a JSON payload on stdin and may answer on stdout: `pre_tool_call` hooks can
//! block the tool (`{"action":"block","message":…}` or `{"decision":"block","reason":…}`),
//! `pre_llm_call` hooks can add context to the user message (`{"context":…}`). A hook runs
//! only after the user consented to its (event, command) pair (recorded in
//! `shell-hooks-allowlist.json`) or with `--accept-hooks` / `HERMES_ACCEPT_HOOKS=1` /
//! `hooks_auto_accept`. See `docs/hooks.md`.
//!
//! Layout: `event` (names), `config` (validating `hooks:`), `command` (argv, `~`, script path),
//! `consent` (the allowlist), `exec` (one subprocess and its response), `runner` (the session
//! dispatcher with consent), `cli` (`hermes hooks list|test|revoke|doctor`) with
//! `synthetic` (its sample payloads). Not here: Python
//! plugin hooks, gateway hooks, outbound webhooks (`hooks.outbound`), transform hooks.
//! Invariant: a failing, slow or garbled hook only logs a warning; it never fails the agent.

pub mod cli;
mod command;
mod config;
mod consent;
mod event;
mod exec;
mod runner;
mod synthetic;

pub use config::{DEFAULT_TIMEOUT, HookSpec, MAX_TIMEOUT, parse_hooks};
pub use consent::{ALLOWLIST_FILENAME, ConsentEntry, ConsentError, ConsentStore};
pub use event::EventNameError;
pub use event::HookEvent;
pub use exec::{HookResponse, STDOUT_CAP};
pub use runner::{ACCEPT_HOOKS_ENV, AcceptHooks, ConsentAnswer, ConsentAsker, HookRunner};

#[cfg(test)]
mod test_support;
