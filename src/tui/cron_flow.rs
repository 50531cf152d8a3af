//! `/cron` between the app, the jobs overlay and the engine: bare `/cron` (or `/cron list`
//! with the overlay wanted) opens the overlay and asks for the list; `/cron add SCHEDULE
//! PROMPT [--skill NAME]…`, `/cron pause|resume|run|remove JOB` send one request;
//! `Event::Cron(Jobs)` feeds the overlay and the status bar's next-job badge;
//! `Event::Cron(Delivered)` puts a finished job's result in the transcript.
//!
//! It does not read `jobs.json` (the engine does) or draw the overlay (`overlays::cron_jobs`).

use super::app::App;
use super::overlays::cron_jobs::CronJobsOverlay;
use crate::protocol::CronEvent;
use crate::protocol::CronJobs;
use crate::protocol::CronOp;
use crate::protocol::NoticeLevel;
use crate::protocol::Op;

const USAGE: &str = "usage: /cron [list] · /cron add SCHEDULE PROMPT [--skill NAME]… · \
                     /cron pause|resume|run|remove JOB";
/// The badge shows a job due within this many seconds.
const BADGE_WINDOW: i64 = 3600;

/// `/cron ARGS`.
pub fn command(app: &mut App, args: &str) {
    let words = split_words(args);
    let word = |i: usize| words.get(i).map(String::as_str);
    let op = match (word(0), words.len()) {
        (None, _) | (Some("list"), 1) => {
            app.overlays.push(CronJobsOverlay::new());
            return app.send(Op::Cron(CronOp::List));
        }
        (Some("add" | "create"), n) if n >= 3 => {
            let mut skills = Vec::new();
            let mut prompt = Vec::new();
            let mut rest = words[2..].iter();
            while let Some(w) = rest.next() {
                match (w.as_str(), rest.clone().next()) {
                    ("--skill", Some(name)) => {
                        skills.push(name.clone());
                        rest.next();
                    }
                    _ => prompt.push(w.clone()),
                }
            }
            CronOp::Add {
                schedule: words[1].clone(),
                prompt: prompt.join(" "),
                skills,
                name: None,
            }
        }
        (Some(verb @ ("pause" | "resume" | "run" | "remove" | "rm")), n) if n >= 2 => {
            let job = words[1..].join(" ");
            match verb {
                "pause" => CronOp::Pause { job },
                "resume" => CronOp::Resume { job },
                "run" => CronOp::Run { job },
                _ => CronOp::Remove { job },
            }
        }
        _ => return app.transcript.push_notice(NoticeLevel::Info, USAGE),
    };
    app.send(Op::Cron(op));
}

/// Words as a shell would split them: `"every 2h"` and `'…'` stay one word.
fn split_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut started = false;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started {
                    out.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            (None, c) => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        out.push(word);
    }
    out
}

/// `Event::Cron`.
pub fn on_event(app: &mut App, event: &CronEvent, now_unix: i64) {
    match event {
        CronEvent::Jobs(jobs) => {
            app.status.cron = badge(jobs, now_unix);
            let overlay_open = match app.overlays.find_mut::<CronJobsOverlay>() {
                Some(overlay) => {
                    overlay.set_list(jobs);
                    true
                }
                None => false,
            };
            if !jobs.changed.is_empty() && !overlay_open {
                let mut text = format!("cron: {}", jobs.changed);
                if !jobs.scheduler_alive {
                    text.push_str(&format!("\n{}", jobs.scheduler));
                }
                app.transcript.push_notice(NoticeLevel::Info, &text);
            }
        }
        CronEvent::Delivered(delivery) => {
            let verb = if delivery.failed {
                "failed"
            } else {
                "finished"
            };
            let title = format!("⏰ cron · {} {verb} · {}", delivery.job_name, delivery.at);
            app.transcript.push_info(&title, &delivery.text);
        }
    }
}

/// `⏰ NAME HH:MM` for the earliest job due within the hour; empty otherwise.
pub fn badge(jobs: &CronJobs, now_unix: i64) -> String {
    jobs.jobs
        .iter()
        .filter(|j| j.state != "paused")
        .filter_map(|j| Some((j.next_run_unix?, j)))
        .filter(|(at, _)| *at - now_unix <= BADGE_WINDOW)
        .min_by_key(|(at, _)| *at)
        .map(|(_, job)| {
            let time = job
                .next_run
                .as_deref()
                .and_then(|t| t.rsplit(' ').next())
                .unwrap_or("");
            format!("⏰ {} {time}", job.name)
        })
        .unwrap_or_default()
}

#[cfg(test)]
#[path = "cron_flow_tests.rs"]
mod tests;
