//! Frame scheduling: redraw on demand, never on a fixed tick.
//!
//! Anything that changes what is on screen asks for a frame (now, or at a deadline for
//! animations such as the busy spinner). Requests are coalesced to the earliest deadline and
//! the limiter keeps frames at least `MIN_FRAME_INTERVAL` apart (60 fps). With no requests
//! there is no deadline, so an idle app sleeps until input arrives.

use std::time::Duration;
use std::time::Instant;

/// 60 frames per second at most.
pub const MIN_FRAME_INTERVAL: Duration = Duration::from_micros(16_667);

#[derive(Debug, Default)]
pub struct FrameScheduler {
    requested: Option<Instant>,
    last_frame: Option<Instant>,
}

impl FrameScheduler {
    /// Ask for a frame as soon as the limiter allows.
    pub fn request_now(&mut self, now: Instant) {
        self.request_at(now);
    }

    /// Ask for a frame at `at` (kept if an earlier request is pending).
    pub fn request_at(&mut self, at: Instant) {
        self.requested = Some(match self.requested {
            Some(existing) => existing.min(at),
            None => at,
        });
    }

    /// When the next frame should be drawn, or `None` when nothing is pending.
    pub fn deadline(&self) -> Option<Instant> {
        let requested = self.requested?;
        Some(match self.last_frame {
            Some(last) => requested.max(last + MIN_FRAME_INTERVAL),
            None => requested,
        })
    }

    /// A frame was drawn at `now`; pending requests up to now are satisfied.
    pub fn frame_drawn(&mut self, now: Instant) {
        self.last_frame = Some(now);
        if self.requested.is_some_and(|at| at <= now) {
            self.requested = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_has_no_deadline() {
        assert_eq!(FrameScheduler::default().deadline(), None);
    }

    #[test]
    fn requests_coalesce_to_the_earliest() {
        let now = Instant::now();
        let mut frames = FrameScheduler::default();
        frames.request_at(now + Duration::from_millis(100));
        frames.request_at(now + Duration::from_millis(10));
        frames.request_at(now + Duration::from_millis(50));
        assert_eq!(frames.deadline(), Some(now + Duration::from_millis(10)));
    }

    #[test]
    fn frames_are_capped_at_60_per_second() {
        let now = Instant::now();
        let mut frames = FrameScheduler::default();
        frames.request_now(now);
        frames.frame_drawn(now);
        assert_eq!(frames.deadline(), None);
        frames.request_now(now + Duration::from_millis(1));
        assert_eq!(frames.deadline(), Some(now + MIN_FRAME_INTERVAL));
    }

    #[test]
    fn a_future_request_survives_an_earlier_frame() {
        let now = Instant::now();
        let mut frames = FrameScheduler::default();
        frames.request_at(now + Duration::from_millis(100));
        frames.frame_drawn(now);
        assert_eq!(frames.deadline(), Some(now + Duration::from_millis(100)));
    }
}
