//! What the walker follows into: the programs that run other code.
//!
//! Shells (`-c`, a script from `<(…)`, or stdin), `eval`, `trap`, `source`, `at`, `find -exec`,
//! `parallel`, interpreters (inline code, stdin), `git -c` settings that run commands, and
//! commands for another machine or container. What they run is classified as a script of its
//! own (one level deeper), or summarised as a finding when it cannot be seen
//! (`pipe_to_shell`, `opaque_shell`). It does not read files: a script on disk is not
//! followed. Invariant: every recursion goes through `Walker::script` or `Walker::simple`
//! with a larger depth, so `MAX_DEPTH` bounds it.

use super::code::{self, Interp, SHELLS, ShellInput};
use super::cx::{Cx, Sink};
use super::lex::lex;
use super::parse::{Simple, is_fork_loop, parse};
use super::remote::remote;
use super::source::{self, Source};
use super::unwrap::unwrap;
use super::vars::Vars;
use super::walk::{Input, Walker};
use super::words::{Expand, Word, basename};
use super::{git, hard, keys, rules};

impl Walker<'_> {
    /// Program-specific recursion and state: shells, interpreters, eval, find, cd, chmod.
    pub(super) fn program(&mut self, prog: &str, args: &[Word], input: Input, depth: usize) {
        self.option_hooks(prog, args, depth);
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
            "ln" => self.note_links(args),
            "export" | "declare" | "typeset" | "local" | "readonly" => {
                for a in args.iter().filter(|a| !a.text.starts_with('-')) {
                    self.assignment(a, None, depth);
                    self.vars.assign(a);
                }
            }
            "git" => {
                for script in git::config_commands(args) {
                    self.script(&script, depth + 1);
                }
            }
            "parallel" => self.parallel(args, input, depth),
            "eval" => self.nested(args, depth),
            // `trap 'CMD' EXIT`: CMD runs later, in this shell.
            "trap" if args.first().is_some_and(|a| !a.text.starts_with('-')) => {
                self.nested(&args[..1], depth);
            }
            "source" | "." => {
                if let Some(file) = args.first() {
                    let source = if code::is_stdin(&file.text) {
                        input.source().unwrap_or(Source::Other)
                    } else {
                        self.word_source(file)
                    };
                    self.feed_shell(source, depth);
                }
            }
            "sed" | "gsed" => self.sed(args, input, depth),
            "ed" => self.ed(args, input, depth),
            "make" | "gmake" => self.make(args, input, depth),
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
                    if let Some(file) = args.get(i) {
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
                Some(Interp::Opaque) => self.sink.dangerous(
                    keys::OPAQUE_SHELL,
                    format!("runs {prog} code hermes cannot see"),
                ),
                Some(Interp::Stdin) => {
                    if let Some(source) = input.source() {
                        self.feed_interpreter(prog, source);
                    }
                }
                Some(Interp::File) => {
                    let source = args
                        .iter()
                        .map(|a| self.word_source(a))
                        .find(|s| *s != Source::Other);
                    if let Some(source) = source {
                        self.feed_interpreter(prog, source);
                    }
                }
                None => {}
            },
        }
    }

    /// `parallel CMD ::: ARGS` runs CMD with each of ARGS; without `:::`, like xargs.
    fn parallel(&mut self, args: &[Word], input: Input, depth: usize) {
        const VALUE_OPTS: &[&str] = &[
            "-j",
            "-S",
            "-a",
            "-d",
            "-E",
            "-I",
            "-n",
            "-N",
            "-P",
            "--jobs",
            "--arg-file",
            "--delimiter",
            "--sshlogin",
            "--delay",
            "--timeout",
            "--results",
            "--joblog",
            "--tmpdir",
            "--workdir",
        ];
        let start = super::unwrap::skip_opts(args, 0, VALUE_OPTS);
        let rest = args.get(start..).unwrap_or(&[]);
        let sep = rest.iter().position(|a| a.text.starts_with(":::"));
        let mut words: Vec<Word> = rest[..sep.unwrap_or(rest.len())].to_vec();
        match sep {
            Some(at) => words.extend(
                rest[at + 1..]
                    .iter()
                    .take_while(|a| !a.text.starts_with(":::"))
                    .cloned(),
            ),
            None => {
                if let Some(Source::Literal(text)) = input.source() {
                    words.extend(text.split_whitespace().map(Word::plain));
                }
            }
        }
        let simple = Simple {
            words,
            redirects: Vec::new(),
        };
        self.simple(&simple, &[], depth + 1);
    }

    /// Words a shell runs as text (`bash -c WORD`, `eval WORDS`, `env -S WORDS`, …).
    pub(super) fn nested(&mut self, words: &[Word], depth: usize) {
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
        if words.iter().all(Word::opaque) {
            return;
        }
        let text: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        self.script(&text.join(" "), depth + 1);
    }

    /// A script run on the other side of a connection (`rsync --rsync-path`).
    pub(super) fn remote_script(&mut self, label: &str, text: &str, depth: usize) {
        self.remote_command(label, Remote::Script(text.to_string()), depth);
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
            vars: Vars::default(),
            files: Vec::new(),
            links: Vec::new(),
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

    pub(super) fn feed_shell(&mut self, source: Source, depth: usize) {
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
        if is_fork_loop(text) {
            hard::fork_bomb(&mut self.sink);
        }
        if let Some(marker) = code::risky_code(text) {
            self.sink.dangerous(
                keys::INLINE_CODE,
                format!("inline {prog} code uses {marker}"),
            );
        }
    }

    /// What a `<(…)` word, or a file written earlier on the line, provides as input.
    pub(super) fn word_source(&self, word: &Word) -> Source {
        if !word.process {
            return self.file_source(word).unwrap_or(Source::Other);
        }
        word.substitutions
            .iter()
            .map(|inner| source_of_text(inner, &self.cx.expand))
            .find(|s| *s != Source::Other)
            .unwrap_or(Source::Other)
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
        .map_or(Source::Other, |p| source::source_of(&p.cmds))
}
