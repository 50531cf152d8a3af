//! MCP servers in the TUI: the `/status` section that lists them (`status_section`) and
//! `/reload-mcp`, with the confirmation Hermes asks for because a reload invalidates the
//! provider's prompt cache.
//!
//! `/reload-mcp` asks with a [`ConfirmDialog`] while `approvals.mcp_reload_confirm` is true
//! (read once at start-up, see [`McpUi::new`]); `/reload-mcp now` and a false setting send
//! `Op::ReloadMcp` at once. "Don't ask again" turns the question off for this run at once and
//! saves the setting to config.yaml on a blocking task (never on the UI task); how that went
//! comes back as an `AppEvent::Notice`.
//!
//! This module does not connect to servers or know their tools (the engine does and reports
//! `Event::McpStatus`, kept in `app.mcp_servers`), and does not label tool cells (the
//! transcript does). Invariant: the dialog is open only between `/reload-mcp` and the key
//! that answers it; every answer closes it and leaves a line in the transcript.

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::app::App;
use super::app::AppEvent;
use super::overlays::confirm::ConfirmAction;
use super::overlays::confirm::ConfirmDialog;
use super::overlays::stack::Overlay;
use super::overlays::stack::OverlayAction;
use crate::config::ApprovalsConfig;
use crate::protocol::McpServerState;
use crate::protocol::McpServerStatus;
use crate::protocol::NoticeLevel;
use crate::protocol::Op;
use crate::theme::Theme;

/// The config key "Don't ask again" writes.
pub const RELOAD_CONFIRM_KEY: &str = "approvals.mcp_reload_confirm";

const DIALOG_TITLE: &str = "Reload MCP servers?";
const DIALOG_BODY: &str = "Reloading MCP servers rebuilds the tool list and invalidates the \
                           provider's prompt cache — the next message re-sends the full input.";
/// The dialog's choices, in the order [`ReloadChoice::from_index`] reads them.
const CHOICES: [&str; 3] = ["Reload now", "Reload and don't ask again", "Cancel"];

pub const RELOADING: &str = "reloading MCP servers…";
pub const CANCELLED: &str = "/reload-mcp cancelled — MCP tools unchanged";
pub const NO_SERVERS: &str = "MCP: none configured — add one with hermes mcp add NAME --command …";

/// Whether `/reload-mcp` asks before reloading (`approvals.mcp_reload_confirm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReloadConfirm {
    Ask,
    DontAsk,
}

/// The app's MCP state that is not the engine's: the setting (the dialog, while it is on
/// screen, is a [`ReloadDialog`] on the overlay stack).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpUi {
    pub reload_confirm: ReloadConfirm,
}

impl McpUi {
    pub fn new(approvals: &ApprovalsConfig) -> Self {
        Self {
            reload_confirm: if approvals.mcp_reload_confirm {
                ReloadConfirm::Ask
            } else {
                ReloadConfirm::DontAsk
            },
        }
    }
}

/// What the dialog's answer means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReloadChoice {
    ReloadOnce,
    ReloadAlways,
    Cancel,
}

impl ReloadChoice {
    fn from_index(index: usize) -> Self {
        match index {
            0 => Self::ReloadOnce,
            1 => Self::ReloadAlways,
            _ => Self::Cancel,
        }
    }
}

/// `/reload-mcp [now]`.
pub fn command(app: &mut App, args: &str) {
    match (args.trim(), app.mcp.reload_confirm) {
        ("", ReloadConfirm::Ask) => {
            app.overlays.push(ReloadDialog {
                dialog: ConfirmDialog::new(DIALOG_TITLE, DIALOG_BODY, &CHOICES),
                answered: false,
            });
        }
        ("", ReloadConfirm::DontAsk) => reload(app),
        (now, _) if now.eq_ignore_ascii_case("now") => reload(app),
        _ => notice(
            app,
            NoticeLevel::Info,
            "usage: /reload-mcp [now] — now skips the confirmation",
        ),
    }
}

