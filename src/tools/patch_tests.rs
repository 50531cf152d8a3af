use serde_json::json;

use super::*;
use crate::tools::ToolOutcome;
use crate::tools::test_support::ctx;

async fn patch(ctx: &ToolContext, args: serde_json::Value) -> ToolOutput {
    PatchTool.call(args, ctx).await
}

#[tokio::test]
async fn replaces_a_unique_match_and_shows_a_diff() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.rs");
    std::fs::write(
        &path,
        "fn main() {\n    let x = 1;\n    println!(\"{x}\");\n}\n",
    )
    .unwrap();
    let out = patch(
        &ctx(dir.path()),
        json!({"path": "a.rs", "old_string": "let x = 1;", "new_string": "let x = 2;\n    let y = 3;"}),
    )
    .await;
    assert_eq!(out.outcome, ToolOutcome::Ok, "{}", out.content);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "fn main() {\n    let x = 2;\n    let y = 3;\n    println!(\"{x}\");\n}\n"
    );
    assert!(
        out.content.ends_with(
            "1 replacement\n@@ line 2: -1 +2 @@\n-    let x = 1;\n+    let x = 2;\n+    let y = 3;"
        ),
        "{}",
        out.content
    );
}

#[tokio::test]
async fn zero_matches_is_not_found_with_whitespace_hint() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.py");
    std::fs::write(&path, "def f():\n\treturn 1\n").unwrap();
    let c = ctx(dir.path());
    let out = patch(
        &c,
        json!({"path": "a.py", "old_string": "def f():\n    return 1", "new_string": "x"}),
    )
    .await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert!(
        out.content.contains("old_string not found"),
        "{}",
        out.content
    );
    assert!(
        out.content.contains("whitespace is ignored"),
        "{}",
        out.content
    );
    let out = patch(
        &c,
        json!({"path": "a.py", "old_string": "nothing like it", "new_string": "x"}),
    )
    .await;
    assert!(
        out.content.contains("old_string not found"),
        "{}",
        out.content
    );
    assert!(
        !out.content.contains("whitespace is ignored"),
        "{}",
        out.content
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "def f():\n\treturn 1\n"
    );
}

#[tokio::test]
async fn several_matches_need_context_or_replace_all() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.txt");
    std::fs::write(&path, "foo\nbar foo\nfoo\n").unwrap();
    let c = ctx(dir.path());
    let out = patch(
        &c,
        json!({"path": "a.txt", "old_string": "foo", "new_string": "baz"}),
    )
    .await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert!(out.content.contains("matches 3 times"), "{}", out.content);
    assert!(out.content.contains("replace_all"), "{}", out.content);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "foo\nbar foo\nfoo\n"
    );
    let out = patch(
        &c,
        json!({"path": "a.txt", "old_string": "foo", "new_string": "baz", "replace_all": true}),
    )
    .await;
    assert_eq!(out.outcome, ToolOutcome::Ok, "{}", out.content);
    assert!(out.content.contains("3 replacements"), "{}", out.content);
    assert!(
        out.content
            .contains("@@ line 2: -1 +1 @@\n-bar foo\n+bar baz"),
        "{}",
        out.content
    );
    assert!(
        out.content.contains("@@ line 3: -1 +1 @@\n-foo\n+baz"),
        "{}",
        out.content
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "baz\nbar baz\nbaz\n"
    );
}

#[tokio::test]
async fn deletes_whole_lines_and_keeps_crlf() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path());
    let path = dir.path().join("a.txt");
    std::fs::write(&path, "a\nb\nc\n").unwrap();
    let out = patch(
        &c,
        json!({"path": "a.txt", "old_string": "b\n", "new_string": ""}),
    )
    .await;
    assert_eq!(out.outcome, ToolOutcome::Ok, "{}", out.content);
    assert!(
        out.content.ends_with("@@ line 2: -1 +0 @@\n-b"),
        "{}",
        out.content
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "a\nc\n");

    let path = dir.path().join("win.txt");
    std::fs::write(&path, "one\r\ntwo\r\nthree\r\n").unwrap();
    let out = patch(
        &c,
        json!({"path": "win.txt", "old_string": "one\ntwo", "new_string": "1\n2"}),
    )
    .await;
    assert_eq!(out.outcome, ToolOutcome::Ok, "{}", out.content);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "1\r\n2\r\nthree\r\n"
    );
}

#[tokio::test]
async fn refuses_bad_inputs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bin.dat"), b"a\0b").unwrap();
    std::fs::write(dir.path().join("t.txt"), "x").unwrap();
    let c = ctx(dir.path());
    let cases = [
        (
            json!({"path": "missing.txt", "old_string": "a", "new_string": "b"}),
            "file not found",
        ),
        (
            json!({"path": "bin.dat", "old_string": "a", "new_string": "b"}),
            "binary",
        ),
        (
            json!({"path": "t.txt", "old_string": "", "new_string": "b"}),
            "old_string is empty",
        ),
        (
            json!({"path": "t.txt", "old_string": "x", "new_string": "x"}),
            "identical",
        ),
        (json!({"path": "t.txt", "old_string": "x"}), "new_string"),
    ];
    for (args, expected) in cases {
        let out = patch(&c, args.clone()).await;
        assert_eq!(out.outcome, ToolOutcome::Error, "{args}");
        assert!(out.content.contains(expected), "{args}: {}", out.content);
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("t.txt")).unwrap(),
        "x"
    );
}

#[tokio::test]
async fn a_refused_write_leaves_the_file_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.txt");
    std::fs::write(&path, "old text\n").unwrap();
    let mut ctx = ctx(dir.path());
    ctx.policy = std::sync::Arc::new(crate::tools::test_support::RefuseWrites);
    let out = patch(
        &ctx,
        json!({"path": path.to_str().unwrap(), "old_string": "old", "new_string": "new"}),
    )
    .await;
    assert_eq!(out.outcome, ToolOutcome::Denied);
    assert!(
        out.content.contains("patch may not write"),
        "{}",
        out.content
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old text\n");
}
