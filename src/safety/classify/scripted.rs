//! The walker's side of tools driven by a script of their own: sed, ed and make.
//!
//! What their scripts run is classified like `bash -c` text; what they write is checked like
//! any other write. A script that runs its own input (`sed e`, `sed s///e`) is classified
//! from that input when the line shows it (`echo … | sed e`), and is `opaque_shell`
//! otherwise. It does not read script files (`sed -f`, a `Makefile` on disk). Invariant:
//! recursion goes through `Walker::script`, one level deeper.

use super::keys;
use super::minilang::{ed_script, make_commands};
use super::opts::scan;
use super::sed::effects;
use super::source::Source;
use super::walk::{Input, Walker};
use super::words::{Word, without_expansions};

impl Walker<'_> {
    pub(super) fn sed(&mut self, args: &[Word], input: Input, depth: usize) {
        let fx = effects(args);
        for path in &fx.writes {
            self.written(&Word::plain(path));
        }
        for command in &fx.runs {
            self.script(command, depth + 1);
        }
        if fx.runs_input {
            match input.source() {
                Some(Source::Literal(text)) => self.script(&text, depth + 1),
                _ => self.sink.dangerous(
                    keys::OPAQUE_SHELL,
                    "sed runs the lines it reads as commands (e)".to_string(),
                ),
            }
        }
    }

    /// `ed FILE` with its commands on stdin: `!cmd` lines run, `w` writes FILE.
    pub(super) fn ed(&mut self, args: &[Word], input: Input, depth: usize) {
        let s = scan(args, "p", &["--prompt"]);
        let script = match input.source() {
            Some(Source::Literal(text)) => Some(ed_script(&text)),
            _ => None,
        };
        for command in script.iter().flat_map(|s| &s.runs) {
            self.script(command, depth + 1);
        }
        // Without a visible script, assume it writes the file it edits.
        if script.as_ref().is_none_or(|s| s.writes) {
            for file in &s.operands {
                self.written(file);
            }
        }
    }

    /// `make --eval=TEXT`, `make -E TEXT`, `make -f -` (the makefile on stdin).
    pub(super) fn make(&mut self, args: &[Word], input: Input, depth: usize) {
        let mut texts: Vec<Word> = Vec::new();
        let mut from_stdin = false;
        for (k, a) in args.iter().enumerate() {
            let t = a.text.as_str();
            let next = || args.get(k + 1).cloned();
            match t {
                "--eval" | "-E" => texts.extend(next()),
                "-f" | "--file" | "--makefile" => {
                    from_stdin |=
                        next().is_some_and(|n| n.text == "-" || super::code::is_stdin(&n.text));
                }
                _ => {
                    if let Some(v) = t.strip_prefix("--eval=") {
                        texts.push(Word {
                            text: v.to_string(),
                            ..a.clone()
                        });
                    }
                    let file = t
                        .strip_prefix("--file=")
                        .or_else(|| t.strip_prefix("--makefile="))
                        .or_else(|| t.strip_prefix("-f").filter(|v| !v.is_empty()));
                    from_stdin |= file.is_some_and(|f| f == "-" || super::code::is_stdin(f));
                }
            }
        }
        if from_stdin {
            match input.source() {
                Some(Source::Literal(text)) => texts.push(Word::plain(&text)),
                Some(Source::Fetch(fetcher)) => self.sink.dangerous(
                    keys::PIPE_TO_SHELL,
                    format!("runs a makefile downloaded with {fetcher}"),
                ),
                _ => {}
            }
        }
        for text in texts {
            // `--eval="$RULES"`: nothing of the text is known.
            if text.dynamic && without_expansions(&text.text).trim().is_empty() {
                self.sink.dangerous(
                    keys::OPAQUE_SHELL,
                    format!("make evaluates {} hermes cannot see", text.text),
                );
                continue;
            }
            for command in make_commands(&text.text) {
                self.script(&command, depth + 1);
            }
        }
    }
}
