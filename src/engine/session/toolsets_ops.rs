//! The session actor's `Op::Toolsets` (`/tools`): list the toolsets, or switch one in
//! config.yaml, on a blocking task (file I/O never runs on the actor), answered with
//! `Event::Toolsets` or a warning `Notice`. The session's own tools do not change: they were
//! fixed at start, so the provider's prompt cache stays valid (`toolsets_view::APPLIES`).

use super::Actor;
use crate::protocol::Event;
use crate::protocol::Notice;
use crate::protocol::NoticeLevel;
use crate::protocol::ToolsetsOp;

impl Actor {
    pub(super) fn toolsets_op(&mut self, op: ToolsetsOp) {
        let Some(link) = self.spec.toolsets.clone() else {
            return self.notice(
                NoticeLevel::Info,
                "toolsets cannot be listed or changed in this session".to_string(),
            );
        };
        let events = self.events.clone();
        tokio::task::spawn_blocking(move || {
            let change = match &op {
                ToolsetsOp::List => None,
                ToolsetsOp::Set { name, enabled } => Some((name.as_str(), *enabled)),
            };
            match link.answer(change) {
                Ok(list) => events.send(Event::Toolsets(list)),
                Err(reason) => events.send(Event::Notice(Notice {
                    level: NoticeLevel::Warning,
                    text: format!("/tools: {reason}"),
                })),
            }
        });
    }
}
