use super::*;
use pretty_assertions::assert_eq;
use std::fs;
use std::process::Command;

fn targets(text: &str) -> Vec<ReferenceTarget> {
    find_references(text)
        .into_iter()
        .map(|r| r.target)
        .collect()
}

fn path(p: &str) -> ReferenceTarget {
    ReferenceTarget::Path(p.to_owned())
}

#[test]
fn finds_paths_folders_and_diff() {
    assert_eq!(
        targets("look at @src/main.rs and @docs/ then @diff"),
        vec![path("src/main.rs"), path("docs/"), ReferenceTarget::Diff]
    );
}

#[test]
fn ranges_and_raw_match_the_text() {
    let text = "see (@a.rs), @\"my file.txt\".";
    let refs = find_references(text);
    assert_eq!(refs.len(), 2);
    for r in &refs {
        assert_eq!(&text[r.range.clone()], r.raw);
    }
    assert_eq!(refs[0].raw, "@a.rs");
    assert_eq!(refs[1].raw, "@\"my file.txt\"");
    assert_eq!(refs[1].target, path("my file.txt"));
}

#[test]
fn emails_and_mid_word_ats_are_not_references() {
    assert_eq!(targets("mail a@b.com or x/@y or foo@diff"), vec![]);
}

#[test]
fn code_spans_and_fences_are_skipped() {
    let text = "`@a.rs` and ``x @b.rs`` but @c.rs\n```\n@d.rs\n```\n~~~sh\n@e.rs\n~~~\n@f.rs";
    assert_eq!(targets(text), vec![path("c.rs"), path("f.rs")]);
}

#[test]
fn an_unclosed_backtick_is_literal() {
    assert_eq!(targets("a ` then @g.rs"), vec![path("g.rs")]);
}

#[test]
fn quoted_paths_keep_spaces_and_unclosed_quotes_are_not_references() {
    assert_eq!(
        targets("@'a b.md' @\"c d.md\" @\"open"),
        vec![path("a b.md"), path("c d.md")]
    );
}

#[test]
fn punctuation_and_unbalanced_brackets_are_trimmed() {
    assert_eq!(
        targets("(@x.rs). [@y(1).rs] @z.rs: @w.rs?"),
        vec![path("x.rs"), path("y(1).rs"), path("z.rs"), path("w.rs")]
    );
}

#[test]
fn hermes_prefixes_and_lone_ats() {
    assert_eq!(
        targets("@file:a.rs @folder:src/ @ @. @file: @diffs"),
        vec![path("a.rs"), path("src/"), path("diffs")]
    );
}

fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("src/tui")).unwrap();
    fs::write(
        dir.path().join("src/main.rs"),
        "fn main() {\n    hi();\n}\n",
    )
    .unwrap();
    fs::write(dir.path().join("src/lib.rs"), "").unwrap();
    fs::write(dir.path().join("src/tui/app.rs"), "app").unwrap();
    fs::write(dir.path().join("my file.txt"), "spaced").unwrap();
    dir
}

#[test]
fn a_file_is_appended_after_the_text() {
    let dir = tree();
    let out = expand_references("explain @src/main.rs please", dir.path());
    assert_eq!(
        out.text,
        "explain @src/main.rs please\n\n--- @src/main.rs (3 lines) ---\nfn main() {\n    hi();\n}"
    );
    assert_eq!(out.notes, Vec::<String>::new());
}

#[test]
fn quoted_and_repeated_references_attach_once() {
    let dir = tree();
    let out = expand_references("@\"my file.txt\" and @\"my file.txt\"", dir.path());
    assert_eq!(
        out.text,
        "@\"my file.txt\" and @\"my file.txt\"\n\n--- @\"my file.txt\" (1 line) ---\nspaced"
    );
}

#[test]
fn text_without_references_is_unchanged() {
    let dir = tree();
    let out = expand_references("hello a@b.com", dir.path());
    assert_eq!(
        out,
        Expanded {
            text: "hello a@b.com".to_owned(),
            notes: vec![]
        }
    );
}

