//! `/cron`: the scheduled jobs — name, schedule in words, next run in local time, last result
//! — with keys to pause or resume (`p`), run at the next tick (`r`) and remove (`d`, asked
//! twice), and a line that says whether a scheduler will fire them at all.
//!
//! Stages: *loading* (waiting for `Event::Cron(Jobs)`; Esc closes) → *list* (↑/↓ or `k`/`j`
//! move, Esc/`q` close). A key sends `Op::Cron(…)`; the answer replaces the rows.
//!
//! A widget and a small state machine only; `cron_flow` opens it and feeds it lists.
//! Invariant: `selected < jobs.len()` whenever the list is not empty.

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::stack::Overlay;
use super::stack::OverlayAction;
use crate::protocol::CronJobView;
use crate::protocol::CronJobs;
use crate::protocol::CronOp;
use crate::protocol::Op;
use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::markdown::wrap::truncate;
use crate::tui::popup::MAX_ROWS;
use crate::tui::popup::draw_menu_rows;

const TITLE: &str = " Scheduled jobs ";
const LEGEND: &str = "↑↓ choose · p pause/resume · r run now · d remove · Esc close";
const EMPTY: &str = "No scheduled jobs. Add one: /cron add \"every 2h\" \"Check the build\"";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Loading,
    List,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CronJobsOverlay {
    list: CronJobs,
    selected: usize,
    stage: Stage,
    /// The id `d` was pressed on once: a second `d` removes it.
    confirm_remove: Option<String>,
    status: String,
}

impl Default for CronJobsOverlay {
    fn default() -> Self {
        Self::new()
    }
}

impl CronJobsOverlay {
    pub fn new() -> Self {
        Self {
            list: CronJobs::default(),
            selected: 0,
            stage: Stage::Loading,
            confirm_remove: None,
            status: String::new(),
        }
    }

    /// A list arrived (selection kept where it can be).
    pub fn set_list(&mut self, list: &CronJobs) {
        self.list = list.clone();
        self.selected = self.selected.min(self.list.jobs.len().saturating_sub(1));
        self.stage = Stage::List;
        if !list.changed.is_empty() {
            self.status.clone_from(&list.changed);
        }
    }

    fn current(&self) -> Option<&CronJobView> {
        self.list.jobs.get(self.selected)
    }

    fn act(&mut self, key: char) -> OverlayAction {
        let Some(job) = self.current() else {
            return OverlayAction::None;
        };
        let id = job.id.clone();
        let op = match key {
            'p' if job.state == "paused" => CronOp::Resume { job: id },
            'p' => CronOp::Pause { job: id },
            'r' => CronOp::Run { job: id },
            'd' if self.confirm_remove.as_deref() == Some(id.as_str()) => {
                self.confirm_remove = None;
                CronOp::Remove { job: id }
            }
            'd' => {
                self.status = format!("press d again to remove '{}'", job.name);
                self.confirm_remove = Some(id);
                return OverlayAction::None;
            }
            _ => return OverlayAction::None,
        };
        self.confirm_remove = None;
        OverlayAction::Send(Op::Cron(op))
    }

    fn row_meta(job: &CronJobView) -> String {
        let next = match (&job.next_run, job.state.as_str()) {
            (_, "paused") => "paused".to_string(),
            (Some(at), _) => format!("next {at}"),
            (None, state) => state.to_string(),
        };
        let last = match (job.last_status.as_deref(), &job.last_run) {
            (Some("ok"), Some(at)) => format!(" · last ok {at}"),
            (Some(_), Some(at)) => format!(" · last failed {at}"),
            _ => String::new(),
        };
        format!("{next}{last}")
    }

    fn render_list(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let rows = self.list.jobs.len().clamp(1, MAX_ROWS);
        // Borders, the heading, the list, the selected job's detail, the status, scheduler,
        // the legend.
        let height = u16::try_from(rows + 8).unwrap_or(u16::MAX);
        let inner = frame(area, height, buf, theme);
        if inner.height == 0 {
            return;
        }
        let width = usize::from(inner.width);
        let list = crate::tui::overlays::heading_and_list(
            inner,
            "jobs in cron/jobs.json (times in the scheduler's zone)",
            rows,
            5,
            buf,
            theme,
        );
        if self.list.jobs.is_empty() {
            buf.set_stringn(
                list.x,
                list.y,
                truncate(EMPTY, width),
                width,
                theme.style(Role::Dim),
            );
        }
        draw_menu_rows(
            &self.list.jobs,
            self.selected,
            list,
            buf,
            theme,
            |job, y, buf, (main, meta)| {
                let head = format!(" {}  {}", job.name, job.schedule_words);
                let (x, _) = buf.set_stringn(inner.x, y, truncate(&head, width), width, main);
                let room = width.saturating_sub(crate::tui::markdown::wrap::display_width(&head));
                let tail = format!("  {}", Self::row_meta(job));
                buf.set_stringn(x, y, truncate(&tail, room), room, meta);
            },
        );
        let bottom = inner.y + inner.height;
        let detail = self
            .current()
            .map(|j| match &j.last_error {
                Some(error) if j.last_status.as_deref() != Some("ok") => {
                    format!("{} · {} · last error: {error}", j.id, j.schedule)
                }
                _ => format!("{} · {} · deliver {}", j.id, j.schedule, j.deliver),
            })
            .unwrap_or_default();
        let scheduler_role = if self.list.scheduler_alive {
            Role::Dim
        } else {
            Role::Warn
        };
        let lines = [
            (bottom.saturating_sub(4), detail.as_str(), Role::Dim),
            (bottom.saturating_sub(3), self.status.as_str(), Role::Accent),
            (
                bottom.saturating_sub(2),
                self.list.scheduler.as_str(),
                scheduler_role,
            ),
            (bottom.saturating_sub(1), LEGEND, Role::Dim),
        ];
        for (y, text, role) in lines {
            buf.set_stringn(inner.x, y, truncate(text, width), width, theme.style(role));
        }
    }
}

impl Overlay for CronJobsOverlay {
    fn title(&self) -> &str {
        TITLE
    }

    fn handle_key(&mut self, key: KeyEvent) -> OverlayAction {
        match (self.stage, key.code) {
            (_, KeyCode::Esc) | (Stage::List, KeyCode::Char('q')) => OverlayAction::Close,
            (Stage::Loading, _) => OverlayAction::None,
            (Stage::List, KeyCode::Up | KeyCode::Char('k')) => {
                self.selected = self.selected.saturating_sub(1);
                self.confirm_remove = None;
                OverlayAction::None
            }
            (Stage::List, KeyCode::Down | KeyCode::Char('j')) => {
                if self.selected + 1 < self.list.jobs.len() {
                    self.selected += 1;
                }
                self.confirm_remove = None;
                OverlayAction::None
            }
            (Stage::List, KeyCode::Char(c @ ('p' | 'r' | 'd'))) => self.act(c),
            (Stage::List, _) => OverlayAction::None,
        }
    }

    fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        match self.stage {
            Stage::Loading => {
                crate::tui::overlays::loading_modal(area, 110, TITLE, "jobs", buf, theme);
            }
            Stage::List => self.render_list(area, buf, theme),
        }
    }
}

fn frame(area: Rect, rows: u16, buf: &mut Buffer, theme: &Theme) -> Rect {
    crate::tui::overlays::framed_modal(area, 110, rows, TITLE, buf, theme)
}

#[cfg(test)]
#[path = "cron_jobs_tests.rs"]
pub(crate) mod tests;
