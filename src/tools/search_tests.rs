use serde_json::json;

use super::*;
use crate::tools::ToolOutcome;
use crate::tools::test_support::ctx;

fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("src/nested")).unwrap();
    std::fs::create_dir_all(root.join("target")).unwrap();
    std::fs::create_dir_all(root.join(".hidden")).unwrap();
    std::fs::write(root.join(".gitignore"), "target/\n*.log\n").unwrap();
    std::fs::write(root.join("src/main.rs"), "fn main() {\n    helper();\n}\n").unwrap();
    std::fs::write(
        root.join("src/nested/lib.rs"),
        "pub fn helper() {}\n// TODO: more\n",
    )
    .unwrap();
    std::fs::write(root.join("src/notes.md"), "helper notes\n").unwrap();
    std::fs::write(root.join("target/out.rs"), "fn helper() {}\n").unwrap();
    std::fs::write(root.join("debug.log"), "helper in log\n").unwrap();
    std::fs::write(root.join(".hidden/secret.rs"), "fn helper() {}\n").unwrap();
    std::fs::write(root.join("blob.bin"), b"helper\0\0\0").unwrap();
    dir
}

async fn search(ctx: &ToolContext, args: serde_json::Value) -> ToolOutput {
    SearchFilesTool.call(args, ctx).await
}

#[tokio::test]
async fn content_search_respects_gitignore_hidden_and_binary() {
    let dir = tree();
    let out = search(&ctx(dir.path()), json!({"pattern": "helper"})).await;
    assert_eq!(out.outcome, ToolOutcome::Ok, "{}", out.content);
    assert_eq!(
        out.content,
        "src/main.rs:2:     helper();\nsrc/nested/lib.rs:1: pub fn helper() {}\nsrc/notes.md:1: helper notes"
    );
}

#[tokio::test]
async fn content_search_with_regex_glob_and_path() {
    let dir = tree();
    let c = ctx(dir.path());
    let out = search(&c, json!({"pattern": r"fn \w+\(\)", "file_glob": "*.rs"})).await;
    assert_eq!(
        out.content,
        "src/main.rs:1: fn main() {\nsrc/nested/lib.rs:1: pub fn helper() {}"
    );
    let out = search(&c, json!({"pattern": "TODO", "path": "src/nested"})).await;
    assert_eq!(out.content, "lib.rs:2: // TODO: more");
    let out = search(&c, json!({"pattern": "nothing-matches-this"})).await;
    assert!(out.content.starts_with("no matches"), "{}", out.content);
    let out = search(&c, json!({"pattern": "("})).await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert!(out.content.contains("invalid regex"), "{}", out.content);
    let out = search(&c, json!({"pattern": "x", "path": "nope"})).await;
    assert!(out.content.contains("path not found"), "{}", out.content);
}

#[tokio::test]
async fn content_search_limit_and_context() {
    let dir = tempfile::tempdir().unwrap();
    let text: String = (1..=30).map(|i| format!("row {i}\n")).collect();
    std::fs::write(dir.path().join("rows.txt"), text).unwrap();
    let c = ctx(dir.path());
    let out = search(&c, json!({"pattern": "row", "limit": 3})).await;
    assert_eq!(
        out.content,
        "rows.txt:1: row 1\nrows.txt:2: row 2\nrows.txt:3: row 3\n[27 more matches not shown; narrow the search or raise limit]"
    );
    let out = search(&c, json!({"pattern": "^row (5|20)$", "context": 1})).await;
    assert_eq!(
        out.content,
        "rows.txt-4- row 4\nrows.txt:5: row 5\nrows.txt-6- row 6\n--\nrows.txt-19- row 19\nrows.txt:20: row 20\nrows.txt-21- row 21"
    );
}

#[tokio::test]
async fn files_search_by_glob() {
    let dir = tree();
    let c = ctx(dir.path());
    let out = search(&c, json!({"pattern": "*.rs", "target": "files"})).await;
    assert_eq!(out.content, "src/main.rs\nsrc/nested/lib.rs");
    let out = search(&c, json!({"pattern": "src/*/*.rs", "target": "files"})).await;
    assert_eq!(out.content, "src/nested/lib.rs");
    let out = search(&c, json!({"pattern": "*", "target": "files", "limit": 2})).await;
    assert!(
        out.content
            .ends_with("more files not shown; narrow the search or raise limit]"),
        "{}",
        out.content
    );
    let out = search(&c, json!({"pattern": "*.zzz", "target": "files"})).await;
    assert!(
        out.content.starts_with("no files matching"),
        "{}",
        out.content
    );
}
