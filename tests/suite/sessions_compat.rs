//! One `HERMES_HOME` shared with the real Python Hermes 0.19, alternating Python → hermes →
//! Python against the same scripted server: sessions are listed, shown, resumed, exported and
//! pruned by both; `hermes insights` counts hermes's sessions, calls and tokens; `--continue`
//! picks the session Hermes picks; neither program's open changes a table, column, index,
//! trigger or row the other wrote, and `state.db` passes `PRAGMA integrity_check`.
//!
//! Python Hermes comes from the virtualenv in `HERMES_PY_VENV` (default `/tmp/hvenv`;
//! `scripts/test.sh` installs it). Without it the tests print why and pass — except under
//! `CI=true`, where a missing Python Hermes fails them.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;
use crate::support::env::CleanEnv;

use std::collections::BTreeMap;
use std::path::Path;
use std::path::PathBuf;
use std::process::Command;
use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

use rusqlite::Connection;
use serde_json::Value;
use serde_json::json;
use support::Response;
use support::ScriptedCall;
use support::ScriptedServer;

const RUN_LIMIT: Duration = Duration::from_secs(120);

/// The Python Hermes virtualenv, or `None` (after saying why) when it is not installed.
fn python_hermes() -> Option<PathBuf> {
    let venv = PathBuf::from(std::env::var("HERMES_PY_VENV").unwrap_or("/tmp/hvenv".into()));
    if venv.join("bin/hermes").is_file() && venv.join("bin/python").is_file() {
        return Some(venv);
    }
    let why = format!(
        "Python Hermes is not installed at {} (set HERMES_PY_VENV)",
        venv.display()
    );
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
    eprintln!("skipping: {why}");
    None
}

struct Home {
    dir: tempfile::TempDir,
    venv: PathBuf,
}

struct Run {
    code: i32,
    out: String,
    err: String,
}

impl Home {
    fn new(server: &ScriptedServer, venv: PathBuf) -> Self {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["home", "work", "elsewhere"] {
            std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        }
        std::fs::write(dir.path().join("home/config.yaml"), server.config_yaml()).unwrap();
        Self { dir, venv }
    }

    fn db(&self) -> PathBuf {
        self.dir.path().join("home/state.db")
    }

    fn command(&self, program: &Path, args: &[&str], cwd: &str) -> Command {
        let mut cmd = Command::new(program);
        cmd.clean_env()
            .args(args)
            .current_dir(self.dir.path().join(cwd))
            .env("HERMES_HOME", self.dir.path().join("home"))
            .env("HOME", self.dir.path());
        cmd
    }

    /// The Rust binary.
    fn rs(&self, args: &[&str]) -> Run {
        self.rs_in("work", args)
    }

    fn rs_in(&self, cwd: &str, args: &[&str]) -> Run {
        let program = PathBuf::from(env!("CARGO_BIN_EXE_hermes"));
        run(
            self.command(&program, args, cwd),
            &format!("hermes {args:?}"),
        )
    }

    /// Python Hermes's CLI.
    fn py(&self, args: &[&str]) -> Run {
        let program = self.venv.join("bin/hermes");
        run(
            self.command(&program, args, "work"),
            &format!("python hermes {args:?}"),
        )
    }

    /// Python code run with Hermes's packages importable; its stdout parsed as JSON.
    fn py_json(&self, code: &str) -> Value {
        let program = self.venv.join("bin/python");
        let r = run(self.command(&program, &["-c", code], "work"), "python -c");
        assert_eq!(r.code, 0, "python failed:\n{}\n{}", r.out, r.err);
        let last = r.out.lines().last().unwrap_or_default();
        serde_json::from_str(last).unwrap_or_else(|e| panic!("{e}: {}", r.out))
    }

    fn session_ids(&self) -> Vec<String> {
        let conn = Connection::open(self.db()).unwrap();
        let mut stmt = conn
            .prepare("SELECT id FROM sessions ORDER BY started_at, id")
            .unwrap();
        stmt.query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
    }

    fn row(&self, id: &str, columns: &str) -> Vec<Value> {
        let conn = Connection::open(self.db()).unwrap();
        let n = columns.split(',').count();
        conn.query_row(
            &format!("SELECT {columns} FROM sessions WHERE id = ?1"),
            [id],
            |r| {
                (0..n)
                    .map(|i| {
                        Ok(match r.get_ref(i)? {
                            rusqlite::types::ValueRef::Null => Value::Null,
                            rusqlite::types::ValueRef::Integer(v) => v.into(),
                            rusqlite::types::ValueRef::Real(v) => v.into(),
                            rusqlite::types::ValueRef::Text(t) => {
                                String::from_utf8_lossy(t).into_owned().into()
                            }
                            rusqlite::types::ValueRef::Blob(_) => Value::Null,
                        })
                    })
                    .collect()
            },
        )
        .unwrap()
    }
}

