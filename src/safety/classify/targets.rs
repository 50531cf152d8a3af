//! Where a write lands, worked out before the path is checked.
//!
//! `Walker::written` checks a written word against disk devices and the sensitive-path lists.
//! Before that, a target built by `$(…)` is resolved when its output is known — literal
//! (`echo`, `printf`), a known place (`$(pwd)`, `$(mktemp)`, `$(git rev-parse
//! --show-toplevel)`) or a name without slashes (`$(date +%F)`, `$(whoami)`) — and a link made
//! earlier on the line (`ln -s ~/.bashrc x && echo … >> x`, also a directory link) is followed
//! to what it points at. A target `$(…)` hermes cannot know is itself a dangerous
//! `opaque_write` finding: the substitution can name any file. It never touches the
//! filesystem; links made by earlier tool calls are not known (the file tools resolve real
//! symlinks through `paths::sensitive_write`). Invariant: a word is checked at most once per
//! link hop, and links are followed one level, so the work stays linear.

use std::path::Path;

use super::cx::{is_null_sink, normalize_abs};
use super::lex::lex;
use super::opts::scan;
use super::parse::parse;
use super::source::{Source, source_of};
use super::walk::Walker;
use super::words::{Word, basename};
use super::{hard, keys};
use crate::safety::paths;

/// Programs whose output is a plain name (no `/`), good enough as a file-name part.
const NAME_OUTPUT: &[&str] = &[
    "date", "whoami", "hostname", "uname", "id", "nproc", "uuidgen", "seq", "basename", "arch",
];

/// What a `$(…)` in a write target gives.
enum Output {
    Text(String),
    Unknown,
}

impl Walker<'_> {
    pub(super) fn written(&mut self, word: &Word) {
        if word.process {
            // `> >(cmd)` writes into a pipe, not a file.
            return;
        }
        let resolved;
        let word = if word.substitutions.is_empty() {
            word
        } else {
            match self.substituted(word) {
                Some(w) => {
                    resolved = w;
                    &resolved
                }
                None => {
                    self.sink.writes_files = true;
                    self.sink.dangerous(
                        keys::OPAQUE_WRITE,
                        format!("writes to a path computed by {}", word.text),
                    );
                    return;
                }
            }
        };
        for target in self.link_targets(word) {
            self.check_written(&target);
        }
        let Some(path) = self.cx.resolve(word) else {
            self.sink.writes_files = true;
            return;
        };
        self.check_written(&path);
    }

    fn check_written(&mut self, path: &str) {
        if is_null_sink(path) {
            return;
        }
        self.sink.writes_files = true;
        hard::written_path(path, &mut self.sink);
        if let Some(finding) = paths::sensitive_path(Path::new(path), self.cx.ctx) {
            self.sink.add(finding.tier, finding.key, finding.reason);
        }
    }

    /// `word` with each `$(…)` replaced by its known output, or `None` when one is unknown.
    fn substituted(&self, word: &Word) -> Option<Word> {
        let mut text = word.text.clone();
        for inner in &word.substitutions {
            let Output::Text(output) = self.output_of(inner) else {
                return None;
            };
            text = text.replacen(&format!("$({inner})"), &output, 1);
        }
        Some(Word {
            dynamic: text.contains('$'),
            ..Word::plain(&text)
        })
    }

    fn output_of(&self, inner: &str) -> Output {
        let pipelines = parse(lex(inner, &self.cx.expand).tokens);
        let Some(last) = pipelines.last() else {
            return Output::Text(String::new());
        };
        let words: Vec<&str> = last
            .cmds
            .last()
            .map(|c| c.words.iter().map(|w| w.text.as_str()).collect())
            .unwrap_or_default();
        let prog = words.first().map_or("", |p| basename(p));
        match (prog, words.get(1..).unwrap_or(&[])) {
            ("pwd", _) => Output::Text(self.cx.cwd.clone().unwrap_or_else(|| ".".into())),
            ("mktemp", _) => Output::Text("/tmp/hermes-mktemp".into()),
            ("git", ["rev-parse", "--show-toplevel"]) => Output::Text(".".into()),
            ("dirname", [path]) if !path.contains('$') => Output::Text(parent(path)),
            _ if NAME_OUTPUT.contains(&prog) => Output::Text("name".into()),
            _ => match source_of(&last.cmds) {
                Source::Literal(text) => Output::Text(text.trim_end_matches('\n').to_string()),
                _ => Output::Unknown,
            },
        }
    }

    /// Records the links `ln [-s] TARGET… LINK|DIR` makes, for writes later on the line.
    pub(super) fn note_links(&mut self, args: &[Word]) {
        let s = scan(args, "tS", &["--target-directory", "--suffix"]);
        let dir = args
            .iter()
            .position(|a| a.text == "-t" || a.text == "--target-directory")
            .and_then(|i| args.get(i + 1));
        let (targets, link_dir, link_name): (&[&Word], Option<&Word>, Option<&Word>) =
            match (dir, s.operands.as_slice()) {
                (Some(d), all) => (all, Some(d), None),
                (None, [only]) => (std::slice::from_ref(only), None, None),
                (None, [target, link]) => (std::slice::from_ref(target), None, Some(*link)),
                (None, [targets @ .., d]) => (targets, Some(*d), None),
                (None, []) => return,
            };
        for target in targets {
            let name = basename(target.text.trim_end_matches('/'));
            let links = match (link_name, link_dir) {
                (Some(link), _) => vec![
                    self.file_key(link),
                    format!("{}/{name}", self.file_key(link)),
                ],
                (None, Some(d)) => vec![format!("{}/{name}", self.file_key(d))],
                (None, None) => vec![name.to_string()],
            };
            let Some(pointed) = self.cx.resolve(target) else {
                continue;
            };
            for link in links {
                self.links.retain(|(l, _)| *l != link);
                self.links.push((link, pointed.clone()));
            }
        }
    }

    /// What a write to `word` reaches through links made earlier on the line.
    fn link_targets(&self, word: &Word) -> Vec<String> {
        if self.links.is_empty() {
            return Vec::new();
        }
        let key = self.file_key(word);
        self.links
            .iter()
            .filter_map(|(link, target)| {
                let rest = key.strip_prefix(link.as_str())?;
                (rest.is_empty() || rest.starts_with('/'))
                    .then(|| normalize_abs(&format!("{target}{rest}")))
            })
            .collect()
    }
}

/// `dirname` of a literal path.
fn parent(path: &str) -> String {
    match path.trim_end_matches('/').rsplit_once('/') {
        Some(("", _)) => "/".into(),
        Some((dir, _)) => dir.to_string(),
        None => ".".into(),
    }
}