#[test]
fn a_missing_path_is_a_note_and_the_token_stays() {
    let dir = tree();
    let out = expand_references("fix @nope.rs", dir.path());
    assert_eq!(out.text, "fix @nope.rs");
    assert_eq!(out.notes, vec!["@nope.rs: no file at nope.rs".to_owned()]);
}

#[test]
fn a_binary_file_is_refused() {
    let dir = tree();
    fs::write(
        dir.path().join("logo.png"),
        [0x89, b'P', b'N', b'G', 0, 1, 2],
    )
    .unwrap();
    fs::write(dir.path().join("latin1.txt"), [b'a', 0xE9, b'b', b'\n']).unwrap();
    let out = expand_references("@logo.png @latin1.txt", dir.path());
    assert_eq!(out.text, "@logo.png @latin1.txt");
    assert_eq!(
        out.notes,
        vec![
            "@logo.png: binary file (7 B), not attached".to_owned(),
            "@latin1.txt: binary file (4 B), not attached".to_owned(),
        ]
    );
}

#[test]
fn a_folder_becomes_a_listing_without_ignored_or_hidden_entries() {
    let dir = tree();
    fs::write(dir.path().join(".gitignore"), "target/\n*.log\n").unwrap();
    fs::create_dir_all(dir.path().join("target/debug")).unwrap();
    fs::write(dir.path().join("src/debug.log"), "x").unwrap();
    fs::write(dir.path().join("src/.secret"), "x").unwrap();
    fs::create_dir_all(dir.path().join("src/tui/deep/deeper")).unwrap();
    let out = expand_references("@src/ and @src", dir.path());
    assert_eq!(
        out.text,
        "@src/ and @src\n\n--- @src/ (folder, 5 entries) ---\nsrc/\n  lib.rs\n  main.rs\n  tui/\n    app.rs\n    deep/"
    );
}

#[test]
fn folder_listings_stop_at_the_entry_limit() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..(FOLDER_ENTRIES + 5) {
        fs::write(dir.path().join(format!("f{i:03}.txt")), "").unwrap();
    }
    let out = expand_references("@./", dir.path());
    assert!(
        out.text
            .contains(&format!("(folder, {FOLDER_ENTRIES} entries)"))
    );
    assert!(out.text.ends_with("… (listing stops at 200 entries)"));
}

#[test]
fn a_big_file_is_cut_at_the_file_cap() {
    let dir = tempfile::tempdir().unwrap();
    let line = "0123456789abcdef0123456789abcdef0123456789abcdef012345678\n"; // 58 bytes
    fs::write(dir.path().join("big.log"), line.repeat(2000)).unwrap();
    let out = expand_references("@big.log", dir.path());
    assert!(
        out.text
            .starts_with("@big.log\n\n--- @big.log (2000 lines) ---\n0123")
    );
    assert!(out.text.len() < FILE_CAP + 200);
    assert!(
        out.text
            .ends_with("[… truncated: first 50 KB of 113 KB shown]")
    );
    assert_eq!(
        out.notes,
        vec!["@big.log: truncated to the first 50 KB of 113 KB".to_owned()]
    );
    let body_line = out.text.lines().rev().nth(1).unwrap();
    assert_eq!(format!("{body_line}\n"), line, "cut at a line break");
}

#[test]
fn the_total_cap_cuts_then_drops_attachments() {
    let dir = tempfile::tempdir().unwrap();
    let body = "x".repeat(63) + "\n";
    for name in ["a", "b", "c", "d", "e"] {
        fs::write(dir.path().join(name), body.repeat(700)).unwrap(); // 44 KB each
    }
    fs::write(dir.path().join("f"), "tiny").unwrap();
    let out = expand_references("@a @b @c @d @e @f", dir.path());
    let blocks = out.text.matches("\n--- @").count();
    assert_eq!(blocks, 5);
    assert!(out.text.len() <= TOTAL_CAP + 1024);
    assert_eq!(
        out.notes,
        vec![
            "@e: truncated to the first 25 KB of 44 KB".to_owned(),
            "@f: not attached, the 200 KB limit for one message's attachments was reached"
                .to_owned(),
        ]
    );
}

