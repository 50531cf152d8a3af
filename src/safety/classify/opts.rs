//! getopt-style option scanning for the rule modules.
//!
//! `scan` separates a program's arguments into short flags (clusters like `-fu` unpacked),
//! long options (`--force`, `--force-with-lease=x` kept without the value) and operands,
//! skipping the values of the options the caller says take one and honouring `--`. It does
//! not know any program's options by itself. Invariant: every argument ends up in exactly
//! one of flags, longs, operands or values.

use super::words::Word;

#[derive(Debug, Default)]
pub(super) struct Scanned<'a> {
    /// Every short flag character seen (`-fu` → `f`, `u`).
    pub short: String,
    /// Long options without their `=value`.
    pub long: Vec<&'a str>,
    pub operands: Vec<&'a Word>,
}

impl Scanned<'_> {
    pub(super) fn has(&self, short: char, long: &str) -> bool {
        self.short.contains(short) || self.long.contains(&long)
    }

    pub(super) fn has_long_prefix(&self, prefix: &str) -> bool {
        self.long.iter().any(|l| l.starts_with(prefix))
    }
}

/// Scans `args`: `short_value` lists the short options taking a value, `long_value` the
/// long ones (given as `--name`).
pub(super) fn scan<'a>(args: &'a [Word], short_value: &str, long_value: &[&str]) -> Scanned<'a> {
    let mut out = Scanned::default();
    let mut i = 0;
    let mut options_done = false;
    while let Some(w) = args.get(i) {
        i += 1;
        let text = w.text.as_str();
        if options_done || !text.starts_with('-') || text == "-" {
            out.operands.push(w);
        } else if text == "--" {
            options_done = true;
        } else if text.starts_with("--") {
            let name = text.split_once('=').map_or(text, |(n, _)| n);
            out.long.push(name);
            if !text.contains('=') && long_value.contains(&name) {
                i += 1;
            }
        } else {
            let cluster: Vec<char> = text.chars().skip(1).collect();
            for (k, c) in cluster.iter().enumerate() {
                out.short.push(*c);
                if short_value.contains(*c) {
                    if k + 1 == cluster.len() {
                        i += 1;
                    }
                    break;
                }
            }
        }
    }
    out
}
