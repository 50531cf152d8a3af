//! The API-call budget of one user message (`agent.max_turns`): the message's turn and the
//! turns its subagents' results start share it, so a model that delegates again from every
//! result stops instead of looping. The session actor keeps one `MessageBudget`; a turn gets
//! what is left of it (`TurnInput::SubagentResults` continues the budget, any other input
//! starts it afresh). Also the notice a turn sends when it stops on the budget. Pure.

use super::turn::TurnInput;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MessageBudget {
    limit: u32,
    spent: u32,
}

impl MessageBudget {
    pub fn new(limit: u32) -> Self {
        Self { limit, spent: 0 }
    }

    /// The whole budget of one message.
    pub fn limit(self) -> u32 {
        self.limit
    }

    /// The API calls a turn started for `input` may make.
    pub fn for_turn(&mut self, input: &TurnInput) -> u32 {
        if !matches!(input, TurnInput::SubagentResults(_)) {
            self.spent = 0;
        }
        self.limit.saturating_sub(self.spent)
    }

    /// A turn of the current message made `calls` API calls.
    pub fn spend(&mut self, calls: u32) {
        self.spent = self.spent.saturating_add(calls);
    }
}

/// What the user is told when a turn allowed `allowed` of the message's `limit` calls made
/// `made` and stopped there.
pub fn spent_notice(allowed: u32, limit: u32, made: u32) -> String {
    if allowed >= limit {
        format!(
            "stopped after {limit} API calls in one turn (agent.max_turns); send a message to \
             continue"
        )
    } else if made == 0 {
        format!(
            "stopped: the subagents' results arrived after this message had used all {limit} \
             API calls of agent.max_turns; they are in the conversation — send a message to \
             continue"
        )
    } else {
        format!(
            "stopped: this message and the turns its subagents' results started used all \
             {limit} API calls of agent.max_turns; send a message to continue"
        )
    }
}

#[cfg(test)]
#[path = "turn_budget_tests.rs"]
mod tests;
