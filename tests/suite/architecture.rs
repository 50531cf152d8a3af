//! The layer table of docs/architecture.md, checked by reading the sources: every top-level
//! module of `src/` sits in one layer, and a module may use only modules of lower layers plus
//! the sibling edges listed in `SIBLING_EDGES`. The frontends `tui` and `headless` are held to
//! the stricter rule of ARCHITECTURE §1 (only the contract and the base), and no import cycle
//! between top-level modules is allowed, whatever the table says.
//!
//! The import graph comes from `crate::X` paths in `src/X.rs` and `src/X/**` (`hermes::X` in
//! the binary: `src/main.rs` and `src/cli/`), in `use` lines and inline paths alike, grouped
//! forms (`use crate::{a, b::c}`) included. Comments, string and char literals are skipped;
//! `super::` never leaves a top-level module, so it is ignored. Also here: the raw-colour
//! check (only `src/theme/` builds colours).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::path::Path;
use std::path::PathBuf;

/// The layers, lowest first. `cli` is the binary (`main.rs` + `cli/`). `test_server` is the
/// scripted HTTP server (`tests/support/scripted`) as the unit tests see it: compiled only
/// under `cfg(test)`, using nothing of hermes, so any layer's tests may use it.
const LAYERS: [(&str, &[&str]); 5] = [
    ("base", &["util", "config", "theme", "test_server"]),
    ("contract", &["protocol", "model"]),
    (
        "services",
        &[
            "providers",
            "tools",
            "store",
            "knowledge",
            "skills",
            "safety",
            "voice",
            "clipboard",
            "images",
            "web",
            "cron",
        ],
    ),
    ("engine", &["engine"]),
    ("frontends", &["tui", "headless", "cli"]),
];

/// Edges allowed between modules of the same layer, each with its reason. Keep it short:
/// anything several siblings need belongs a layer lower. These edges must stay acyclic.
const SIBLING_EDGES: [(&str, &str, &str); 15] = [
    (
        "config",
        "util",
        "util is the bottom of the base: it imports nothing of hermes",
    ),
    (
        "theme",
        "util",
        "util is the bottom of the base: it imports nothing of hermes",
    ),
    (
        "clipboard",
        "images",
        "a pasted image is decoded and saved by images::image_file",
    ),
    (
        "tools",
        "images",
        "vision_analyze loads and embeds an image file",
    ),
    (
        "tools",
        "knowledge",
        "the memory tool edits MEMORY.md and USER.md",
    ),
    (
        "tools",
        "providers",
        "MCP sampling asks the session's provider",
    ),
    (
        "tools",
        "safety",
        "every side effect is put to safety's CommandPolicy",
    ),
    (
        "tools",
        "skills",
        "skills_list, skill_view and skill_manage wrap the skill catalog",
    ),
    (
        "tools",
        "store",
        "session_search searches the session database",
    ),
    (
        "tools",
        "voice",
        "text_to_speech synthesizes with voice's TTS",
    ),
    (
        "tools",
        "web",
        "web_search and web_extract wrap the web service",
    ),
    (
        "tools",
        "cron",
        "the cronjob tool manages the job file through the cron service",
    ),
    (
        "skills",
        "knowledge",
        "skills are checked with the injection scanner memory and context files use",
    ),
    ("cli", "tui", "the binary starts the TUI frontend"),
    ("cli", "headless", "the binary starts the headless frontend"),
];

