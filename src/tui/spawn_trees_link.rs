//! `/agents history` between the app, the picker and the engine: opening the picker (on the
//! overlay stack) and asking for the saved trees (`Op::ListSpawnTrees`), feeding
//! `Event::SpawnTrees` into it, sending `Op::LoadSpawnTree` for the tree Enter chose
//! (`AppEvent::LoadSpawnTree`), and turning the `Event::SpawnTree` that answers it into the
//! monitor's read-only history mode ([`SavedTree`]).
//!
//! A saved tree is rebuilt by replaying its recorded `SubagentEvent`s into a fresh
//! [`SubagentTree`] at one fixed `Instant` ([`replay`]); the monitor then renders and sorts it
//! at that same instant, so a finished child shows its recorded `duration_ms` and nothing
//! ticks. Logs come back from the recorded `Activity` events. The live tree is not touched.
//!
//! It does not draw or decide picker keys (that is `overlays::spawn_trees`); monitor keys in
//! history mode are `agents_flow`'s. A `SpawnTree` nobody asked for is ignored; a load error
//! arrives as an ordinary `Notice`.

use std::time::Instant;

use super::app::App;
use super::focus::Focus;
use super::overlays::spawn_trees::SpawnTreesPicker;
use super::overlays::spawn_trees::TreesOutcome;
use super::panes::agents::AgentsPane;
use super::subagents::SubagentTree;
use crate::protocol::NoticeLevel;
use crate::protocol::Op;
use crate::protocol::SpawnTreeInfo;
use crate::protocol::SubagentEvent;

/// A saved spawn tree on show in the monitor: its own pane (selection, sort, filter; `saved`
/// holds the date) and the fixed instant it was replayed and is rendered at.
#[derive(Debug)]
pub struct SavedTree {
    pub pane: AgentsPane,
    pub at: Instant,
}

/// `/agents history`: the picker, waiting for the list.
pub fn open(app: &mut App) {
    app.overlays.push(SpawnTreesPicker::new());
    app.send(Op::ListSpawnTrees);
}

/// Enter chose `info` in the picker (which has closed): ask for the tree.
pub fn load(app: &mut App, info: SpawnTreeInfo) {
    let id = info.id.clone();
    app.monitor.requested = Some(info);
    app.send(Op::LoadSpawnTree { id });
}

/// `Event::SpawnTrees`.
pub fn on_list(app: &mut App, trees: &[SpawnTreeInfo]) {
    let Some(picker) = app.overlays.find_mut::<SpawnTreesPicker>() else {
        return;
    };
    match picker.set_list(trees.to_vec()) {
        TreesOutcome::Listed | TreesOutcome::Ignored => {}
        TreesOutcome::Empty => {
            app.overlays.remove::<SpawnTreesPicker>();
            app.transcript
                .push_notice(NoticeLevel::Info, "no saved spawn trees yet");
        }
    }
}

/// `Event::SpawnTree`: show it in the monitor if it is the one asked for.
pub fn on_tree(app: &mut App, id: &str, events: &[SubagentEvent]) {
    let wanted = app
        .monitor
        .requested
        .as_ref()
        .is_some_and(|info| info.id == id);
    if !wanted {
        return;
    }
    let Some(info) = app.monitor.requested.take() else {
        return;
    };
    let at = Instant::now();
    app.monitor.history = Some(SavedTree {
        pane: AgentsPane {
            tree: replay(events, at),
            saved: Some(info.finished),
            ..AgentsPane::default()
        },
        at,
    });
    app.monitor.overlay = None;
    app.focus = Focus::Agents;
}

/// A tree rebuilt from recorded events, all applied at `at`.
pub fn replay(events: &[SubagentEvent], at: Instant) -> SubagentTree {
    let mut tree = SubagentTree::default();
    for event in events {
        tree.apply(event, at);
    }
    tree
}

#[cfg(test)]
#[path = "spawn_trees_link_tests.rs"]
mod tests;
