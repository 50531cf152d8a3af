//! The walker: lexes and parses a script, then visits every simple command in it.
//!
//! For each simple command it strips wrappers (`unwrap`), applies the rule modules (`hard`,
//! `rules`, `writes`, `code`), checks every written path (redirections included) against
//! disk devices and the sensitive-path lists, and recurses into what the command runs as
//! shell text: `$(…)`, backticks and `<(…)` (all classified as scripts), `bash -c '…'`,
//! `eval`, `env -S`, `watch`, `su -c`, `find -exec`, here-documents and `echo … |` fed to a
//! shell or to `at`, literal input fed to `xargs`; commands for another machine or container
//! (`ssh`, `docker exec`, `kubectl exec`) are classified apart and reported as one finding. It tracks `cd DIR` along the command line so `cd / && rm -rf *` is seen as
//! `rm -rf /*`. It does not execute anything or evaluate conditions: every branch is
//! treated as if it runs. Invariant: recursion depth is bounded by `MAX_DEPTH`; going deeper
//! is a dangerous `opaque_shell` finding, never a silent pass.

use std::path::Path;

use super::code::{self, Interp, SHELLS, ShellInput, Source};
use super::cx::{Cx, Sink, is_null_sink};
use super::lex::{RedirKind, lex};
use super::parse::{Pipeline, Simple, is_fork_bomb, parse};
use super::remote::remote;
use super::unwrap::unwrap;
use super::words::{Expand, Word, basename};
use super::{Classification, MAX_DEPTH, ShellContext, hard, keys, rules, writes};
use crate::safety::paths;

pub(super) fn classify(command: &str, ctx: &ShellContext) -> Classification {
    let mut walker = Walker {
        cx: Cx {
            ctx,
            expand: Expand::new(&ctx.home, &ctx.hermes_home),
            cwd: None,
        },
        sink: Sink::default(),
        executable: Vec::new(),
    };
    walker.script(command, 0);
    Classification {
        findings: walker.sink.findings,
        writes_files: walker.sink.writes_files,
    }
}

struct Walker<'a> {
    cx: Cx<'a>,
    sink: Sink,
    /// Files `chmod +x` made executable earlier on the line.
    executable: Vec<String>,
}

