//! Scheduled jobs as a user meets them, with the real binary against the scripted provider:
//! the agent schedules a job with the `cronjob` tool and its result says plainly that no
//! scheduler is running (and how to start one); `hermes cron daemon` then holds the home's
//! ticker lease, runs the job (a fresh session without the cronjob/clarify tools, where a
//! dangerous command is refused with Hermes's cron message), writes the output file and a
//! completed ledger row, keeps the result for the next TUI start, and on SIGTERM stops and lets go of the lease. A second daemon on
//! the same home stands by and never fires a job.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::time::Duration;
use std::time::Instant;

use support::Response;
use support::ScriptedCall;
use support::ScriptedServer;
use support::cli_home::CliHome;

fn wait_until(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn outputs(home: &std::path::Path) -> Vec<std::path::PathBuf> {
    let Ok(jobs) = std::fs::read_dir(home.join("cron/output")) else {
        return Vec::new();
    };
    jobs.flatten()
        .flat_map(|d| std::fs::read_dir(d.path()).into_iter().flatten().flatten())
        .map(|e| e.path())
        .collect()
}

#[test]
fn the_agent_schedules_a_job_and_the_daemon_runs_it_unattended() {
    let create = r#"{"action":"create","schedule":"every 1h","prompt":"Clean the build directory","name":"cleanup"}"#;
    let server = ScriptedServer::start_on_own_thread([
        // The interactive turn: the model schedules the job.
        Response::tool_call("call_1", "cronjob", create),
        Response::text(["Scheduled."]),
        // The job's run: it tries a dangerous command, then reports.
        Response::tool_calls([ScriptedCall::terminal("call_2", "rm -rf build")]),
        Response::text(["Could not clean: deleting needs approval."]),
    ]);
    let cli = CliHome::new(&server.config_yaml());
    let home = cli.home();
    let run = |args: &[&str]| support::cli_home::Run::from(cli.command(args).output().unwrap());

    let turn = run(&["-z", "every hour clean the build directory"]);
    assert_eq!(turn.code, 0, "{}", turn.stderr);
    let created = server.completion_requests()[1].tool_results().join("\n");
    assert!(created.contains("\"name\": \"cleanup\""), "{created}");
    assert!(
        created.contains("No scheduler is running for this HERMES_HOME"),
        "{created}"
    );
    assert!(created.contains("hermes cron daemon"), "{created}");
    let listed = run(&["cron", "list"]);
    assert!(
        listed.stdout.contains("Name:      cleanup"),
        "{}",
        listed.stdout
    );
    assert!(
        listed.stdout.contains("No scheduler is running"),
        "{}",
        listed.stdout
    );

    assert_eq!(run(&["cron", "run", "cleanup"]).code, 0);
    let mut daemon = cli
        .command(&["cron", "daemon"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_until("the job's output file", Duration::from_secs(60), || {
        !outputs(&home).is_empty()
    });
    let status = run(&["cron", "status"]);
    assert!(
        status
            .stdout
            .contains(&format!("hermes pid {}", daemon.id())),
        "{}",
        status.stdout
    );

    // A second daemon on the same home stands by.
    let second = cli
        .command(&["cron", "daemon"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(2));
    unsafe { libc::kill(second.id() as i32, libc::SIGTERM) };
    let second_out = second.wait_with_output().unwrap();
    let second_text = String::from_utf8_lossy(&second_out.stdout);
    assert!(second_text.contains("standing by"), "{second_text}");

    let requests = server.completion_requests();
    assert_eq!(
        requests.len(),
        4,
        "the job ran more than once or not at all"
    );
    let job_tools = requests[2].tool_names();
    assert!(job_tools.iter().any(|t| t == "terminal"), "{job_tools:?}");
    for absent in ["cronjob", "clarify"] {
        assert!(
            !job_tools.iter().any(|t| t == absent),
            "a cron session offers {absent}"
        );
    }
    let job_prompt = requests[2].messages().last().unwrap()["content"].to_string();
    assert!(
        job_prompt.contains("You are running as a scheduled cron job"),
        "{job_prompt}"
    );
    let refused = requests[3].tool_results().join("\n");
    assert!(
        refused.contains("cron jobs run without a user present to approve it")
            && refused.contains("approvals.cron_mode: approve"),
        "{refused}"
    );

    let output = std::fs::read_to_string(&outputs(&home)[0]).unwrap();
    assert!(output.starts_with("# Cron Job: cleanup\n"), "{output}");
    assert!(
        output.contains("## Response\n\nCould not clean: deleting needs approval."),
        "{output}"
    );
    let runs = run(&["cron", "runs"]);
    assert!(runs.stdout.contains("completed"), "{}", runs.stdout);

    unsafe { libc::kill(daemon.id() as i32, libc::SIGTERM) };
    let started = Instant::now();
    let out = loop {
        if let Some(_status) = daemon.try_wait().unwrap() {
            break daemon.wait_with_output().unwrap();
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the daemon ignored SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(String::from_utf8_lossy(&out.stdout).contains("stopped"));
    let after = run(&["cron", "status"]);
    assert!(!after.stdout.contains("hermes pid"), "{}", after.stdout);
    // The job was made in a session (deliver: origin) and no TUI was open: its result waits
    // for the next start.
    let inbox = std::fs::read_to_string(home.join("cron/deliveries.jsonl")).unwrap_or_default();
    assert!(
        inbox.contains("\"job_name\":\"cleanup\"") && inbox.contains("Cronjob Response: cleanup"),
        "{inbox}"
    );
}
