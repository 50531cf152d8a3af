//! The status bar's number formats: token counts, elapsed times, session minutes, and the
//! colour of the context bar by fill.

use std::time::Duration;

use crate::theme::Role;

/// Hermes's thresholds: ≥95 critical, ≥80 bad, ≥50 warn, else good.
pub fn bar_role(percent: u64) -> Role {
    match percent {
        95.. => Role::StatusBarCritical,
        80.. => Role::StatusBarBad,
        50.. => Role::StatusBarWarn,
        _ => Role::StatusBarGood,
    }
}

/// `950`, `12.3k`, `128k`, `1.5M`.
pub fn format_tokens(n: u64) -> String {
    fn scaled(n: u64, unit: u64, suffix: &str) -> String {
        let tenths = (n * 10 + unit / 2) / unit;
        if tenths >= 1000 || tenths.is_multiple_of(10) {
            format!("{}{suffix}", (tenths + 5) / 10)
        } else {
            format!("{}.{}{suffix}", tenths / 10, tenths % 10)
        }
    }
    match n {
        0..1_000 => n.to_string(),
        1_000..999_450 => scaled(n, 1_000, "k"),
        _ => scaled(n, 1_000_000, "M"),
    }
}

/// `12s`, `3m 05s`, `1h 02m`: the one elapsed-time form of the TUI (status bar, approvals,
/// agents pane, live bar, subagent details).
pub fn format_elapsed(elapsed: Duration) -> String {
    let secs = elapsed.as_secs();
    match secs {
        0..60 => format!("{secs}s"),
        60..3600 => format!("{}m {:02}s", secs / 60, secs % 60),
        _ => format!("{}h {:02}m", secs / 3600, secs % 3600 / 60),
    }
}

pub fn format_minutes(minutes: u64) -> String {
    match minutes {
        0..60 => format!("{minutes}m"),
        _ => format!("{}h {:02}m", minutes / 60, minutes % 60),
    }
}
