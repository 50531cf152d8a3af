//! The session actor's subagent side: steering and stopping children, pausing new spawns,
//! the per-turn delegator tools call, and the main agent's background results arriving as a
//! new message (queued behind a running turn, never interrupting it). A results turn spends
//! what is left of its user message's `agent.max_turns` budget, so a model that delegates
//! from every result stops there (with `TurnOutcome::IterationLimit`) instead of looping.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::Actor;
use super::TurnInput;
use crate::engine::delegation::TurnDelegator;
use crate::protocol::Event;
use crate::protocol::Notice;
use crate::protocol::NoticeLevel;
use crate::protocol::SpawnTree;
use crate::protocol::SpawnTrees;
use crate::protocol::Spawning;
use crate::protocol::SubagentControl;
use crate::tools::Delegator;

impl Actor {
    pub(super) fn subagent_control(&mut self, id: &str, control: SubagentControl) {
        let what = match control {
            SubagentControl::Steer { .. } => "steer",
            SubagentControl::Stop | SubagentControl::StopSubtree => "stop",
        };
        if !self.delegations.control(id, control) {
            self.notice(
                NoticeLevel::Warning,
                format!("cannot {what} subagent {id}: it is not running"),
            );
        }
    }

    pub(super) fn set_spawning(&mut self, spawning: Spawning) {
        self.delegations.set_spawning(spawning);
        let text = match spawning {
            Spawning::Paused => "new subagents are paused; running ones carry on",
            Spawning::Allowed => "new subagents may start again",
        };
        self.notice(NoticeLevel::Info, text.to_string());
    }

    /// What this turn's `delegate_task` calls go through.
    pub(super) fn delegator(
        &self,
        _turn_id: u64,
        _cancel: &CancellationToken,
    ) -> Option<Arc<dyn Delegator>> {
        Some(Arc::new(TurnDelegator {
            delegations: Arc::clone(&self.delegations),
            session_id: self.spec.session_id.clone(),
        }))
    }

    /// The saved spawn trees, or a notice that this session has none.
    fn spawn_tree_store(&mut self) -> Option<crate::engine::delegation::trees::SpawnTrees> {
        let trees = self.delegations.spawn_trees();
        if trees.is_none() {
            self.notice(
                NoticeLevel::Warning,
                "spawn trees are not saved in this session (no HERMES_HOME)".to_string(),
            );
        }
        trees
    }

    pub(super) fn list_spawn_trees(&mut self) {
        let Some(trees) = self.spawn_tree_store() else {
            return;
        };
        let events = self.events.clone();
        tokio::spawn(async move {
            if let Ok(trees) = tokio::task::spawn_blocking(move || trees.list()).await {
                events.send(Event::SpawnTrees(SpawnTrees { trees }));
            }
        });
    }

    pub(super) fn load_spawn_tree(&mut self, id: String) {
        let Some(trees) = self.spawn_tree_store() else {
            return;
        };
        let events = self.events.clone();
        tokio::spawn(async move {
            let wanted = id.clone();
            let loaded = tokio::task::spawn_blocking(move || trees.load(&wanted)).await;
            let event = match loaded {
                Ok(Ok(tree)) => Event::SpawnTree(SpawnTree { id, events: tree }),
                Ok(Err(e)) => Event::Notice(Notice {
                    level: NoticeLevel::Warning,
                    text: e.to_string(),
                }),
                Err(e) => Event::Notice(Notice {
                    level: NoticeLevel::Warning,
                    text: format!("could not load spawn tree {id}: {e}"),
                }),
            };
            events.send(event);
        });
    }

    /// Background subagents finished: their results are the next user message.
    pub(super) fn delegation_done(&mut self, text: String) {
        let headline = text
            .lines()
            .next()
            .unwrap_or_default()
            .trim_end_matches(':');
        self.notice(
            NoticeLevel::Info,
            format!("{headline} — sent to the agent as the next message"),
        );
        let results = TurnInput::SubagentResults(text.into());
        match self.running {
            Some(_) => self.queue.push_back(results),
            None => self.start(results),
        }
    }
}