#[test]
fn tilde_resolves_to_home() {
    let home = dirs::home_dir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    assert_eq!(files::resolve("~", cwd.path()), home);
    assert_eq!(files::resolve("~/x.rs", cwd.path()), home.join("x.rs"));
    assert_eq!(files::resolve("~x", cwd.path()), cwd.path().join("~x"));
    assert_eq!(
        files::resolve("/etc/hosts", cwd.path()),
        Path::new("/etc/hosts")
    );
}

#[test]
fn human_sizes() {
    assert_eq!(files::human_size(812), "812 B");
    assert_eq!(files::human_size(50 * 1024), "50 KB");
    assert_eq!(files::human_size(1024 * 1024 + 200 * 1024), "1.2 MB");
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

#[test]
fn diff_attaches_unstaged_and_staged_changes() {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q"]);
    fs::write(dir.path().join("a.txt"), "one\n").unwrap();
    fs::write(dir.path().join("b.txt"), "uno\n").unwrap();
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-q", "-m", "init"]);
    let clean = expand_references("@diff", dir.path());
    assert_eq!(clean.text, "@diff");
    assert_eq!(
        clean.notes,
        vec!["@diff: no changes (git diff and git diff --cached are empty)".to_owned()]
    );

    fs::write(dir.path().join("a.txt"), "two\n").unwrap();
    fs::write(dir.path().join("b.txt"), "dos\n").unwrap();
    git(dir.path(), &["add", "b.txt"]);
    let out = expand_references("review @diff", dir.path());
    assert_eq!(out.notes, Vec::<String>::new());
    let (unstaged, staged) = out.text.split_once("--- @diff: git diff --cached").unwrap();
    assert!(unstaged.starts_with("review @diff\n\n--- @diff: git diff ("));
    assert!(unstaged.contains("-one\n+two"));
    assert!(!unstaged.contains("dos"));
    assert!(staged.contains("-uno\n+dos"));
}

#[test]
fn diff_outside_a_repository_is_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let out = expand_references("@diff", dir.path());
    assert_eq!(out.text, "@diff");
    assert_eq!(out.notes, vec!["@diff: not a git repository".to_owned()]);
}

#[test]
fn list_paths_puts_shallow_entries_first_and_respects_the_limit() {
    let dir = tree();
    fs::write(dir.path().join(".gitignore"), "ignored/\n").unwrap();
    fs::create_dir_all(dir.path().join("ignored")).unwrap();
    fs::create_dir_all(dir.path().join("a/b/c")).unwrap();
    fs::write(dir.path().join("a/b/c/deep.rs"), "").unwrap();
    let all = list_paths(dir.path(), 100);
    assert_eq!(
        all,
        vec![
            "a/",
            "a/b/",
            "my file.txt",
            "src/",
            "src/lib.rs",
            "src/main.rs",
            "src/tui/",
            "a/b/c/",
            "a/b/c/deep.rs",
            "src/tui/app.rs"
        ]
    );
    assert_eq!(list_paths(dir.path(), 3), vec!["a/", "a/b/", "my file.txt"]);
}

#[test]
fn credential_paths_are_refused() {
    let home = dirs::home_dir().unwrap();
    assert_eq!(
        files::check_allowed(&home.join(".ssh/id_ed25519")),
        Err(ReferenceError::Sensitive)
    );
    assert_eq!(files::check_allowed(&home.join("notes.md")), Ok(()));
}

#[cfg(unix)]
#[test]
fn special_files_are_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let out = expand_references("@/dev/null", dir.path());
    assert_eq!(out.text, "@/dev/null");
    assert_eq!(
        out.notes,
        vec!["@/dev/null: not a regular file, not attached".to_owned()]
    );
}

#[cfg(unix)]
#[test]
fn a_slow_command_is_killed_at_the_deadline() {
    let mut child = Command::new("sleep").arg("10").spawn().unwrap();
    let started = std::time::Instant::now();
    let deadline = started + std::time::Duration::from_millis(50);
    assert_eq!(
        git::wait_until(&mut child, deadline),
        Err(ReferenceError::GitTimeout)
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert_eq!(
        ReferenceError::GitTimeout.to_string(),
        "git took longer than 5 s and was stopped"
    );
}
