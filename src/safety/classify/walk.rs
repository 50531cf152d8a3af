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

use super::code;
use super::cx::{Cx, Sink};
use super::lex::{RedirKind, lex};
use super::parse::{Pipeline, Simple, is_fork_bomb, parse};
use super::source::{self, Source};
use super::unwrap::unwrap;
use super::vars::Vars;
use super::words::{Expand, Word, basename, without_expansions};
use super::{Classification, MAX_DEPTH, ShellContext, hard, keys, rules, writes};

pub(super) fn classify(command: &str, ctx: &ShellContext) -> Classification {
    let mut walker = Walker {
        cx: Cx {
            ctx,
            expand: Expand::new(&ctx.home, &ctx.hermes_home),
            cwd: None,
        },
        sink: Sink::default(),
        executable: Vec::new(),
        vars: Vars::default(),
        files: Vec::new(),
        links: Vec::new(),
    };
    walker.script(command, 0);
    Classification {
        findings: walker.sink.findings,
        writes_files: walker.sink.writes_files,
    }
}

pub(super) struct Walker<'a> {
    pub(super) cx: Cx<'a>,
    pub(super) sink: Sink,
    /// Files `chmod +x` made executable earlier on the line.
    pub(super) executable: Vec<String>,
    /// Variables assigned earlier on the line.
    pub(super) vars: Vars,
    /// Files written earlier on the line, with what was written into them.
    pub(super) files: Vec<(String, Source)>,
    /// Links made earlier on the line: where the link is, what it points at.
    pub(super) links: Vec<(String, String)>,
}

impl Walker<'_> {
    pub(super) fn script(&mut self, text: &str, depth: usize) {
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

    pub(super) fn simple(&mut self, cmd: &Simple, upstream: &[Simple], depth: usize) {
        if depth < MAX_DEPTH
            && let Some(expanded) = self.vars.substitute(cmd)
        {
            self.simple(&expanded, upstream, depth + 1);
            return;
        }
        let mut redirected = None;
        for r in &cmd.redirects {
            match r.kind {
                RedirKind::Write | RedirKind::Append | RedirKind::ReadWrite => {
                    self.written(&r.target);
                    let output = source::source_of(std::slice::from_ref(cmd));
                    self.remember_file(&r.target, output, r.kind == RedirKind::Append);
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
        let prog_name = uw.program.map(|p| basename(&cmd.words[p].text));
        for &i in &uw.assignments {
            self.assignment(&cmd.words[i], prog_name, depth);
            if uw.program.is_none() {
                self.vars.assign(&cmd.words[i]);
            }
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
            self.unknown_program(cmd, p, upstream, depth);
            return;
        }
        let prog = basename(&word.text);
        let mut args = &cmd.words[p + 1..];
        // Under xargs, literal input becomes more arguments (one per line with -0/-d).
        let with_input: Vec<Word>;
        if uw.xargs
            && let Some(Source::Literal(text)) = std::mem::take(&mut input).source()
        {
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
            if source::is_fetcher(prog) {
                self.remember_file(path, Source::Fetch(prog.to_string()), false);
            }
        }
        if word.text.contains('/') {
            // `./install.sh` after writing install.sh on the same line.
            if let Some(source) = self.file_source(word) {
                self.feed_shell(source, depth);
            }
        }
        if uw.xargs && matches!(prog, "rm" | "unlink" | "shred" | "rmdir") {
            self.sink.dangerous(
                keys::XARGS_RM,
                format!("xargs {prog} deletes files from a list"),
            );
        }
        self.program(prog, args, input, depth);
    }

    /// The program word holds an expansion: `$(which rm)` is `rm`; a program hermes cannot
    /// name at all (`$CMD`, `$(cat x)`) is `opaque_shell`.
    fn unknown_program(&mut self, cmd: &Simple, p: usize, upstream: &[Simple], depth: usize) {
        let word = &cmd.words[p];
        if depth >= MAX_DEPTH {
            return;
        }
        if !word.opaque() {
            // `r${EMPTY}m`: an unset variable expands to nothing, leaving the literal parts.
            let bare = without_expansions(&word.text);
            if !bare.is_empty() && bare != word.text {
                let mut named = cmd.clone();
                named.words[p] = Word::plain(&bare);
                self.simple(&named, upstream, depth + 1);
            }
            return;
        }
        let looked_up = match word.substitutions.as_slice() {
            [inner] if word.text == format!("$({inner})") => {
                let words: Vec<String> = parse(lex(inner, &self.cx.expand).tokens)
                    .into_iter()
                    .flat_map(|p| p.cmds)
                    .flat_map(|c| c.words)
                    .map(|w| w.text)
                    .collect();
                match words
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .as_slice()
                {
                    ["which" | "whereis", name] | ["command", "-v" | "-V", name] => {
                        Some(basename(name).to_string())
                    }
                    ["type", "-p" | "-P", name] => Some(basename(name).to_string()),
                    _ => None,
                }
            }
            _ => None,
        };
        match looked_up {
            Some(name) => {
                let mut named = cmd.clone();
                named.words[p] = Word::plain(&name);
                self.simple(&named, upstream, depth + 1);
            }
            None => {
                self.sink.dangerous(
                    keys::OPAQUE_SHELL,
                    format!("runs a program hermes cannot see ({})", word.text),
                );
                // Unquoted and empty, it vanishes: `$X rm -rf /` runs `rm -rf /`.
                if !word.quoted && cmd.words.len() > p + 1 {
                    let mut rest = cmd.clone();
                    rest.words.remove(p);
                    self.simple(&rest, upstream, depth + 1);
                }
            }
        }
    }

    /// Remembers what a command wrote into `target` (literal text or a download).
    fn remember_file(&mut self, target: &Word, content: Source, append: bool) {
        let key = self.file_key(target);
        let previous = self.files.iter().position(|(k, _)| *k == key);
        let merged = match (previous.map(|i| self.files.remove(i).1), content) {
            (Some(Source::Literal(before)), Source::Literal(more)) if append => {
                Source::Literal(before + &more)
            }
            (_, content) => content,
        };
        if merged != Source::Other {
            self.files.push((key, merged));
        }
    }

    /// What an earlier command on the line wrote into the file `word` names.
    pub(super) fn file_source(&self, word: &Word) -> Option<Source> {
        let key = self.file_key(word);
        self.files
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, s)| s.clone())
    }

    pub(super) fn file_key(&self, word: &Word) -> String {
        self.cx
            .resolve(word)
            .unwrap_or_else(|| word.text.trim_start_matches("./").to_string())
    }

    pub(super) fn note_executable(&mut self, args: &[Word]) {
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
}

/// What a command reads on stdin, worked out only when a rule needs it.
#[derive(Default)]
pub(super) struct Input<'a> {
    /// From `<<EOF`, `<<<`, `< <(…)`.
    redirected: Option<Source>,
    /// The commands piped into this one.
    upstream: &'a [Simple],
}

impl Input<'_> {
    /// Only the last commands of a long pipeline are looked at.
    const UPSTREAM_LIMIT: usize = 16;

    pub(super) fn source(self) -> Option<Source> {
        self.redirected.or_else(|| {
            let from = self.upstream.len().saturating_sub(Self::UPSTREAM_LIMIT);
            (!self.upstream.is_empty()).then(|| source::source_of(&self.upstream[from..]))
        })
    }
}
