//! `/rollback [N]` between the app, the overlay and the engine: opening the overlay (on the
//! overlay stack) and asking for the list (`Op::ListCheckpoints`), feeding
//! `Event::CheckpointList` / `CheckpointDiff` into it, and carrying out the confirmed restore
//! (`AppEvent::RestoreCheckpoint`: a notice, then `Op::RestoreCheckpoint`). The overlay asks
//! for diffs itself (`Op::CheckpointDiff`). The engine reports the restore with a `Notice`.
//!
//! It does not draw or decide keys (that is `overlays::rollback`), and it never restores
//! without the user's Enter/`y` on the diff.

use super::app::App;
use super::overlays::rollback::ListOutcome;
use super::overlays::rollback::Pick;
use super::overlays::rollback::RollbackOverlay;
use crate::protocol::CheckpointInfo;
use crate::protocol::NoticeLevel;
use crate::protocol::Op;

const USAGE: &str = "usage: /rollback [N] — N counts checkpoints from the newest (1 = newest), \
                     or is a checkpoint id prefix (4+ hex digits)";

/// `/rollback` (list) or `/rollback N` (straight to checkpoint N's diff).
pub fn open(app: &mut App, args: &str) {
    let jump = match args.trim() {
        "" => None,
        arg => match Pick::parse(arg) {
            Some(pick) => Some(pick),
            None => return app.transcript.push_notice(NoticeLevel::Info, USAGE),
        },
    };
    app.overlays.push(RollbackOverlay::new(jump));
    app.send(Op::ListCheckpoints);
}

/// The user confirmed restoring checkpoint `id` (number `index` + 1, taken at `created`); the
/// overlay has closed.
pub fn restore(app: &mut App, id: String, index: usize, created: &str) {
    app.transcript.push_notice(
        NoticeLevel::Info,
        &format!("restoring checkpoint {} ({created})…", index + 1),
    );
    app.chat.scroll_to_bottom();
    app.send(Op::RestoreCheckpoint { id });
}

/// `Event::CheckpointList`.
pub fn on_list(app: &mut App, checkpoints: &[CheckpointInfo]) {
    let Some(overlay) = app.overlays.find_mut::<RollbackOverlay>() else {
        return;
    };
    match overlay.set_list(checkpoints.to_vec()) {
        ListOutcome::Listed | ListOutcome::Ignored => {}
        ListOutcome::Empty => {
            app.overlays.remove::<RollbackOverlay>();
            let cwd = super::input::session_cwd(app);
            app.transcript.push_notice(
                NoticeLevel::Info,
                &format!("no checkpoints yet for {}", cwd.display()),
            );
        }
        ListOutcome::Jump { id } => app.send(Op::CheckpointDiff { id }),
        ListOutcome::NotFound { wanted, available } => {
            let text = match available {
                1 => format!("no checkpoint {wanted} — only 1 exists"),
                n => format!("no checkpoint {wanted} — {n} exist (1 = newest)"),
            };
            app.transcript.push_notice(NoticeLevel::Info, &text);
        }
    }
}

/// `Event::CheckpointDiff`.
pub fn on_diff(app: &mut App, id: &str, diff: &str) {
    if let Some(overlay) = app.overlays.find_mut::<RollbackOverlay>() {
        overlay.set_diff(id, diff.to_string());
    }
}

#[cfg(test)]
#[path = "rollback_link_tests.rs"]
mod tests;
