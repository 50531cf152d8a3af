//! The session actor's `Op::Cron` (`/cron`): the request is carried out on a blocking task
//! (file I/O never runs on the actor) and answered with `Event::Cron(Jobs)` or a warning
//! `Notice`. At start a session with a cron link also starts forwarding finished jobs'
//! results and job-list changes to its frontend (`CronLink::forward`).

use super::Actor;
use crate::protocol::CronEvent;
use crate::protocol::CronOp;
use crate::protocol::Event;
use crate::protocol::Notice;
use crate::protocol::NoticeLevel;

impl Actor {
    pub(super) fn cron_op(&mut self, op: CronOp) {
        let Some(link) = self.spec.cron.clone() else {
            return self.notice(
                NoticeLevel::Info,
                "scheduled jobs are not available in this session".to_string(),
            );
        };
        let events = self.events.clone();
        let session_id = self.spec.session_id.clone();
        tokio::task::spawn_blocking(move || match link.answer(&op, &session_id) {
            Ok(jobs) => events.send(Event::Cron(CronEvent::Jobs(jobs))),
            Err(reason) => events.send(Event::Notice(Notice {
                level: NoticeLevel::Warning,
                text: format!("/cron: {reason}"),
            })),
        });
    }

    pub(super) fn start_cron_forwarding(&self) {
        if let Some(link) = self.spec.cron.clone() {
            let events = self.events.clone();
            let session_id = self.spec.session_id.clone();
            tokio::spawn(link.forward(
                events,
                session_id,
                tokio_util::sync::CancellationToken::new(),
            ));
        }
    }
}