impl Walker<'_> {
    fn script(&mut self, text: &str, depth: usize) {
        if depth > MAX_DEPTH {
            self.sink.dangerous(
                keys::OPAQUE_SHELL,
                "commands nested too deeply to inspect".to_string(),
            );
            return;
        }
        let lexed = lex(text, &self.cx.expand);
        if is_fork_bomb(&lexed.tokens) {
            hard::fork_bomb(&mut self.sink);
        }
        for inner in &lexed.substitutions {
            // A substitution runs in a subshell: its `cd` does not move us.
            let cwd = self.cx.cwd.clone();
            self.script(inner, depth + 1);
            self.cx.cwd = cwd;
        }
        for pipeline in parse(lexed.tokens) {
            self.pipeline(&pipeline, depth);
        }
    }

    fn pipeline(&mut self, pipeline: &Pipeline, depth: usize) {
        if code::mentions_sql_client(&pipeline.cmds) {
            for cmd in &pipeline.cmds {
                for w in &cmd.words {
                    code::sql(&w.text, &mut self.sink);
                }
                for r in &cmd.redirects {
                    code::sql(r.body.as_deref().unwrap_or(&r.target.text), &mut self.sink);
                }
            }
        }
        for (k, cmd) in pipeline.cmds.iter().enumerate() {
            self.simple(cmd, &pipeline.cmds[..k], depth);
        }
    }

    fn simple(&mut self, cmd: &Simple, upstream: &[Simple], depth: usize) {
        let mut redirected = None;
        for r in &cmd.redirects {
            match r.kind {
                RedirKind::Write | RedirKind::Append | RedirKind::ReadWrite => {
                    self.written(&r.target);
                }
                RedirKind::Heredoc => {
                    redirected = Some(Source::Literal(r.body.clone().unwrap_or_default()));
                }
                RedirKind::HereString if r.target.opaque() => {
                    redirected = Some(Source::Obfuscated);
                }
                RedirKind::HereString => redirected = Some(Source::Literal(r.target.text.clone())),
                RedirKind::Read => redirected = Some(self.word_source(&r.target)),
                RedirKind::Dup => {}
            }
        }
        let mut input = Input {
            redirected,
            upstream,
        };
        let uw = unwrap(&cmd.words);
        for &i in &uw.assignments {
            self.assignment(&cmd.words[i]);
        }
        if uw.sudo_password {
            self.sink.dangerous(
                keys::SUDO_PASSWORD,
                "sudo reading a password from stdin or an askpass program".to_string(),
            );
        }
        if let Some(at) = uw.edits {
            for w in cmd
                .words
                .iter()
                .skip(at)
                .filter(|w| !w.text.starts_with('-'))
            {
                self.written(w);
            }
        }
        if let Some(range) = uw.script.clone() {
            self.nested(&cmd.words[range], depth);
        }
        let Some(p) = uw.program else {
            return;
        };
        let word = &cmd.words[p];
        if word.dynamic {
            return;
        }
        let prog = basename(&word.text);
        let mut args = &cmd.words[p + 1..];
        // Under xargs, literal input becomes more arguments (one per line with -0/-d).
        let with_input: Vec<Word>;
        if uw.xargs {
            if let Some(Source::Literal(text)) = std::mem::take(&mut input).source() {
                let whole = cmd.words[..p].iter().any(|w| {
                    let t = w.text.as_str();
                    t == "-0" || t == "--null" || t.starts_with("-d") || t.starts_with("--delim")
                });
                let mut all = args.to_vec();
                if whole {
                    all.push(Word::plain(text.trim_end_matches('\n')));
                } else {
                    all.extend(text.split_whitespace().map(Word::plain));
                }
                with_input = all;
                args = &with_input;
            }
        }
        let invoked = word.text.trim_start_matches("./");
        if word.text.contains('/') && self.executable.iter().any(|e| e == invoked) {
            self.sink.dangerous(
                keys::CHMOD_EXEC,
                format!("runs {} right after making it executable", word.text),
            );
        }
        hard::check(prog, args, &self.cx, &mut self.sink);
        rules::check(prog, args, &self.cx, &mut self.sink);
        let written = writes::writes(prog, args);
        self.sink.writes_files |= written.modifies;
        for path in &written.paths {
            self.written(path);
        }
        if uw.xargs && matches!(prog, "rm" | "unlink" | "shred" | "rmdir") {
            self.sink.dangerous(
                keys::XARGS_RM,
                format!("xargs {prog} deletes files from a list"),
            );
        }
        self.program(prog, args, input, depth);
    }

    /// Program-specific recursion and state: shells, interpreters, eval, find, cd, chmod.
    fn program(&mut self, prog: &str, args: &[Word], input: Input, depth: usize) {
        if let Some(r) = remote(prog, args) {
            let command = if !r.command.is_empty() && !r.via_shell {
                Remote::Argv(r.command.to_vec())
            } else if !r.command.is_empty() {
                let words: Vec<&str> = r.command.iter().map(|w| w.text.as_str()).collect();
                Remote::Script(words.join(" "))
            } else if let Some(Source::Literal(text)) = input.source() {
                Remote::Script(text)
            } else {
                return;
            };
            self.remote_command(&r.label, command, depth);
            return;
        }
        match prog {
            "at" | "batch" if !args.iter().any(|a| a.text.starts_with("-f")) => {
                if let Some(source) = input.source() {
                    self.feed_shell(source, depth);
                }
            }
            "cd" | "pushd" => self
                .cx
                .change_dir(args.iter().find(|a| !a.text.starts_with('-'))),
            "chmod" => self.note_executable(args),
            "export" | "declare" | "typeset" | "local" | "readonly" => {
                for a in args {
                    self.assignment(a);
                }
            }
            "eval" => self.nested(args, depth),
            // `trap 'CMD' EXIT`: CMD runs later, in this shell.
            "trap" if args.first().is_some_and(|a| !a.text.starts_with('-')) => {
                self.nested(&args[..1], depth);
            }
            "source" | "." => {
                if let Some(file) = args.first().filter(|a| a.process) {
                    let source = self.word_source(file);
                    self.feed_shell(source, depth);
                }
            }
            "find" => {
                for inner in rules::find_exec(args) {
                    let inner_prog = unwrap(&inner).program.map(|i| basename(&inner[i].text));
                    if matches!(inner_prog, Some("rm" | "unlink" | "shred" | "rmdir")) {
                        self.sink
                            .dangerous(keys::FIND_DELETE, "find -exec deletes files".to_string());
                    }
                    let simple = Simple {
                        words: inner,
                        redirects: Vec::new(),
                    };
                    self.simple(&simple, &[], depth + 1);
                }
            }
            _ if SHELLS.contains(&prog) => match code::shell_input(args) {
                ShellInput::Command(i) => self.nested(args.get(i..=i).unwrap_or(&[]), depth),
                ShellInput::File(i) => {
                    if let Some(file) = args.get(i).filter(|a| a.process) {
                        let source = self.word_source(file);
                        self.feed_shell(source, depth);
                    }
                }
                ShellInput::Stdin => {
                    if let Some(source) = input.source() {
                        self.feed_shell(source, depth);
                    }
                }
            },
            _ => match code::interpreter(prog, args) {
                Some(Interp::Code(text)) => self.inline_code(prog, &text),
                Some(Interp::Stdin) => {
                    if let Some(source) = input.source() {
                        self.feed_interpreter(prog, source);
                    }
                }
                Some(Interp::File) => {
                    if let Some(file) = args.iter().find(|a| a.process) {
                        let source = self.word_source(file);
                        self.feed_interpreter(prog, source);
                    }
                }
                None => {}
            },
        }
    }

    /// Words a shell runs as text (`bash -c WORD`, `eval WORDS`, `env -S WORDS`, …).
    fn nested(&mut self, words: &[Word], depth: usize) {
        if words.is_empty() {
            return;
        }
        for w in words.iter().filter(|w| w.opaque()) {
            if w.substitutions.is_empty() {
                self.sink.dangerous(
                    keys::OPAQUE_SHELL,
                    format!("runs the contents of {} as shell code", w.text),
                );
            }
            for inner in &w.substitutions {
                let source = source_of_text(inner, &self.cx.expand);
                let source = match source {
                    Source::Other => Source::Obfuscated,
                    other => other,
                };
                self.feed_shell(source, depth);
            }
        }
        let text: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        self.script(&text.join(" "), depth + 1);
    }

    /// Classifies a command that runs elsewhere; anything flagged becomes one dangerous
    /// `remote_command` finding.
    fn remote_command(&mut self, label: &str, command: Remote, depth: usize) {
        let mut sub = Walker {
            cx: Cx {
                ctx: self.cx.ctx,
                expand: self.cx.expand.clone(),
                cwd: None,
            },
            sink: Sink::default(),
            executable: Vec::new(),
        };
        match command {
            Remote::Script(text) => sub.script(&text, depth + 1),
            Remote::Argv(words) => {
                let simple = Simple {
                    words,
                    redirects: Vec::new(),
                };
                sub.simple(&simple, &[], depth + 1);
            }
        }
        if let Some(worst) = sub.sink.findings.iter().max_by_key(|f| f.tier) {
            self.sink.dangerous(
                keys::REMOTE_COMMAND,
                format!("on {label}: {}", worst.reason),
            );
        }
    }

    fn feed_shell(&mut self, source: Source, depth: usize) {
        match source {
            Source::Fetch(fetcher) => self.sink.dangerous(
                keys::PIPE_TO_SHELL,
                format!("runs a script downloaded with {fetcher} in a shell"),
            ),
            Source::Literal(text) => self.script(&text, depth + 1),
            Source::Obfuscated => self.sink.dangerous(
                keys::OPAQUE_SHELL,
                "runs decoded or generated text in a shell".to_string(),
            ),
            Source::Other => {}
        }
    }

    fn feed_interpreter(&mut self, prog: &str, source: Source) {
        match source {
            Source::Fetch(fetcher) => self.sink.dangerous(
                keys::PIPE_TO_SHELL,
                format!("runs code downloaded with {fetcher} in {prog}"),
            ),
            Source::Literal(text) => self.inline_code(prog, &text),
            Source::Obfuscated => self.sink.dangerous(
                keys::OPAQUE_SHELL,
                format!("runs decoded or generated text in {prog}"),
            ),
            Source::Other => {}
        }
    }

    fn inline_code(&mut self, prog: &str, text: &str) {
        if let Some(marker) = code::risky_code(text) {
            self.sink.dangerous(
                keys::INLINE_CODE,
                format!("inline {prog} code uses {marker}"),
            );
        }
    }

    /// What a `<(…)` / `< file` word provides as input.
    fn word_source(&self, word: &Word) -> Source {
        if !word.process {
            return Source::Other;
        }
        word.substitutions
            .iter()
            .map(|inner| source_of_text(inner, &self.cx.expand))
            .find(|s| *s != Source::Other)
            .unwrap_or(Source::Other)
    }

    fn assignment(&mut self, word: &Word) {
        if word.text.starts_with("HERMES_YOLO_MODE=") {
            self.sink.dangerous(
                keys::HERMES_SETTINGS,
                "turns hermes approvals off (HERMES_YOLO_MODE)".to_string(),
            );
        }
    }

    fn note_executable(&mut self, args: &[Word]) {
        let operands: Vec<&Word> = args.iter().filter(|a| !a.text.starts_with('-')).collect();
        let Some((mode, files)) = operands.split_first() else {
            return;
        };
        let m = mode.text.as_str();
        let adds_x = if m.chars().all(|c| c.is_ascii_digit()) {
            u32::from_str_radix(m, 8).is_ok_and(|v| v & 0o111 != 0)
        } else {
            m.contains('+') && m.contains('x')
        };
        if adds_x {
            self.executable.extend(
                files
                    .iter()
                    .map(|f| f.text.trim_start_matches("./").to_string()),
            );
        }
    }

    fn written(&mut self, word: &Word) {
        let Some(path) = self.cx.resolve(word) else {
            self.sink.writes_files = true;
            return;
        };
        if is_null_sink(&path) {
            return;
        }
        self.sink.writes_files = true;
        hard::written_path(&path, &mut self.sink);
        if let Some(finding) = paths::sensitive_path(Path::new(&path), self.cx.ctx) {
            self.sink.add(finding.tier, finding.key, finding.reason);
        }
    }
}

/// What a command reads on stdin, worked out only when a rule needs it.
#[derive(Default)]
struct Input<'a> {
    /// From `<<EOF`, `<<<`, `< <(…)`.
    redirected: Option<Source>,
    /// The commands piped into this one.
    upstream: &'a [Simple],
}

impl Input<'_> {
    /// Only the last commands of a long pipeline are looked at.
    const UPSTREAM_LIMIT: usize = 16;

    fn source(self) -> Option<Source> {
        self.redirected.or_else(|| {
            let from = self.upstream.len().saturating_sub(Self::UPSTREAM_LIMIT);
            (!self.upstream.is_empty()).then(|| code::source_of(&self.upstream[from..]))
        })
    }
}

/// What runs on the other side of `ssh` / `docker exec` / `kubectl exec`.
enum Remote {
    /// Text a remote shell parses.
    Script(String),
    /// An argv, run without a shell.
    Argv(Vec<Word>),
}

/// The source a substitution's text provides: its last pipeline's output.
fn source_of_text(text: &str, expand: &Expand) -> Source {
    let pipelines = parse(lex(text, expand).tokens);
    pipelines
        .last()
        .map_or(Source::Other, |p| code::source_of(&p.cmds))
}