/// The `/reload-mcp` question on the overlay stack: the generic dialog, answered once.
pub struct ReloadDialog {
    dialog: ConfirmDialog,
    answered: bool,
}

impl ReloadDialog {
    pub fn dialog(&self) -> &ConfirmDialog {
        &self.dialog
    }
}

impl Overlay for ReloadDialog {
    fn title(&self) -> &str {
        DIALOG_TITLE
    }

    fn handle_key(&mut self, key: KeyEvent) -> OverlayAction {
        let choice = match self.dialog.handle_key(key) {
            ConfirmAction::None => return OverlayAction::None,
            ConfirmAction::Choose(index) => ReloadChoice::from_index(index),
            ConfirmAction::Cancel => ReloadChoice::Cancel,
        };
        self.answered = true;
        OverlayAction::App(AppEvent::McpReload(choice))
    }

    fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        self.dialog.render(area, buf, theme);
    }

    fn is_complete(&self) -> bool {
        self.answered
    }
}

/// The dialog's answer (it has closed).
pub fn answered(app: &mut App, choice: ReloadChoice) {
    match choice {
        ReloadChoice::ReloadOnce => reload(app),
        ReloadChoice::ReloadAlways => {
            reload(app);
            stop_asking(app);
        }
        ReloadChoice::Cancel => notice(app, NoticeLevel::Info, CANCELLED),
    }
}

fn reload(app: &mut App) {
    if app.ops.is_some() {
        notice(app, NoticeLevel::Info, RELOADING);
    }
    // Without a session this only says so.
    app.send(Op::ReloadMcp);
}

/// "Don't ask again": off for this run now, and saved for the next ones off the UI task.
fn stop_asking(app: &mut App) {
    app.mcp.reload_confirm = ReloadConfirm::DontAsk;
    let home = app.home.clone();
    let tx = app.app_tx.clone();
    tokio::task::spawn_blocking(move || {
        let report = match crate::config::edit::config_set(&home, RELOAD_CONFIRM_KEY, "false") {
            Ok(_) => AppEvent::Notice(
                NoticeLevel::Info,
                format!(
                    "/reload-mcp will no longer ask — set {RELOAD_CONFIRM_KEY}: true in \
                     config.yaml to bring the question back"
                ),
            ),
            Err(err) => AppEvent::Notice(
                NoticeLevel::Warning,
                format!("could not save {RELOAD_CONFIRM_KEY}: {err} — it will ask again next run"),
            ),
        };
        let _ = tx.send(report);
    });
}

/// The `/status` lines about MCP: one per server (`name · transport · state · N tools`, a
/// failed one with its reason and when it retries), or how to add one.
pub fn status_section(servers: &[McpServerStatus]) -> String {
    if servers.is_empty() {
        return NO_SERVERS.to_string();
    }
    let mut out = String::from("MCP servers:");
    for server in servers {
        let tools = match server.tools.len() {
            1 => "1 tool".to_string(),
            n => format!("{n} tools"),
        };
        out.push_str(&format!(
            "\n  {} · {} · {} · {tools}",
            server.name,
            server.transport.label(),
            server.state.word(),
        ));
        match &server.state {
            McpServerState::Failed {
                reason,
                retry_in_secs: Some(secs),
            } => out.push_str(&format!(" — {reason}; retrying in {secs} s")),
            McpServerState::Failed {
                reason,
                retry_in_secs: None,
            } => out.push_str(&format!(" — {reason}; no more retries until /reload-mcp")),
            McpServerState::Connecting | McpServerState::Connected | McpServerState::Disabled => {}
        }
    }
    out
}

fn notice(app: &mut App, level: NoticeLevel, text: &str) {
    app.transcript.push_notice(level, text);
}

#[cfg(test)]
#[path = "mcp_flow_tests.rs"]
mod tests;
