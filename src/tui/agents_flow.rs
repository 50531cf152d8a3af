//! Keys and actions of the subagent monitor (the Subagents pane when focused, `/agents`,
//! `/tasks`, Ctrl+T), its log/details overlay, and F7 for the live bar.
//!
//! List keys (while the pane has focus): ↑/↓ or `k`/`j` move, `g`/`G` (Home/End) first/last,
//! Enter, `t`, → or `l` open the selected child's live log, `d` its details, `e` a one-line
//! steer input (Enter sends `Op::Subagent{Steer}`, Esc cancels), `x` stops the child
//! (`Op::Subagent{Stop}`), `X` its whole subtree (`StopSubtree`), `p` pauses or resumes new
//! spawns (`Op::SetSpawning`), `s` cycles the sort, `f` the filter, Esc or `q` go back to the
//! composer. On a saved tree (`/agents history`, `spawn_trees_link`) the list is read-only:
//! `x`/`X`/`e`/`p` only show a hint, and Esc/`q` go back to the live tree. Ctrl/Alt chords
//! fall through to the app (Ctrl+C still interrupts, Ctrl+T still toggles focus). F7 works
//! everywhere.
//!
//! [`list_key`] is pure over the pane (tested without an app); [`handle_key`] applies its
//! result to the app. Stop and steer are only offered for running children. Nothing here
//! draws or keeps time: [`next_redraw`] asks for one frame per second while a child runs, so
//! elapsed times advance without a fixed tick.

use std::time::Duration;
use std::time::Instant;

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyModifiers;

use super::app::App;
use super::approvals_flow::KeyOutcome;
use super::focus::Focus;
use super::overlays::subagent::OverlayAction;
use super::overlays::subagent::SubagentOverlay;
use super::overlays::subagent::SubagentView;
use super::panes::agents::AgentsPane;
use super::panes::agents::SteerInput;
use super::panes::live_bar::LiveBarMode;
use super::spawn_trees_link::SavedTree;
use super::subagents::SubagentTree;
use crate::protocol::Op;
use crate::protocol::SpawnTreeInfo;
use crate::protocol::Spawning;
use crate::protocol::SubagentControl;

/// The monitor's app-level state besides the pane itself (`app.side.agents`).
#[derive(Default)]
pub struct MonitorUi {
    /// A child's log or details, drawn over the monitor.
    pub overlay: Option<SubagentOverlay>,
    /// F7: the live bar's shape, for this session only.
    pub live_bar: LiveBarMode,
    /// The saved tree asked for with `Op::LoadSpawnTree`, until it arrives.
    pub requested: Option<SpawnTreeInfo>,
    /// A saved tree shown instead of the live one (read-only); Esc drops it.
    pub history: Option<SavedTree>,
}

/// What a key in the list asks the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum MonitorAction {
    /// Not a monitor key: let the app have it.
    Ignored,
    /// Used; only the pane changed.
    Handled,
    Send(Op),
    Open {
        id: String,
        view: SubagentView,
    },
    /// Leave the monitor (focus back to the composer).
    Back,
    Hint(String),
}

/// One key while the list has focus. Pure over `pane` (see the module docs for the keys).
pub fn list_key(pane: &mut AgentsPane, key: KeyEvent, now: Instant) -> MonitorAction {
    if key
        .modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
    {
        return MonitorAction::Ignored;
    }
    if pane.steer.is_some() {
        return steer_key(pane, key);
    }
    if pane.saved.is_some() && matches!(key.code, KeyCode::Char('x' | 'X' | 'e' | 'p')) {
        return MonitorAction::Hint(
            "a saved spawn tree is read-only — Esc back to live".to_string(),
        );
    }
    let selected = pane.selected_node(now).map(|n| {
        let running = n.status().is_running();
        (n.id.clone(), n.label.clone(), running)
    });
    let open = |view| match &selected {
        Some((id, _, _)) => MonitorAction::Open {
            id: id.clone(),
            view,
        },
        None => MonitorAction::Handled,
    };
    let control = |control: SubagentControl| match &selected {
        Some((id, _, true)) => MonitorAction::Send(Op::Subagent {
            id: id.clone(),
            control,
        }),
        Some((_, label, false)) => MonitorAction::Hint(format!("{label} has already finished")),
        None => MonitorAction::Handled,
    };
    match key.code {
        KeyCode::Up | KeyCode::Char('k') => pane.move_selection(-1, now),
        KeyCode::Down | KeyCode::Char('j') => pane.move_selection(1, now),
        KeyCode::Home | KeyCode::Char('g') => pane.select_first(now),
        KeyCode::End | KeyCode::Char('G') => pane.select_last(now),
        KeyCode::Enter | KeyCode::Right | KeyCode::Char('t' | 'l') => {
            return open(SubagentView::Log);
        }
        KeyCode::Char('d') => return open(SubagentView::Details),
        KeyCode::Char('e') => match &selected {
            Some((id, label, true)) => {
                pane.steer = Some(SteerInput {
                    id: id.clone(),
                    label: label.clone(),
                    text: String::new(),
                });
            }
            Some((_, label, false)) => {
                return MonitorAction::Hint(format!("{label} has already finished"));
            }
            None => {}
        },
        KeyCode::Char('x') => return control(SubagentControl::Stop),
        KeyCode::Char('X') => return control(SubagentControl::StopSubtree),
        KeyCode::Char('p') => {
            pane.spawning = match pane.spawning {
                Spawning::Allowed => Spawning::Paused,
                Spawning::Paused => Spawning::Allowed,
            };
            return MonitorAction::Send(Op::SetSpawning(pane.spawning));
        }
        KeyCode::Char('s') => pane.sort = pane.sort.next(),
        KeyCode::Char('f') => pane.filter = pane.filter.next(),
        KeyCode::Esc | KeyCode::Char('q') => return MonitorAction::Back,
        _ => return MonitorAction::Ignored,
    }
    MonitorAction::Handled
}

