//! The full-screen terminal UI: a ratatui app that drives one engine session through
//! `protocol` only (ARCHITECTURE §1). It never imports `engine`, `providers` or `tools`.
//!
//! `app` owns the event loop and only routes; state lives in the components below, each
//! rendered from plain data so every visible state can be snapshot-tested with `TestBackend`.

pub mod agents_flow;
pub mod app;
pub mod approvals_flow;
pub mod attachment_row;
pub mod attachments;
pub mod background;
pub mod commands;
pub mod composer;
pub mod copy;
pub mod cron_flow;
pub mod editor;
pub mod engine_link;
pub mod focus;
pub mod frame;
pub mod goals_flow;
pub mod history;
pub mod input;
mod input_bytes;
pub mod input_mouse;
pub mod layout;
pub mod markdown;
pub mod mcp_flow;
pub mod overlays;
pub mod panes;
pub mod path_popup;
pub mod popup;
pub mod probe;
pub mod queue;
pub mod references;
pub mod render;
pub mod rollback_link;
pub mod signals;
pub mod skins_flow;
pub mod slash;
pub mod spawn_trees_link;
pub mod status_bar;
pub mod subagents;
pub mod terminal;
#[cfg(test)]
pub(crate) mod test_support;
pub mod thumbnails;
pub mod tools_flow;
pub mod transcript;
pub mod voice_keys;
pub mod voice_link;

use crate::config::DisplayConfig;
use crate::config::HermesHome;
use crate::protocol::SessionHandle;
use crate::theme::Theme;

/// A running engine session plus start-up notices for the transcript.
pub struct StartedSession {
    pub handle: SessionHandle,
    pub notices: Vec<String>,
}

/// Why a session could not start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartFailure {
    /// No usable provider is configured: show the onboarding overlay.
    NeedsProvider(String),
    /// Anything else, shown as a notice.
    Failed(String),
}

/// Starts engine sessions. Implemented at the binary edge, so the TUI never imports the
/// engine; called again after onboarding saves a provider.
pub trait SessionFactory: Send {
    fn start(&mut self) -> Result<StartedSession, StartFailure>;
}

pub struct TuiOptions {
    pub home: HermesHome,
    pub display: DisplayConfig,
    pub theme: Theme,
    pub factory: Box<dyn SessionFactory>,
    /// Start-up problems (config, .env, logging) to show in the transcript.
    pub warnings: Vec<String>,
    /// The voice service, or why this run has none.
    pub voice: VoiceLink,
    /// The attach service (clipboard and image files), or why this run has none.
    pub attach: AttachLink,
}

/// The attach service as the TUI gets it.
#[derive(Debug)]
pub enum AttachLink {
    Running(crate::protocol::AttachHandle),
    /// Images cannot be attached in this run; the text says why.
    Unavailable(String),
}

/// The voice service as the TUI gets it.
#[derive(Debug)]
pub enum VoiceLink {
    Running(crate::protocol::VoiceHandle),
    /// Voice cannot work in this run; the text says why and how to fix it.
    Unavailable(String),
}

#[derive(Debug, thiserror::Error)]
pub enum TuiError {
    #[error(
        "the full-screen interface needs a terminal (stdin and stdout must be a TTY); for scripts use `hermes -z \"PROMPT\"`"
    )]
    NotATerminal,
    #[error("terminal error: {0}")]
    Terminal(std::io::Error),
}

/// Run the full-screen app until the user quits.
pub async fn run(options: TuiOptions) -> Result<(), TuiError> {
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(TuiError::NotATerminal);
    }
    app::run_app(options).await
}