/// What `tui` and `headless` may use: they know the engine only through the protocol.
const FRONTEND_ALLOWED: [&str; 6] = [
    "protocol",
    "model",
    "util",
    "config",
    "theme",
    "test_server",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file under `src` belongs to, and the path prefix that names a
/// module of the library from there (`crate` inside the library, `hermes` in the binary).
/// `None` for `lib.rs`.
fn owner(src: &Path, file: &Path) -> Option<(String, &'static str)> {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel.components().next()?.as_os_str().to_str()?.to_owned();
    if rel.components().count() > 1 {
        return Some(match first.as_str() {
            "cli" => ("cli".to_owned(), "hermes"),
            _ => (first, "crate"),
        });
    }
    let stem = first.strip_suffix(".rs")?;
    match stem {
        "lib" => None,
        "main" => Some(("cli".to_owned(), "hermes")),
        _ => {
            let module = stem.strip_suffix("_tests").unwrap_or(stem);
            Some((module.to_owned(), "crate"))
        }
    }
}

/// `text` with comments and the contents of string and char literals blanked out (newlines
/// kept, so byte offsets still give line numbers).
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if (c == 'r' || c == 'b')
            && (i == 0 || !ident(chars[i - 1]))
            && raw_string_hashes(&chars[i..]).is_some()
        {
            // r"…", r#"…"#, br"…": no escapes; ends at a quote followed by the same hashes.
            let (prefix, hashes) = raw_string_hashes(&chars[i..]).unwrap();
            for _ in 0..prefix {
                out.push(' ');
            }
            i += prefix;
            while i < chars.len() {
                let closes = chars[i] == '"'
                    && chars[i + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|h| **h == '#')
                        .count()
                        == hashes;
                if closes {
                    for _ in 0..=hashes {
                        out.push(' ');
                    }
                    i += 1 + hashes;
                    break;
                }
                out.push(blank(chars[i]));
                i += 1;
            }
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                let step = if chars[i] == '\\' { 2 } else { 1 };
                for k in 0..step {
                    if let Some(&ch) = chars.get(i + k) {
                        out.push(blank(ch));
                    }
                }
                i += step;
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A char literal ('x', '\n', '\'', '\u{1F600}'); a lifetime ('a) has no closing
            // quote. After a backslash the escaped character is skipped.
            let from = if next == Some('\\') { i + 3 } else { i + 2 };
            let end = (from..chars.len())
                .find(|&j| chars[j] == '\'')
                .unwrap_or(chars.len());
            for _ in i..=end.min(chars.len() - 1) {
                out.push(' ');
            }
            i = end + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// For text starting a raw string (`r"`, `r#"`, `br"`, …): the length of its opening
/// (prefix, hashes and quote) and the number of hashes.
fn raw_string_hashes(chars: &[char]) -> Option<(usize, usize)> {
    let mut i = usize::from(chars.first() == Some(&'b'));
    if chars.get(i) != Some(&'r') {
        return None;
    }
    i += 1;
    let hashes = chars[i..].iter().take_while(|c| **c == '#').count();
    (chars.get(i + hashes) == Some(&'"')).then_some((i + hashes + 1, hashes))
}

/// The first path segments after each `<prefix>::` in `code`, with their byte offsets:
/// `crate::a::b` gives `a`; `crate::{a, b::{c, d}}` gives `a` and `b`.
fn imported_modules(code: &str, prefix: &str) -> Vec<(usize, String)> {
    let bytes = code.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut found = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        let before = at.checked_sub(1).map(|i| bytes[i]);
        if before.is_some_and(|b| ident(b) || b == b'$' || b == b':') {
            continue; // part of a longer name, `$crate`, or a path like `x::crate`
        }
        let rest = code[at + prefix.len()..].trim_start();
        let Some(rest) = rest.strip_prefix("::") else {
            continue; // `pub(crate)`, `extern crate`, a bare `crate`
        };
        let rest = rest.trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut item_start = true;
            for (i, ch) in group.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => item_start = true,
                    c if item_start && depth == 1 && (c.is_alphanumeric() || c == '_') => {
                        item_start = false;
                        let name: String = group[i..]
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        if name != "self" {
                            found.push((at, name));
                        }
                    }
                    _ => {}
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.push((at, name));
            }
        }
    }
    found
}

/// The import graph between top-level modules of the tree at `src`: for each edge, where
/// it is used (`file:line`).
fn import_graph(src: &Path) -> BTreeMap<(String, String), Vec<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut graph: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for file in files {
        let Some((module, prefix)) = owner(src, &file) else {
            continue;
        };
        let text = std::fs::read_to_string(&file).unwrap();
        let code = code_only(&text);
        for (at, target) in imported_modules(&code, prefix) {
            if target == module {
                continue;
            }
            let line = code[..at].matches('\n').count() + 1;
            graph
                .entry((module.clone(), target))
                .or_default()
                .push(format!("{}:{line}", file.display()));
        }
    }
    graph
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS
        .iter()
        .position(|(_, modules)| modules.contains(&module))
}

/// Every edge the layer table, the sibling list or the frontend rule forbids, and every
/// top-level module the table does not place.
fn layer_violations(graph: &BTreeMap<(String, String), Vec<String>>) -> Vec<String> {
    let mut bad = Vec::new();
    for ((from, to), sites) in graph {
        let (Some(a), Some(b)) = (layer_of(from), layer_of(to)) else {
            for name in [from, to] {
                if layer_of(name).is_none() {
                    bad.push(format!("{name} is in no layer (used at {})", sites[0]));
                }
            }
            continue;
        };
        let sibling = SIBLING_EDGES.iter().any(|(f, t, _)| f == from && t == to);
        let allowed = b < a || (a == b && sibling);
        let frontend_ok = !["tui", "headless"].contains(&from.as_str())
            || FRONTEND_ALLOWED.contains(&to.as_str());
        if !allowed || !frontend_ok {
            bad.push(format!(
                "{from} ({}) must not use {to} ({}): {}",
                LAYERS[a].0,
                LAYERS[b].0,
                sites.join(", ")
            ));
        }
    }
    bad.sort();
    bad.dedup();
    bad
}

