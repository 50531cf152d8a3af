//! ARCHITECTURE §1, "the one rule": frontends (`tui/`, `headless`) know only `protocol`
//! (plus `config`, `theme` and `util`); engine-side code never imports a frontend. Checked by
//! reading every `use`/path line of the sources.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::path::PathBuf;

const ENGINE_SIDE: [&str; 8] = [
    "clipboard",
    "engine",
    "providers",
    "tools",
    "store",
    "knowledge",
    "safety",
    "voice",
];
const FRONTENDS: [&str; 2] = ["tui", "headless"];

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

fn files_of(module: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let dir = Path::new("src").join(module);
    if dir.is_dir() {
        rust_files(&dir, &mut files);
    }
    let file = Path::new("src").join(format!("{module}.rs"));
    if file.is_file() {
        files.push(file);
    }
    files
}

/// Lines of `files` that mention `crate::<target>` for any of `targets`.
fn violations(files: &[PathBuf], targets: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for target in targets {
                let needle = format!("crate::{target}");
                let hit = code.match_indices(&needle).any(|(i, _)| {
                    let rest = &code[i + needle.len()..];
                    rest.starts_with("::") || rest.starts_with(';') || rest.starts_with(' ')
                });
                if hit {
                    found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    found
}

#[test]
fn frontends_use_only_the_protocol() {
    let mut files = Vec::new();
    for frontend in FRONTENDS {
        files.extend(files_of(frontend));
    }
    assert!(files.len() > 5, "expected to find the frontend sources");
    let bad = violations(&files, &ENGINE_SIDE);
    assert!(
        bad.is_empty(),
        "frontends import engine-side modules:\n{}",
        bad.join("\n")
    );
}

#[test]
fn engine_side_never_imports_a_frontend() {
    let mut files = Vec::new();
    for module in ENGINE_SIDE {
        files.extend(files_of(module));
    }
    assert!(files.len() > 5, "expected to find the engine sources");
    let bad = violations(&files, &FRONTENDS);
    assert!(
        bad.is_empty(),
        "engine-side code imports a frontend:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_checker_catches_a_violation() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x.rs");
    std::fs::write(
        &file,
        "use crate::engine::session;\n// crate::tools is fine in a comment\n",
    )
    .unwrap();
    let bad = violations(&[file], &ENGINE_SIDE);
    assert_eq!(bad.len(), 1, "{bad:?}");
}

/// Lines of non-test code in `files` that name a raw colour (`Color::…`, `style::Color`, or
/// ratatui's colour shortcuts such as `.red()` and `.on_blue()`): widgets ask the theme for
/// roles, so only `src/theme/` may build colours.
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
