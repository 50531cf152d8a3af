//! Memory and time for huge command output (run: `cargo bench --bench output`, or with
//! `--profile dev` for the debug build the tests use): the real binary, headless (`-z`, text
//! and `--json`), runs one `terminal` call the scripted provider asks for, printing 200 MB in
//! each shape — short lines (`yes`), 80-column lines, and no newlines at all — and the table
//! shows hermes's peak RSS (`wait4`'s `ru_maxrss`) against an idle run (`echo hi`), the wall
//! time and the throughput. Budget: at most 64 MiB above idle in every shape, time linear in
//! the bytes. The TUI side is measured by `tests/suite/output_memory.rs` (tmux).

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use support::Response;
use support::ScriptedCall;
use support::ScriptedServer;
use support::env::CleanEnv;

const BYTES: u64 = 200_000_000;

struct Run {
    peak_kib: u64,
    elapsed: Duration,
    code: i32,
}

fn run(command: &str, extra: &[&str]) -> Run {
    let server = ScriptedServer::start_on_own_thread([
        Response::tool_calls([ScriptedCall::terminal("c1", command)]),
        Response::text(["done"]),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let (home, work) = (dir.path().join("home"), dir.path().join("work"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(home.join("config.yaml"), server.config_yaml()).unwrap();
    measure(&home, &work, extra, dir.path())
}

fn measure(home: &Path, work: &Path, extra: &[&str], scratch: &Path) -> Run {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_hermes"));
    cmd.clean_env()
        .args(["--yolo", "-z", "run it"])
        .args(extra)
        .current_dir(work)
        .env("HERMES_HOME", home)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(scratch.join("stdout")).unwrap())
        .stderr(std::fs::File::create(scratch.join("stderr")).unwrap());
    let measured = support::peak_rss::run(&mut cmd);
    Run {
        peak_kib: measured.peak_kib,
        elapsed: measured.elapsed,
        code: measured.code,
    }
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

fn main() {
    let idle = run("echo hi", &[]);
    println!(
        "{:<34} {:>6} {:>10} {:>10} {:>8} {:>9}",
        "output (200 MB)", "mode", "peak MiB", "over idle", "secs", "MB/s"
    );
    println!(
        "{:<34} {:>6} {:>10.1} {:>10} {:>8.2} {:>9}",
        "idle (echo hi)",
        "text",
        mib(idle.peak_kib),
        "-",
        idle.elapsed.as_secs_f64(),
        "-"
    );
    let line79 = "x".repeat(79);
    let shapes = [
        (
            "short lines (yes: 2 bytes)",
            format!("yes | head -c {BYTES}"),
        ),
        ("80-column lines", format!("yes {line79} | head -c {BYTES}")),
        (
            "no newlines",
            format!("head -c {BYTES} /dev/zero | tr '\\0' x"),
        ),
    ];
    let mut worst = 0;
    for (name, command) in &shapes {
        for (mode, extra) in [("text", &[][..]), ("json", &["--json"][..])] {
            let r = run(command, extra);
            assert_eq!(r.code, 0, "{name} {mode}: exit code {}", r.code);
            let over = r.peak_kib.saturating_sub(idle.peak_kib);
            worst = worst.max(over);
            let secs = r.elapsed.as_secs_f64();
            println!(
                "{name:<34} {mode:>6} {:>10.1} {:>+10.1} {secs:>8.2} {:>9.0}",
                mib(r.peak_kib),
                mib(over),
                BYTES as f64 / 1e6 / secs
            );
        }
    }
    let verdict = if worst <= 64 * 1024 { "within" } else { "OVER" };
    println!(
        "worst: {:.1} MiB over idle, {verdict} the 64 MiB budget",
        mib(worst)
    );
}
