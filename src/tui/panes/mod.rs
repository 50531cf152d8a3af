//! The panes of the main screen: chat (the transcript view) and the side region's subagent
//! tree, goals and approvals panes.

pub mod agents;
pub mod agents_view;
pub mod approvals;
pub mod approvals_view;
pub mod chat;
pub mod goals;
pub mod goals_view;
pub mod live_bar;
pub mod side;
