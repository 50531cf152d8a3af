//! `HookRunner`: fires the configured shell hooks for one session, asking for consent first.
//!
//! Hooks for an event run one after another in config order, each bounded by its timeout.
//! Before a hook's first run the runner checks consent for its (event, command) pair: the
//! allowlist, then `AcceptHooks::AcceptAll` (which records consent), then the `ConsentAsker`
//! (one question at a time). Without an asker (non-interactive runs) an unconsented hook is
//! skipped with one warning. Answers are remembered for the runner's life: "once" and
//! "always" allow, "deny" skips without asking again. It does not decide what the engine does
//! with a block or a context string, and it never returns an error: a broken hook only warns.
//! Invariant: with no hooks configured no call spawns, asks or writes anything.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;
use serde_json::Value;

use super::config::HookSpec;
use super::consent::ConsentStore;
use super::event::HookEvent;
use super::exec::{self, HookResponse, PayloadContext};
use crate::config::schema::Config;

/// Environment variable that accepts every configured hook (as `--accept-hooks`).
pub const ACCEPT_HOOKS_ENV: &str = "HERMES_ACCEPT_HOOKS";

/// The user's answer to "run this hook?".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConsentAnswer {
    /// Allow for the rest of this session, without recording it.
    Once,
    /// Allow and record in the allowlist.
    Always,
    /// Do not run it this session (asked again next session).
    Deny,
}

/// Whether unconsented hooks need a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AcceptHooks {
    Ask,
    /// `--accept-hooks`, `HERMES_ACCEPT_HOOKS=1` or `hooks_auto_accept: true`.
    AcceptAll,
}

impl AcceptHooks {
    /// `AcceptAll` when any of the three opt-ins is set: the CLI flag (`cli`), a truthy
    /// `HERMES_ACCEPT_HOOKS` in `env` (`1`, `true`, `yes`, `on`), or `hooks_auto_accept`.
    pub fn resolve(
        cli: AcceptHooks,
        env: &dyn Fn(&str) -> Option<String>,
        config: &Config,
    ) -> AcceptHooks {
        let env_on = env(ACCEPT_HOOKS_ENV).is_some_and(|v| {
            matches!(
                v.trim().to_ascii_lowercase().as_str(),
                "1" | "true" | "yes" | "on"
            )
        });
        if cli == AcceptHooks::AcceptAll || env_on || config.hooks_auto_accept {
            AcceptHooks::AcceptAll
        } else {
            AcceptHooks::Ask
        }
    }
}

/// Asks the user whether a hook may run (the engine answers through its approval flow).
#[async_trait]
pub trait ConsentAsker: Send + Sync {
    async fn ask(&self, event: HookEvent, command: &str) -> ConsentAnswer;
}

/// What this runner decided about one (event, command) pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decision {
    Allowed,
    /// Denied by the user, or skipped for lack of a way to ask.
    Skipped,
}

struct Inner {
    specs: Vec<HookSpec>,
    consent: Mutex<ConsentStore>,
    accept: AcceptHooks,
    asker: Option<Arc<dyn ConsentAsker>>,
    cwd: PathBuf,
    session_id: Mutex<String>,
    decisions: Mutex<HashMap<(HookEvent, String), Decision>>,
    /// Serialises consent questions so one pair is never asked twice at once.
    asking: tokio::sync::Mutex<()>,
}

/// The session's hook dispatcher; clones share state.
#[derive(Clone)]
pub struct HookRunner {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for HookRunner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HookRunner")
            .field("hooks", &self.inner.specs.len())
            .field("accept", &self.inner.accept)
            .finish_non_exhaustive()
    }
}

impl HookRunner {
    pub fn new(
        specs: Vec<HookSpec>,
        consent: ConsentStore,
        accept: AcceptHooks,
        asker: Option<Arc<dyn ConsentAsker>>,
        cwd: PathBuf,
        session_id: String,
    ) -> Self {
        Self {
            inner: Arc::new(Inner {
                specs,
                consent: Mutex::new(consent),
                accept,
                asker,
                cwd,
                session_id: Mutex::new(session_id),
                decisions: Mutex::new(HashMap::new()),
                asking: tokio::sync::Mutex::new(()),
            }),
        }
    }

    /// No hooks configured at all.
    pub fn is_empty(&self) -> bool {
        self.inner.specs.is_empty()
    }

    /// Whether any hook is configured for `event` (lets callers skip building payloads).
    pub fn has(&self, event: HookEvent) -> bool {
        self.inner.specs.iter().any(|s| s.event == event)
    }

    /// The configured hooks, in run order.
    pub fn specs(&self) -> &[HookSpec] {
        &self.inner.specs
    }

    /// The session id sent from now on (after `/new`, a resume, …).
    pub fn set_session_id(&self, id: &str) {
        *lock(&self.inner.session_id) = id.to_owned();
    }

    /// Runs the matching `pre_tool_call` hooks; the first block's message, if any (later hooks
    /// do not run after a block).
    pub async fn pre_tool_call(
        &self,
        tool_name: &str,
        args: &Value,
        extra: Value,
    ) -> Option<String> {
        let extra = exec::extra_object(extra);
        for spec in self.candidates(HookEvent::PreToolCall, Some(tool_name)) {
            if !self.consented(spec).await {
                continue;
            }
            let payload = self.payload(spec, Some(tool_name), Some(args), extra.clone());
            if let HookResponse::Block(message) = exec::fire(spec, &payload, &self.inner.cwd).await
            {
                return Some(message);
            }
        }
        None
    }

