//! TUI performance budgets (run: `cargo bench --bench tui`):
//! - one full frame (chat + side panes + composer + status bar) with a 10,000-message
//!   transcript at 200×60, budget < 4 ms;
//! - keystroke → frame while 2,000 tokens/s stream in (one frame's worth of deltas, one key,
//!   one full frame), for one long paragraph (the worst case) and for a reply in paragraphs;
//! - the process's peak RSS after building and drawing that transcript, budget < 60 MB.
//!
//! Process start → first frame and idle CPU need the real binary: `benches/startup.sh`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;
use std::time::Instant;

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyModifiers;
use hermes::protocol::Event;
use hermes::protocol::MessageDelta;
use hermes::protocol::MessageStart;
use hermes::protocol::TurnStarted;
use hermes::theme::Theme;
use hermes::tui::composer::BusyHint;
use hermes::tui::composer::Composer;
use hermes::tui::composer::ComposerFocus;
use hermes::tui::composer::ComposerView;
use hermes::tui::focus::Focus;
use hermes::tui::history::InputHistory;
use hermes::tui::layout::LayoutInput;
use hermes::tui::layout::SideVisibility;
use hermes::tui::layout::compute_layout;
use hermes::tui::panes::chat::ChatView;
use hermes::tui::panes::side::SidePanes;
use hermes::tui::status_bar::StatusModel;
use hermes::tui::status_bar::render_status_bar;
use hermes::tui::transcript::Transcript;
use hermes::tui::transcript::bench_transcript;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

struct Screen {
    transcript: Transcript,
    chat: ChatView,
    composer: Composer,
    side: SidePanes,
    status: StatusModel,
    theme: Theme,
}

impl Screen {
    fn frame(&mut self, area: Rect, buf: &mut Buffer) {
        buf.reset();
        let layout = compute_layout(&LayoutInput {
            area,
            side: SideVisibility::Shown,
            focus: Focus::Composer,
            composer_height: self.composer.desired_height(area.width),
            popup_height: 0,
            queue_height: 0,
        });
        self.chat.render(
            &self.transcript,
            layout.chat,
            buf,
            &self.theme,
            Focus::Composer.into(),
        );
        self.side
            .render(&layout.side, Focus::Composer, buf, &self.theme);
        let view = ComposerView {
            focus: ComposerFocus::Focused,
            busy: BusyHint::Busy {
                mode_label: "interrupts",
            },
        };
        self.composer
            .render(layout.composer, buf, &self.theme, view);
        render_status_bar(&self.status, Instant::now(), area.width, &self.theme)
            .render(layout.status, buf);
    }
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    let index = ((samples.len() as f64 - 1.0) * p).round() as usize;
    samples[index]
}

fn peak_rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn main() {
    let area = Rect::new(0, 0, 200, 60);
    let mut buf = Buffer::empty(area);
    let build = Instant::now();
    let transcript = bench_transcript(10_000);
    let build_time = build.elapsed();
    let mut screen = Screen {
        transcript,
        chat: ChatView::new(),
        composer: Composer::new(InputHistory::new(
            std::env::temp_dir().join("hermes-bench-history"),
        )),
        side: SidePanes::default(),
        status: StatusModel::new("anthropic/claude-sonnet-4", Instant::now()),
        theme: Theme::default(),
    };
    let first = Instant::now();
    screen.frame(area, &mut buf);
    let first_frame = first.elapsed();

    let mut steady = Vec::new();
    for _ in 0..300 {
        let t = Instant::now();
        screen.frame(area, &mut buf);
        steady.push(t.elapsed());
    }

    screen
        .transcript
        .apply(&Event::TurnStarted(TurnStarted { turn_id: 99_999 }));
    // One long paragraph (a line break every 8 frames): the worst case.
    let mut keystroke = stream_with_keys(&mut screen, area, &mut buf, "\n");
    // A reply written in paragraphs, as models usually write: finished ones render once.
    let mut paragraphs = stream_with_keys(&mut screen, area, &mut buf, "\n\n");

    println!("hermes TUI benchmark (200x60, 10,000-message transcript)");
    println!(
        "  build transcript:            {:>8.2} ms",
        build_time.as_secs_f64() * 1e3
    );
    println!(
        "  first frame (cold caches):   {:>8.2} ms",
        first_frame.as_secs_f64() * 1e3
    );
    println!(
        "  frame, steady: p50 {:.3} ms  p99 {:.3} ms  (budget 4 ms)",
        percentile(&mut steady, 0.5).as_secs_f64() * 1e3,
        percentile(&mut steady, 0.99).as_secs_f64() * 1e3
    );
    println!(
        "  keystroke→frame while streaming 2,000 tok/s: p50 {:.3} ms  p99 {:.3} ms",
        percentile(&mut keystroke, 0.5).as_secs_f64() * 1e3,
        percentile(&mut keystroke, 0.99).as_secs_f64() * 1e3
    );
    println!(
        "    the same, reply in paragraphs:             p50 {:.3} ms  p99 {:.3} ms",
        percentile(&mut paragraphs, 0.5).as_secs_f64() * 1e3,
        percentile(&mut paragraphs, 0.99).as_secs_f64() * 1e3
    );
    println!(
        "  peak RSS of this process:    {:>8.1} MB (budget 60 MB)",
        peak_rss_mb()
    );
}

/// 2,000 tokens/s at 60 fps ≈ 33 tokens (~130 bytes) per frame, plus one keystroke, for 600
/// frames of a new message; `separator` ends every 8th frame's text. The time of each frame.
fn stream_with_keys(
    screen: &mut Screen,
    area: Rect,
    buf: &mut Buffer,
    separator: &str,
) -> Vec<Duration> {
    screen
        .transcript
        .apply(&Event::MessageStart(MessageStart { turn_id: 99_999 }));
    let mut times = Vec::with_capacity(600);
    for i in 0..600 {
        let t = Instant::now();
        let mut text = String::new();
        for w in 0..33 {
            text.push_str(&format!("tok{w} "));
        }
        if i % 8 == 0 {
            text.push_str(separator);
        }
        screen.transcript.apply(&Event::MessageDelta(MessageDelta {
            turn_id: 99_999,
            text,
        }));
        screen
            .composer
            .handle_key(KeyEvent::new(KeyCode::Char('x'), KeyModifiers::NONE));
        screen.frame(area, buf);
        times.push(t.elapsed());
    }
    times
}
