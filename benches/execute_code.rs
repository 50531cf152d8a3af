//! `execute_code`'s costs (run: `cargo bench --bench execute_code`, or with `--profile dev`
//! for the debug build the tests use): the real binary, headless, runs scripts the scripted
//! provider sends. Measured: a script's start-up — an empty script's whole run as hermes
//! reports it (`duration_seconds`: staging, stub, socket, Python start, teardown) — and the
//! RPC round trip of `read_file` timed inside the script (`time.perf_counter` around each of
//! 500 calls), with p50/p95/max, and 100 MB printed by a script (peak RSS, output bounded).
//! Budgets: start-up ≤ 50 ms over bare `python3 -c pass`, round trip p50 ≤ 1 ms.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

use serde_json::Value;
use serde_json::json;
use support::Response;
use support::ScriptedCall;
use support::ScriptedServer;
use support::env::CleanEnv;

const ROUND_TRIPS: usize = 500;

struct Run {
    result: Value,
    peak_kib: u64,
}

/// hermes runs `code` through execute_code once; the result the model got.
fn run(code: &str) -> Run {
    run_with(code, "")
}

/// `run` with `extra_yaml` appended to the config.
fn run_with(code: &str, extra_yaml: &str) -> Run {
    let args = json!({ "code": code }).to_string();
    let server = ScriptedServer::start_on_own_thread([
        Response::tool_calls([ScriptedCall::new("x1", "execute_code", &args)]),
        Response::text(["done"]),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let (home, work) = (dir.path().join("home"), dir.path().join("work"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(
        home.join("config.yaml"),
        format!("{}{extra_yaml}", server.config_yaml()),
    )
    .unwrap();
    std::fs::write(work.join("notes.txt"), "line one\nline two\n".repeat(50)).unwrap();
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_hermes"));
    cmd.clean_env()
        .args(["--yolo", "-z", "run it"])
        .current_dir(&work)
        .env("HERMES_HOME", &home)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let measured = support::peak_rss::run(&mut cmd);
    assert_eq!(measured.code, 0, "hermes failed");
    let requests = server.requests();
    let text = requests[1].tool_results().join("\n");
    Run {
        result: serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")),
        peak_kib: measured.peak_kib,
    }
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// The interpreter behind `python3` (a pyenv shim resolves to the real one, as hermes
/// resolves it).
fn real_python() -> String {
    let out = std::process::Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn bare_python() -> Duration {
    let python = real_python();
    let runs: Vec<f64> = (0..7)
        .map(|_| {
            let t0 = Instant::now();
            let status = std::process::Command::new(&python)
                .args(["-c", "pass"])
                .status()
                .unwrap();
            assert!(status.success());
            t0.elapsed().as_secs_f64()
        })
        .collect();
    Duration::from_secs_f64(median(runs))
}

fn main() {
    let python = bare_python();
    let starts: Vec<f64> = (0..7)
        .map(|_| {
            let r = run("pass");
            assert_eq!(r.result["status"], "success", "{}", r.result);
            r.result["duration_seconds"].as_f64().unwrap()
        })
        .collect();
    let start = median(starts);
    let over = start - python.as_secs_f64();
    println!("{:<44} {:>10}", "execute_code", "ms");
    println!(
        "{:<44} {:>10.1}",
        "bare python3 -c pass (median of 7)",
        python.as_secs_f64() * 1e3
    );
    println!(
        "{:<44} {:>10.1}",
        "empty script, whole run (median of 7)",
        start * 1e3
    );
    println!(
        "{:<44} {:>10.1}  {}",
        "  over bare python",
        over * 1e3,
        if over <= 0.050 {
            "within 50 ms"
        } else {
            "OVER 50 ms"
        }
    );

    let timing = format!(
        r#"import json, time
from hermes_tools import read_file
samples = []
for _ in range({ROUND_TRIPS}):
    t0 = time.perf_counter()
    read_file("notes.txt", limit=5)
    samples.append(time.perf_counter() - t0)
samples.sort()
print(json.dumps({{"p50": samples[len(samples) // 2], "p95": samples[int(len(samples) * 0.95)], "max": samples[-1]}}))
"#
    );
    let r = run_with(&timing, "code_execution:\n  max_tool_calls: 1000\n");
    assert_eq!(r.result["status"], "success", "{}", r.result);
    let stats: Value = serde_json::from_str(r.result["output"].as_str().unwrap().trim()).unwrap();
    let ms = |k: &str| stats[k].as_f64().unwrap() * 1e3;
    println!(
        "{:<44} {:>10.3}  {}",
        format!("read_file round trip p50 ({ROUND_TRIPS} calls)"),
        ms("p50"),
        if ms("p50") <= 1.0 {
            "within 1 ms"
        } else {
            "OVER 1 ms"
        }
    );
    println!("{:<44} {:>10.3}", "read_file round trip p95", ms("p95"));
    println!("{:<44} {:>10.3}", "read_file round trip max", ms("max"));

    let flood = "import sys\nchunk = 'x' * (1024 * 1024)\nfor _ in range(100):\n    sys.stdout.write(chunk)\n";
    let idle = run("pass");
    let r = run(flood);
    let output = r.result["output"].as_str().unwrap_or("");
    println!(
        "{:<44} {:>10.1}",
        "100 MB printed: peak RSS MiB",
        r.peak_kib as f64 / 1024.0
    );
    println!(
        "{:<44} {:>10.1}",
        "  idle run peak RSS MiB",
        idle.peak_kib as f64 / 1024.0
    );
    println!("{:<44} {:>10}", "  output kept (bytes)", output.len());
}