    /// Runs the matching `post_tool_call` hooks; `result` goes in `extra.result`.
    pub async fn post_tool_call(&self, tool_name: &str, args: &Value, result: &str, extra: Value) {
        let mut extra = exec::extra_object(extra);
        extra.insert("result".into(), Value::from(result));
        for spec in self.candidates(HookEvent::PostToolCall, Some(tool_name)) {
            if !self.consented(spec).await {
                continue;
            }
            let payload = self.payload(spec, Some(tool_name), Some(args), extra.clone());
            exec::fire(spec, &payload, &self.inner.cwd).await;
        }
    }

    /// Runs the `pre_llm_call` hooks (`user_message` goes in `extra.user_message`); the
    /// `{"context": …}` strings they print, in config order. The caller joins them with blank
    /// lines and appends them to the user message, never to the system prompt.
    pub async fn pre_llm_call(&self, user_message: &str, extra: Value) -> Vec<String> {
        let mut extra = exec::extra_object(extra);
        extra.insert("user_message".into(), Value::from(user_message));
        let mut contexts = Vec::new();
        for spec in self.candidates(HookEvent::PreLlmCall, None) {
            if !self.consented(spec).await {
                continue;
            }
            let payload = self.payload(spec, None, None, extra.clone());
            if let HookResponse::Context(text) = exec::fire(spec, &payload, &self.inner.cwd).await {
                contexts.push(text);
            }
        }
        contexts
    }

    /// Runs the hooks of an observer event and waits for them (each bounded by its timeout).
    /// For a tool event only hooks without a matcher run: use `post_tool_call` instead.
    pub async fn observe(&self, event: HookEvent, extra: Value) {
        let extra = exec::extra_object(extra);
        for spec in self.candidates(event, None) {
            if !self.consented(spec).await {
                continue;
            }
            let payload = self.payload(spec, None, None, extra.clone());
            exec::fire(spec, &payload, &self.inner.cwd).await;
        }
    }

    /// The hooks for `event` that match `tool` (any tool event without `tool`: matcher-less
    /// hooks only), in config order. Consent is checked by the caller right before each run.
    fn candidates<'a>(
        &'a self,
        event: HookEvent,
        tool: Option<&'a str>,
    ) -> impl Iterator<Item = &'a HookSpec> + 'a {
        self.inner.specs.iter().filter(move |s| {
            s.event == event
                && match tool {
                    Some(tool) => s.matches_tool(tool),
                    None => s.matcher.is_none(),
                }
        })
    }

    async fn consented(&self, spec: &HookSpec) -> bool {
        let key = (spec.event, spec.command.clone());
        if let Some(decision) = self.decided(&key) {
            return decision == Decision::Allowed;
        }
        let _asking = self.inner.asking.lock().await;
        // Another task may have decided while this one waited for the lock.
        if let Some(decision) = self.decided(&key) {
            return decision == Decision::Allowed;
        }
        let decision = self.decide(spec).await;
        lock(&self.inner.decisions).insert(key, decision);
        decision == Decision::Allowed
    }

    fn decided(&self, key: &(HookEvent, String)) -> Option<Decision> {
        lock(&self.inner.decisions).get(key).copied()
    }

    async fn decide(&self, spec: &HookSpec) -> Decision {
        let (event, command) = (spec.event, spec.command.as_str());
        if lock(&self.inner.consent).is_allowed(event, command) {
            return Decision::Allowed;
        }
        if self.inner.accept == AcceptHooks::AcceptAll {
            tracing::info!(
                "shell hook `{command}` ({event}) accepted by --accept-hooks / {ACCEPT_HOOKS_ENV} / hooks_auto_accept"
            );
            self.record(event, command);
            return Decision::Allowed;
        }
        let Some(asker) = &self.inner.asker else {
            tracing::warn!(
                "shell hook `{command}` ({event}) is not in the allowlist and nobody can be asked; \
                 skipped. Run once interactively, or use --accept-hooks / {ACCEPT_HOOKS_ENV}=1 / \
                 hooks_auto_accept: true"
            );
            return Decision::Skipped;
        };
        match asker.ask(event, command).await {
            ConsentAnswer::Once => Decision::Allowed,
            ConsentAnswer::Always => {
                self.record(event, command);
                Decision::Allowed
            }
            ConsentAnswer::Deny => {
                tracing::info!("shell hook `{command}` ({event}) denied for this session");
                Decision::Skipped
            }
        }
    }

    /// Persists consent; a failed write keeps the in-session consent and warns.
    fn record(&self, event: HookEvent, command: &str) {
        if let Err(e) = lock(&self.inner.consent).allow(event, command) {
            tracing::warn!(
                "{e}; shell hook `{command}` ({event}) is allowed for this session only"
            );
        }
    }

    fn payload(
        &self,
        spec: &HookSpec,
        tool_name: Option<&str>,
        tool_input: Option<&Value>,
        extra: serde_json::Map<String, Value>,
    ) -> Value {
        let session_id = lock(&self.inner.session_id).clone();
        let ctx = PayloadContext {
            tool_name,
            tool_input,
            session_id: &session_id,
            cwd: &self.inner.cwd,
        };
        exec::payload(spec.event, &ctx, extra)
    }
}

/// A poisoned lock only means another task panicked mid-update; the data is still usable.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
#[path = "runner_tests.rs"]
mod tests;