/// Run to completion (at most `RUN_LIMIT`), keeping both outputs.
fn run(mut cmd: Command, what: &str) -> Run {
    let out_dir = tempfile::tempdir().unwrap();
    let (out_path, err_path) = (out_dir.path().join("out"), out_dir.path().join("err"));
    cmd.stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap());
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("{what}: {e}"));
    let deadline = Instant::now() + RUN_LIMIT;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!(
                "{what} did not finish in {RUN_LIMIT:?}:\n{}",
                std::fs::read_to_string(&err_path).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Run {
        code: status.code().unwrap_or(-1),
        out: std::fs::read_to_string(&out_path).unwrap_or_default(),
        err: std::fs::read_to_string(&err_path).unwrap_or_default(),
    }
}

/// What must survive the other program: every schema object (tables by their columns, the
/// rest by their SQL) and every table's row count. FTS shadow tables are internal to SQLite.
#[derive(Debug, PartialEq)]
struct Snapshot {
    objects: BTreeMap<(String, String), String>,
    columns: BTreeMap<String, Vec<String>>,
    rows: BTreeMap<String, i64>,
}

fn snapshot(db: &Path) -> Snapshot {
    let conn = Connection::open(db).unwrap();
    let mut stmt = conn
        .prepare("SELECT type, name, COALESCE(sql, '') FROM sqlite_master")
        .unwrap();
    let objects: BTreeMap<(String, String), String> = stmt
        .query_map([], |r| Ok(((r.get(0)?, r.get(1)?), r.get(2)?)))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    let mut columns = BTreeMap::new();
    let mut rows = BTreeMap::new();
    for (kind, name) in objects.keys() {
        if kind != "table" || name.starts_with("messages_fts") {
            continue;
        }
        let mut info = conn
            .prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")
            .unwrap();
        let cols: Vec<String> = info
            .query_map([name], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        columns.insert(name.clone(), cols);
        let n: i64 = conn
            .query_row(&format!("SELECT COUNT(*) FROM \"{name}\""), [], |r| {
                r.get(0)
            })
            .unwrap();
        rows.insert(name.clone(), n);
    }
    Snapshot {
        objects,
        columns,
        rows,
    }
}

/// Nothing in `before` is gone or changed in `after` (tables may gain columns and rows).
fn assert_kept(before: &Snapshot, after: &Snapshot, step: &str) {
    for ((kind, name), sql) in &before.objects {
        let now = after.objects.get(&(kind.clone(), name.clone()));
        assert!(now.is_some(), "{step}: {kind} {name} was dropped");
        if kind != "table" {
            assert_eq!(now, Some(sql), "{step}: {kind} {name} was redefined");
        }
    }
    for (table, cols) in &before.columns {
        let now = &after.columns[table];
        for c in cols {
            assert!(now.contains(c), "{step}: column {table}.{c} was dropped");
        }
    }
    for (table, n) in &before.rows {
        if table == "sqlite_stat1" {
            continue;
        }
        assert!(after.rows[table] >= *n, "{step}: rows of {table} lost");
    }
}

fn assert_healthy(db: &Path) {
    let conn = Connection::open(db).unwrap();
    let ok: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
    let mut stmt = conn.prepare("PRAGMA foreign_key_check").unwrap();
    let problems = stmt.query_map([], |_| Ok(())).unwrap().count();
    assert_eq!(problems, 0, "foreign key violations");
}

fn ok(run: &Run, what: &str) -> String {
    assert_eq!(run.code, 0, "{what} failed:\n{}\n{}", run.out, run.err);
    run.out.clone()
}

fn new_id(home: &Home, before: &[String]) -> String {
    let ids = home.session_ids();
    let new: Vec<&String> = ids.iter().filter(|i| !before.contains(i)).collect();
    assert_eq!(
        new.len(),
        1,
        "one new session expected: {ids:?} (was {before:?})"
    );
    new[0].clone()
}

/// The user messages of completion request `n` (0-based).
fn user_texts(server: &ScriptedServer, n: usize) -> Vec<String> {
    let requests = server.completion_requests();
    requests[n].body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "user")
        .map(|m| m["content"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn python_and_hermes_take_turns_on_one_home() {
    let Some(venv) = python_hermes() else {
        return;
    };
    let server = ScriptedServer::start_on_own_thread([
        Response::text(["py one"]).with_usage(100, 7),
        Response::text(["rs one"]).with_usage(200, 9),
        Response::text(["rs on py"]).with_usage(300, 11),
    ]);
    let home = Home::new(&server, venv);

    // Python creates the database and a session.
    let out = ok(&home.py(&["-z", "remember the walrus"]), "python -z");
    assert!(out.contains("py one"), "{out}");
    let py_session = new_id(&home, &[]);
    let after_python = snapshot(&home.db());

    // hermes opens it, answers in a session of its own, lists and shows both.
    let out = ok(&home.rs(&["-z", "hello from rust"]), "hermes -z");
    assert_eq!(out, "rs one\n");
    let rs_session = new_id(&home, std::slice::from_ref(&py_session));
    let after_rust = snapshot(&home.db());
    assert_kept(
        &after_python,
        &after_rust,
        "hermes opened Python's database",
    );
    let listed = ok(&home.rs(&["sessions", "list"]), "hermes sessions list");
    assert!(
        listed.contains(&py_session) && listed.contains(&rs_session),
        "{listed}"
    );
    let shown = ok(
        &home.rs(&["sessions", "show", &py_session]),
        "hermes sessions show",
    );
    assert!(shown.contains("remember the walrus"), "{shown}");

    // hermes resumes Python's session: the model sees Python's turn; the session is re-opened
    // and ended again when the run ends.
    let out = ok(
        &home.rs(&["--resume", &py_session, "-z", "and then?"]),
        "hermes --resume",
    );
    assert_eq!(out, "rs on py\n");
    assert_eq!(user_texts(&server, 2), ["remember the walrus", "and then?"]);
    assert_eq!(
        home.row(
            &py_session,
            "message_count, end_reason, ended_at IS NOT NULL"
        ),
        [json!(4), json!("agent_close"), json!(1)]
    );
    assert_kept(&after_rust, &snapshot(&home.db()), "hermes resumed");

    // Python lists, reads and exports hermes's session, and counts it in its insights.
    let listed = ok(&home.py(&["sessions", "list"]), "python sessions list");
    assert!(listed.contains(&rs_session), "{listed}");
    let export = home.dir.path().join("export.jsonl");
    ok(
        &home.py(&[
            "sessions",
            "export",
            export.to_str().unwrap(),
            "--session-id",
            &rs_session,
        ]),
        "python sessions export",
    );
    let exported = std::fs::read_to_string(&export).unwrap();
    assert!(exported.contains("hello from rust") && exported.contains("rs one"));
    let seen = home.py_json(&format!(
        "import json\nfrom hermes_state import SessionDB\ndb = SessionDB()\n\
         print(json.dumps({{'py': len(db.get_messages_as_conversation('{py_session}')),\
         'rs': [m['content'] for m in db.get_messages_as_conversation('{rs_session}')]}}))"
    ));
    assert_eq!(seen["py"], 4);
    assert_eq!(seen["rs"], json!(["hello from rust", "rs one"]));

    // Python's prune selects hermes's ended session (and only what the filter says).
    let before_prune = snapshot(&home.db());
    let dry = ok(
        &home.py(&["sessions", "prune", "--max-messages", "2", "--dry-run"]),
        "python prune --dry-run",
    );
    assert!(
        dry.contains(&rs_session) && !dry.contains(&py_session),
        "{dry}"
    );
    ok(
        &home.py(&["sessions", "prune", "--max-messages", "2", "--yes"]),
        "python prune",
    );
    assert_eq!(home.session_ids(), std::slice::from_ref(&py_session));
    let after_prune = snapshot(&home.db());
    assert_eq!(
        after_prune.objects, before_prune.objects,
        "prune changed the schema"
    );
    assert_eq!(
        after_prune.rows["session_model_usage"], 1,
        "hermes's usage rows went with its session"
    );

    // hermes still reads what is left, and changes nothing by opening it.
    let listed = ok(&home.rs(&["sessions", "list"]), "hermes sessions list");
    assert!(
        listed.contains(&py_session) && !listed.contains(&rs_session),
        "{listed}"
    );
    assert_eq!(snapshot(&home.db()), after_prune);
    assert_healthy(&home.db());
}

/// Python opening a database hermes created finds nothing to reconcile: no column, index,
/// trigger or row is added or changed.
#[test]
fn python_finds_nothing_to_change_in_a_database_hermes_created() {
    let Some(venv) = python_hermes() else {
        return;
    };
    let server = ScriptedServer::start_on_own_thread([
        Response::text(["first"]),
        Response::text(["py reply"]),
    ]);
    let home = Home::new(&server, venv);
    ok(&home.rs(&["-z", "made by hermes"]), "hermes -z");
    let made = snapshot(&home.db());
    let version = home.py_json(
        "import json\nfrom hermes_state import SessionDB\ndb = SessionDB()\n\
         row = db._conn.execute('SELECT version FROM schema_version').fetchone()\n\
         print(json.dumps({'version': row[0], 'fts': db._fts_enabled}))",
    );
    assert_eq!(version, json!({"version": 22, "fts": true}));
    assert_eq!(
        snapshot(&home.db()),
        made,
        "Python's open changed the database"
    );
    // And Python works in it.
    let out = ok(&home.py(&["-z", "python here"]), "python -z");
    assert!(out.contains("py reply"), "{out}");
    let after_python = snapshot(&home.db());
    assert_kept(&made, &after_python, "Python wrote a session");
    ok(&home.rs(&["sessions", "list"]), "hermes sessions list");
    assert_eq!(
        snapshot(&home.db()),
        after_python,
        "hermes's open changed the database"
    );
    assert_healthy(&home.db());
}

/// A few hermes turns (one with a tool call, one with cache reads) are counted by Python's
/// `hermes insights` exactly: sessions, API calls, tokens, per-model rows.
#[test]
fn hermes_insights_counts_hermes_turns() {
    let Some(venv) = python_hermes() else {
        return;
    };
    let mut cached = Response::text(["second answer"]).with_usage(80, 4);
    cached.usage.cached_tokens = 30;
    let server = ScriptedServer::start_on_own_thread([
        Response::tool_calls([ScriptedCall::new("c1", "todo", "{}")]).with_usage(100, 10),
        Response::text(["planned"]).with_usage(150, 5),
        cached,
    ]);
    let home = Home::new(&server, venv);
    ok(&home.rs(&["-z", "make a plan"]), "hermes -z (tool turn)");
    ok(&home.rs(&["-z", "and again"]), "hermes -z");
    let report = home.py_json(
        "import json\nfrom hermes_state import SessionDB\nfrom agent.insights import InsightsEngine\n\
         r = InsightsEngine(SessionDB()).generate(days=30)\n\
         o = r['overview']\n\
         print(json.dumps({'sessions': o['total_sessions'], 'tool_calls': o['total_tool_calls'],\
         'input': o['total_input_tokens'], 'output': o['total_output_tokens'],\
         'cache_read': o['total_cache_read_tokens'], 'messages': o['total_messages'],\
         'models': [[m['model'], m['sessions'], m['api_calls'], m['input_tokens']] for m in r['models']]}))",
    );
    assert_eq!(
        report,
        json!({
            "sessions": 2,
            "tool_calls": 1,
            // Hermes counts uncached input: 100 + 150 + (80 - 30).
            "input": 300,
            "output": 19,
            "cache_read": 30,
            "messages": 6,
            "models": [["scripted-model", 2, 3, 300]],
        })
    );
    let text = ok(
        &home.py(&["insights", "--days", "30"]),
        "python hermes insights",
    );
    assert!(text.contains("scripted-model"), "{text}");
}

/// `--continue` picks what Python Hermes's `-c` picks: the CLI session used last, whoever
/// wrote it and wherever it was started.
#[test]
fn continue_picks_the_session_python_hermes_picks() {
    let Some(venv) = python_hermes() else {
        return;
    };
    let server = ScriptedServer::start_on_own_thread([
        Response::text(["py first"]),
        Response::text(["rs first"]),
        Response::text(["py latest"]),
        Response::text(["continued python"]),
        Response::text(["rs elsewhere"]),
        Response::text(["continued elsewhere"]),
    ]);
    let home = Home::new(&server, venv);
    let python_pick = || -> String {
        let v = home.py_json(
            "import json\nfrom hermes_cli.main import _resolve_last_session\n\
             print(json.dumps(_resolve_last_session('cli')))",
        );
        v.as_str().unwrap().to_string()
    };
    ok(&home.py(&["-z", "python one"]), "python -z");
    ok(&home.rs(&["-z", "rust one"]), "hermes -z");
    let before = home.session_ids();
    ok(&home.py(&["-z", "python latest"]), "python -z");
    let latest_python = new_id(&home, &before);
    assert_eq!(python_pick(), latest_python);
    let out = ok(
        &home.rs(&["--continue", "-z", "go on"]),
        "hermes --continue",
    );
    assert_eq!(out, "continued python\n");
    assert_eq!(user_texts(&server, 3), ["python latest", "go on"]);
    // A session used later in another directory is still the one to continue.
    let before = home.session_ids();
    ok(
        &home.rs_in("elsewhere", &["-z", "from elsewhere"]),
        "hermes -z elsewhere",
    );
    let elsewhere = new_id(&home, &before);
    assert_eq!(python_pick(), elsewhere);
    let out = ok(
        &home.rs(&["--continue", "-z", "still here"]),
        "hermes --continue",
    );
    assert_eq!(out, "continued elsewhere\n");
    assert_eq!(user_texts(&server, 5), ["from elsewhere", "still here"]);
    assert_healthy(&home.db());
}
