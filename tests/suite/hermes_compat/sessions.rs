//! Sessions in one `state.db`, alternating: Python creates one (a `-z` turn) → hermes lists,
//! shows and resumes it → Python lists, exports and resumes it → hermes again; then
//! `--continue` (hermes must pick the session Python would), archive and prune by Python of
//! sessions hermes wrote (they must be ended to be selected), and prune by hermes of sessions
//! Python wrote. After every step `state.db` passes its integrity check and keeps every table,
//! column, index, trigger and row the other program wrote (`db::DbSnapshot::assert_kept_by`).

use std::path::Path;

use rusqlite::Connection;
use serde_json::Value;

use super::db::DbSnapshot;
use super::home::SharedHome;
use super::python::PythonHermes;
use crate::support::ScriptedServer;

#[test]
fn sessions_alternate_between_python_hermes_and_hermes() {
    let Some(py) = PythonHermes::locate() else {
        return;
    };
    let h = SharedHome::new("sessions", py, ScriptedServer::start_echo_on_own_thread());
    h.write_provider_config();
    let (dir_a, dir_b) = (h.work("a"), h.work("b"));

    // 1. Python: a session with one turn.
    let turn = h.python(&dir_a, &["-z", "py turn one"]).ok();
    assert_eq!(turn.stdout.trim(), "You said: py turn one", "{turn}");
    let s1 = h.snapshot("python -z");
    assert_eq!(s1.sessions.len(), 1, "Python wrote one session");
    let p = s1.sessions.first().unwrap().clone();

    // 2. hermes lists, shows and resumes it.
    let list = h.hermes(&dir_a, &["sessions", "list"]).ok();
    h.check(list.stdout.contains(&p), || {
        format!("hermes sessions list misses {p}:\n{list}")
    });
    let show = h.hermes(&dir_a, &["sessions", "show", &p]).ok();
    for text in ["py turn one", "You said: py turn one"] {
        h.check(show.stdout.contains(text), || {
            format!("hermes sessions show lacks {text:?}:\n{show}")
        });
    }
    let turn = h
        .hermes(&dir_a, &["--resume", &p, "-z", "rs turn two"])
        .ok();
    assert_eq!(turn.stdout.trim(), "You said: rs turn two", "{turn}");
    check_history_sent(&h, &["py turn one", "You said: py turn one", "rs turn two"]);
    let s2 = h.snapshot("hermes --resume -z");
    h.check_kept(&s1, &s2, "hermes --resume -z", &[]);
    let turns = users(&s2, &p);
    h.check(turns == ["py turn one", "rs turn two"], || {
        format!("hermes did not append its turn to Python's session: user turns {turns:?}")
    });
    let calls = api_calls_in_model_usage(&h.state_db(), &p);
    h.check(calls == 2, || {
        format!("session_model_usage counts {calls} API calls for {p} after one Python and one hermes turn, not 2: hermes's turns are not counted as Hermes counts its own (issue 18 item 8)")
    });

    // 3. Python lists, exports and resumes it with both turns.
    let list = h.python(&dir_a, &["sessions", "list"]).ok();
    h.check(list.stdout.contains(&p), || {
        format!("Python's sessions list misses {p}:\n{list}")
    });
    let export = h
        .python(&dir_a, &["sessions", "export", "-", "--session-id", &p])
        .ok();
    for text in ["py turn one", "rs turn two", "You said: rs turn two"] {
        h.check(export.stdout.contains(text), || {
            format!("Python's export lacks {text:?}:\n{export}")
        });
    }
    let turn = h
        .python(
            &dir_a,
            &["chat", "-Q", "-q", "py turn three", "--resume", &p],
        )
        .ok();
    assert!(turn.stdout.contains("You said: py turn three"), "{turn}");
    check_history_sent(
        &h,
        &["rs turn two", "You said: rs turn two", "py turn three"],
    );
    let s3 = h.snapshot("python chat -q --resume");
    h.check_kept(&s2, &s3, "python chat -q --resume", &[]);

    // 4. hermes again.
    let turn = h
        .hermes(&dir_a, &["--resume", &p, "-z", "rs turn four"])
        .ok();
    assert_eq!(turn.stdout.trim(), "You said: rs turn four", "{turn}");
    check_history_sent(
        &h,
        &["py turn three", "You said: py turn three", "rs turn four"],
    );
    let s4 = h.snapshot("hermes --resume -z (again)");
    h.check_kept(&s3, &s4, "hermes --resume -z (again)", &[]);
    let turns = users(&s4, &p);
    h.check(
        turns
            == [
                "py turn one",
                "rs turn two",
                "py turn three",
                "rs turn four",
            ],
        || format!("the session does not hold the four alternating turns: {turns:?}"),
    );

    // 5. `--continue`: a newer hermes session in another directory; from the first directory
    //    Python continues the most recently active CLI session, wherever it was started.
    let turn = h.hermes(&dir_b, &["-z", "rs in b"]).ok();
    assert_eq!(turn.stdout.trim(), "You said: rs in b", "{turn}");
    let s5 = h.snapshot("hermes -z in another directory");
    h.check_kept(&s4, &s5, "hermes -z in another directory", &[]);
    let python_pick = python_continue_pick(&h);
    let turn = h.hermes(&dir_a, &["--continue", "-z", "rs continue"]).ok();
    assert_eq!(turn.stdout.trim(), "You said: rs continue", "{turn}");
    let s6 = h.snapshot("hermes --continue -z");
    h.check_kept(&s5, &s6, "hermes --continue -z", &[]);
    let hermes_pick = s5.grown_session(&s6);
    h.check(hermes_pick == python_pick, || {
        format!("hermes --continue (run in {}) continued {hermes_pick}; Python's --continue picks {python_pick}, the most recently active CLI session (issue 18 item 8)", dir_a.display())
    });

    // 6. Python archives and prunes ended hermes sessions, selected by their directory.
    let (dir_c, dir_d) = (h.work("c"), h.work("d"));
    h.hermes(&dir_c, &["-z", "rs in c"]).ok();
    h.hermes(&dir_d, &["-z", "rs in d"]).ok();
    let s7 = h.snapshot("two more hermes sessions");
    h.check_kept(&s6, &s7, "two more hermes sessions", &[]);
    let fresh = s6.new_sessions(&s7);
    let session_c = session_in(&h.state_db(), &fresh, &dir_c);
    let session_d = session_in(&h.state_db(), &fresh, &dir_d);
    for id in [&session_c, &session_d] {
        let (ended_at, reason) = ended(&h.state_db(), id);
        h.check(ended_at.is_some() && reason.is_some(), || {
            format!("hermes session {id} has ended_at {ended_at:?}, end_reason {reason:?} after its -z run: Hermes's prune and archive only select ended sessions (issue 18 item 8)")
        });
    }
    let dir_c_text = dir_c.display().to_string();
    h.python(
        &dir_a,
        &["sessions", "archive", "--cwd", &dir_c_text, "--yes"],
    )
    .ok();
    h.check(archived(&h.state_db(), &session_c), || {
        format!("Python's `sessions archive --cwd` did not select hermes session {session_c}")
    });
    let python_list = h.python(&dir_a, &["sessions", "list"]).ok();
    let hermes_list = h.hermes(&dir_a, &["sessions", "list"]).ok();
    h.check(
        hermes_list.stdout.contains(&session_c) == python_list.stdout.contains(&session_c),
        || format!("archived session {session_c} is listed by one program and not the other:\n{python_list}\n{hermes_list}"),
    );
    let dir_d_text = dir_d.display().to_string();
    h.python(
        &dir_a,
        &["sessions", "prune", "--cwd", &dir_d_text, "--yes"],
    )
    .ok();
    let s8 = h.snapshot("python sessions archive + prune");
    h.check_kept(&s7, &s8, "python sessions archive + prune", &[&session_d]);

    // 7. hermes prunes; Python's session (and everything else older than now) goes, cleanly.
    let prune = h
        .hermes(&dir_a, &["sessions", "prune", "--older-than", "0"])
        .ok();
    let s9 = h.snapshot("hermes sessions prune");
    let gone: Vec<String> = s8.sessions.difference(&s9.sessions).cloned().collect();
    h.check(gone.contains(&p), || {
        format!("hermes sessions prune kept Python's session {p}:\n{prune}")
    });
    let gone: Vec<&str> = gone.iter().map(String::as_str).collect();
    h.check_kept(&s8, &s9, "hermes sessions prune", &gone);
    h.python(&dir_a, &["sessions", "list"]).ok();
    h.python(&dir_a, &["sessions", "stats"]).ok();
    h.finish();
}

