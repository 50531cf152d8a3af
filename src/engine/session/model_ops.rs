//! The session actor's `/model` switch: the spec's switcher resolves the new endpoint, which
//! replaces `spec.endpoint` (a running turn keeps its model; the next turn uses the new one),
//! the status's context window and the recorder's billing route.

use super::Actor;
use crate::protocol::ErrorEvent;
use crate::protocol::ErrorKind;
use crate::protocol::Event;
use crate::protocol::ModelSelection;
use crate::protocol::NoticeLevel;

impl Actor {
    pub(super) fn switch_model(&mut self, selection: &ModelSelection) {
        let Some(switcher) = self.spec.switcher.clone() else {
            self.events.send(Event::Error(ErrorEvent {
                kind: ErrorKind::Config,
                text: "this session cannot switch models".to_string(),
            }));
            return;
        };
        match switcher.switch(selection) {
            Ok(endpoint) => {
                self.status.context_window = endpoint.context_window;
                self.spec.endpoint = endpoint;
                self.recorder.set_route(&self.spec.endpoint.billing_route());
                self.events.send(Event::SessionInfo(self.session_info()));
                let when = if self.running.is_some() {
                    "from the next turn"
                } else {
                    "now"
                };
                self.notice(
                    NoticeLevel::Info,
                    format!("model switched to {} ({when})", self.spec.endpoint.model),
                );
            }
            Err(err) => self.events.send(Event::Error(ErrorEvent {
                kind: ErrorKind::Config,
                text: err.to_string(),
            })),
        }
    }
}
