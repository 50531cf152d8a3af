//! Standalone scripted provider for humans and tmux tests: serves the `tests/support` server on
//! 127.0.0.1 until Ctrl-C, either replaying a JSON script or echoing.
//!
//! ```text
//! cargo run --example scripted_provider -- --script tests/fixtures/scripts/three_tools.json
//! cargo run --example scripted_provider -- --echo [--delay-ms 30] [--port 8080] [--port-file /tmp/p]
//! ```
//!
//! Prints `listening on http://127.0.0.1:PORT/v1` on stdout, then one line per request on
//! stderr. `--port-file` is written atomically (temp file + rename) so a poller never reads a
//! partial port. It never binds anything but loopback.

#[path = "../tests/support/mod.rs"]
mod support;

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use clap::Parser;
use support::Mode;
use support::ScriptedServer;

#[derive(Debug, Parser)]
#[command(about = "Scripted OpenAI/Anthropic-compatible provider on 127.0.0.1")]
#[command(group = clap::ArgGroup::new("source").required(true).args(["script", "echo"]))]
struct Args {
    /// JSON script to replay (see tests/support/scripted/README.md).
    #[arg(long)]
    script: Option<PathBuf>,
    /// Echo mode: "You said: …", `run: CMD` → terminal tool call, tool result → "Tool said: …".
    #[arg(long)]
    echo: bool,
    /// Port to listen on (0 = pick a free one).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Write the chosen port (decimal, no newline) to this file.
    #[arg(long)]
    port_file: Option<PathBuf>,
    /// Echo mode: pause between streamed chunks, so streaming is visible.
    #[arg(long, default_value_t = 30)]
    delay_ms: u64,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let mode = match &args.script {
        Some(path) => Mode::Script(
            support::load_script(path).with_context(|| format!("loading {}", path.display()))?,
        ),
        None => Mode::Echo {
            delay_ms_between_chunks: args.delay_ms,
        },
    };
    let entries = match &mode {
        Mode::Script(list) => Some(list.len()),
        Mode::Echo { .. } => None,
    };
    let server = ScriptedServer::bind(args.port, mode)
        .await
        .with_context(|| format!("binding 127.0.0.1:{}", args.port))?;
    if let Some(path) = &args.port_file {
        write_port_file(path, server.port())?;
    }
    let mut stdout = std::io::stdout();
    writeln!(stdout, "listening on {}", server.base_url())?;
    stdout.flush()?;
    match entries {
        Some(n) => eprintln!("replaying {n} scripted responses; Ctrl-C to stop"),
        None => eprintln!("echo mode; Ctrl-C to stop"),
    }
    tokio::select! {
        result = tokio::signal::ctrl_c() => result.context("waiting for Ctrl-C")?,
        () = log_requests(&server) => {}
    }
    Ok(())
}

fn write_port_file(path: &std::path::Path, port: u16) -> anyhow::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, port.to_string()).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("renaming to {}", path.display()))
}

/// One stderr line per request, so a human sees what the client sent.
async fn log_requests(server: &ScriptedServer) {
    let mut logged = 0;
    loop {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let requests = server.requests();
        for (i, r) in requests.iter().enumerate().skip(logged) {
            let stream = if r.is_streaming() { " stream" } else { "" };
            eprintln!(
                "#{} {} {}{stream} ({} messages)",
                i + 1,
                r.method,
                r.path,
                r.messages().len(),
            );
        }
        logged = requests.len();
    }
}