/// A key while the steer input is open: it takes every key (typing never leaks out).
fn steer_key(pane: &mut AgentsPane, key: KeyEvent) -> MonitorAction {
    let Some(steer) = &mut pane.steer else {
        return MonitorAction::Ignored;
    };
    match key.code {
        KeyCode::Char(c) => steer.text.push(c),
        KeyCode::Backspace => {
            steer.text.pop();
        }
        KeyCode::Esc => pane.steer = None,
        KeyCode::Enter => {
            let text = steer.text.trim().to_string();
            if text.is_empty() {
                return MonitorAction::Handled;
            }
            let id = steer.id.clone();
            pane.steer = None;
            if let Some(node) = pane.tree.get_mut(&id) {
                node.steer_sent(&text);
            }
            return MonitorAction::Send(Op::Subagent {
                id,
                control: SubagentControl::Steer { text },
            });
        }
        _ => {}
    }
    MonitorAction::Handled
}

/// A key for the monitor, its overlay or the live bar; `NotMine` lets the app have it.
pub fn handle_key(app: &mut App, key: KeyEvent) -> KeyOutcome {
    if key.code == KeyCode::F(7) {
        app.monitor.live_bar = app.monitor.live_bar.toggled();
        return KeyOutcome::Handled;
    }
    if app.focus != Focus::Agents {
        return KeyOutcome::NotMine;
    }
    let chord = key
        .modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
    if let Some(overlay) = &mut app.monitor.overlay {
        if chord {
            return KeyOutcome::NotMine;
        }
        if overlay.handle_key(key) == OverlayAction::Close {
            app.monitor.overlay = None;
        }
        return KeyOutcome::Handled;
    }
    let (pane, now) = match &mut app.monitor.history {
        Some(saved) => (&mut saved.pane, saved.at),
        None => (&mut app.side.agents, Instant::now()),
    };
    match list_key(pane, key, now) {
        MonitorAction::Ignored => return KeyOutcome::NotMine,
        MonitorAction::Handled => {}
        MonitorAction::Send(op) => app.send(op),
        MonitorAction::Open { id, view } => {
            pane.selected = Some(id.clone());
            app.monitor.overlay = Some(SubagentOverlay::new(&id, view));
        }
        MonitorAction::Back if app.monitor.history.is_some() => app.monitor.history = None,
        MonitorAction::Back => app.focus = Focus::Composer,
        MonitorAction::Hint(text) => super::input::show_hint(app, &text, Duration::from_secs(2)),
    }
    KeyOutcome::Handled
}

/// `/agents`, `/tasks`: focus the monitor, on its list.
pub fn open(app: &mut App) {
    app.monitor.overlay = None;
    app.monitor.history = None;
    app.focus = Focus::Agents;
}

/// One redraw a second while a child runs (elapsed times move), none otherwise.
pub fn next_redraw(tree: &SubagentTree, now: Instant) -> Option<Instant> {
    (tree.running_count() > 0).then(|| now + Duration::from_secs(1))
}

#[cfg(test)]
#[path = "agents_flow_tests.rs"]
mod tests;