/// The last completion request carried `texts` as consecutive user/assistant contents.
fn check_history_sent(h: &SharedHome, texts: &[&str]) {
    let requests = h.server.completion_requests();
    let last = requests.last().expect("no completion request");
    let contents: Vec<String> = last
        .messages()
        .iter()
        .filter(|m| m["role"] == "user" || m["role"] == "assistant")
        .map(|m| content_text(&m["content"]))
        .collect();
    let found = contents
        .windows(texts.len())
        .any(|w| w.iter().zip(texts).all(|(have, want)| have.trim() == *want));
    h.check(found, || {
        format!("the last request did not carry {texts:?} in order; its user/assistant messages: {contents:#?}")
    });
}

fn content_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

fn users(snap: &DbSnapshot, session: &str) -> Vec<String> {
    snap.conversation(session)
        .into_iter()
        .filter(|(role, _)| role == "user")
        .map(|(_, content)| content)
        .collect()
}

/// Python's own `--continue` choice (`hermes_cli.main._resolve_last_session`, what
/// `hermes chat --continue` resumes).
fn python_continue_pick(h: &SharedHome) -> String {
    let pick = h
        .python_code("from hermes_cli.main import _resolve_last_session\nprint(_resolve_last_session('cli') or '')")
        .ok();
    let id = pick.stdout.trim().to_string();
    assert!(
        !id.is_empty(),
        "Python found no session to continue:\n{pick}"
    );
    id
}

fn db(path: &Path) -> Connection {
    Connection::open(path).unwrap()
}

fn api_calls_in_model_usage(path: &Path, session: &str) -> i64 {
    db(path)
        .query_row(
            "SELECT COALESCE(SUM(api_call_count), 0) FROM session_model_usage WHERE session_id = ?1",
            [session],
            |r| r.get(0),
        )
        .unwrap()
}

fn session_in(path: &Path, candidates: &[String], cwd: &Path) -> String {
    let conn = db(path);
    let found: Vec<&String> = candidates
        .iter()
        .filter(|id| {
            conn.query_row(
                "SELECT COALESCE(cwd, '') FROM sessions WHERE id = ?1",
                [id],
                |r| r.get::<_, String>(0),
            )
            .is_ok_and(|dir| Path::new(&dir) == cwd)
        })
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one new session in {}: {found:?}",
        cwd.display()
    );
    found[0].clone()
}

fn ended(path: &Path, session: &str) -> (Option<f64>, Option<String>) {
    db(path)
        .query_row(
            "SELECT ended_at, end_reason FROM sessions WHERE id = ?1",
            [session],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
}

fn archived(path: &Path, session: &str) -> bool {
    db(path)
        .query_row(
            "SELECT COALESCE(archived, 0) FROM sessions WHERE id = ?1",
            [session],
            |r| r.get::<_, i64>(0),
        )
        .is_ok_and(|a| a != 0)
}