/// The strongly connected components with more than one module (Tarjan), each sorted.
fn cycles(graph: &BTreeMap<(String, String), Vec<String>>) -> Vec<Vec<String>> {
    struct Tarjan<'g> {
        edges: BTreeMap<&'g str, Vec<&'g str>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        found: Vec<Vec<String>>,
    }
    impl<'g> Tarjan<'g> {
        fn visit(&mut self, v: &'g str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.edges.get(v).cloned().unwrap_or_default() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w.to_owned());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut tarjan = Tarjan {
        edges: BTreeMap::new(),
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for (from, to) in graph.keys() {
        tarjan.edges.entry(from).or_default().push(to);
        tarjan.edges.entry(to).or_default();
    }
    let nodes: Vec<&str> = tarjan.edges.keys().copied().collect();
    for v in nodes {
        if !tarjan.index.contains_key(v) {
            tarjan.visit(v);
        }
    }
    tarjan.found.sort();
    tarjan.found
}

/// Everything the architecture check reports for the tree at `src`.
fn problems(src: &Path) -> Vec<String> {
    let graph = import_graph(src);
    let mut out = layer_violations(&graph);
    for component in cycles(&graph) {
        let edges: Vec<String> = graph
            .keys()
            .filter(|(f, t)| component.contains(f) && component.contains(t))
            .map(|(f, t)| format!("{f} -> {t}"))
            .collect();
        out.push(format!(
            "import cycle between {}: {}",
            component.join(", "),
            edges.join(", ")
        ));
    }
    out
}

#[test]
fn the_layer_table_holds_and_there_are_no_cycles() {
    let graph = import_graph(Path::new("src"));
    assert!(
        graph.len() > 20,
        "expected to find the import graph: {graph:?}"
    );
    let bad = problems(Path::new("src"));
    assert!(
        bad.is_empty(),
        "the layer table of docs/architecture.md is broken:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_table_places_every_module_and_only_existing_ones() {
    let src = Path::new("src");
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut found: BTreeSet<String> = files
        .iter()
        .filter_map(|f| owner(src, f))
        .map(|(m, _)| m)
        .collect();
    // Declared in lib.rs with a `#[path]` into tests/support (see LAYERS).
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    assert!(
        lib.contains("mod test_server;"),
        "lib.rs declares test_server"
    );
    found.insert("test_server".to_owned());
    let listed: BTreeSet<String> = LAYERS
        .iter()
        .flat_map(|(_, modules)| modules.iter().map(|m| (*m).to_owned()))
        .collect();
    assert_eq!(found, listed, "src/ and the layer table disagree");
    for (from, to, why) in SIBLING_EDGES {
        assert_eq!(
            layer_of(from),
            layer_of(to),
            "{from} -> {to} is no sibling edge"
        );
        assert!(!why.is_empty());
    }
    let sibling_graph: BTreeMap<(String, String), Vec<String>> = SIBLING_EDGES
        .iter()
        .map(|(f, t, _)| (((*f).to_owned(), (*t).to_owned()), Vec::new()))
        .collect();
    assert!(
        cycles(&sibling_graph).is_empty(),
        "the sibling edges form a cycle"
    );
}

/// A source tree under a temp dir: `files` are (path under `src/`, contents).
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let path = dir.path().join("src").join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

#[test]
fn the_checker_catches_a_back_edge() {
    // A service importing the engine, in an inline path rather than a `use`.
    let dir = tree(&[
        ("lib.rs", "pub mod engine;\npub mod store;\n"),
        ("engine/mod.rs", "pub fn run() {}\n"),
        ("store/mod.rs", "pub struct SessionStore;\n"),
        (
            "store/messages.rs",
            "pub fn f() {\n    crate::engine::run();\n}\n",
        ),
    ]);
    let bad = problems(&dir.path().join("src"));
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(
        bad[0].starts_with("store (services) must not use engine (engine): ")
            && bad[0].ends_with("store/messages.rs:2"),
        "{bad:?}"
    );
}

#[test]
fn the_checker_catches_a_cycle_in_grouped_imports() {
    // tools -> voice is a listed sibling edge; voice -> tools closes a cycle. Both imports
    // are grouped, one over several lines.
    let dir = tree(&[
        (
            "tools/mod.rs",
            "use crate::{util::x, voice::tts::Synthesizer};\n",
        ),
        (
            "voice/stt.rs",
            "use crate::{\n    model::Message,\n    tools::{args, output},\n};\n",
        ),
    ]);
    let bad = problems(&dir.path().join("src"));
    assert!(
        bad.iter()
            .any(|p| p == "import cycle between tools, voice: tools -> voice, voice -> tools"),
        "{bad:?}"
    );
    assert!(
        bad.iter()
            .any(|p| p.starts_with("voice (services) must not use tools (services)")),
        "{bad:?}"
    );
    // The cycle finder on its own: a cycle of edges the table would allow is still caught.
    let graph: BTreeMap<(String, String), Vec<String>> =
        [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]
            .iter()
            .map(|(f, t)| (((*f).to_owned(), (*t).to_owned()), Vec::new()))
            .collect();
    assert_eq!(cycles(&graph), vec![vec!["a", "b", "c"]]);
}

#[test]
fn the_checker_holds_frontends_to_the_contract_and_places_new_modules() {
    let dir = tree(&[
        (
            "tui/app.rs",
            "use crate::protocol::Event;\nuse crate::providers::Message;\n",
        ),
        ("gadgets/mod.rs", "use crate::util::http;\n"),
        // The binary names the library `hermes`; its own `crate::` paths are not the library's.
        (
            "main.rs",
            "use hermes::engine::start;\nuse crate::run_setup::x;\n",
        ),
    ]);
    let graph = import_graph(&dir.path().join("src"));
    let edges: Vec<String> = graph.keys().map(|(f, t)| format!("{f}->{t}")).collect();
    assert_eq!(
        edges,
        [
            "cli->engine",
            "gadgets->util",
            "tui->protocol",
            "tui->providers"
        ],
        "{graph:?}"
    );
    let bad = problems(&dir.path().join("src"));
    assert_eq!(bad.len(), 2, "{bad:?}");
    assert!(bad[0].starts_with("gadgets is in no layer"), "{bad:?}");
    assert!(
        bad[1].starts_with("tui (frontends) must not use providers (services)"),
        "{bad:?}"
    );
}

#[test]
fn the_checker_ignores_comments_strings_and_lookalikes() {
    let text = r##"
// use crate::engine::x;
/* crate::engine /* nested crate::engine */ still a comment crate::engine */
pub(crate) fn f() -> &'static str {
    let _ = '"';
    let _ = '\'';
    let _ = "crate::engine::x \" crate::engine";
    let _ = r#"crate::engine "quoted" crate::engine"#;
    let _ = b"crate::engine";
    let _ = mycrate::engine::x;
    macro_rules! m { () => { $crate::engine::x } }
    crate::util::time::now();
    "x"
}
"##;
    let code = code_only(text);
    assert_eq!(code.len(), text.len(), "offsets are kept");
    assert_eq!(code.matches('\n').count(), text.matches('\n').count());
    let found: Vec<String> = imported_modules(&code, "crate")
        .into_iter()
        .map(|(_, m)| m)
        .collect();
    assert_eq!(found, ["util"], "{code}");
}

/// Lines of non-test code in `files` that name a raw colour (`Color::…`, `style::Color`, or
/// ratatui's colour shortcuts such as `.red()` and `.on_blue()`): widgets ask the theme for
/// roles, so only `src/theme/` may build colours. clippy.toml bans `Color` and the shortcuts
/// by type (renamed imports included) but misses a unit variant named by its full path or
/// through a glob import, which this text check catches.
fn raw_colours(files: &[PathBuf]) -> Vec<String> {
    let shortcut = regex::Regex::new(
        r"\.(on_)?(light_)?(red|green|blue|yellow|cyan|magenta|white|black|gray|dark_gray)\(\)",
    )
    .unwrap();
    let mut found = Vec::new();
    for file in files {
        if file.to_string_lossy().ends_with("_tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            let code = line.split("//").next().unwrap_or("");
            if code.contains("Color::") || code.contains("style::Color") || shortcut.is_match(code)
            {
                found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn only_the_theme_builds_colours() {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    files.retain(|f| !f.starts_with("src/theme"));
    assert!(files.len() > 50, "expected to find the sources");
    let bad = raw_colours(&files);
    assert!(
        bad.is_empty(),
        "raw colours outside src/theme (ask the theme for a Role):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_colour_check_catches_a_raw_colour() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("widget.rs");
    std::fs::write(
        &file,
        "use ratatui::style::Color;\nlet s = Style::default().fg(Color::Red); // Color::Blue in a comment is fine\nlet t = \"x\".light_red().on_black();\nself.on_enter();\n#[cfg(test)]\nmod tests { const C: Color = Color::Red; }\n",
    )
    .unwrap();
    let bad = raw_colours(&[file]);
    assert_eq!(bad.len(), 3, "{bad:?}");
}
