//! The real MCP servers the MCP tests connect to: `@modelcontextprotocol/server-everything`
//! and `@modelcontextprotocol/server-filesystem` from npm (pinned in tests/mcp/package.json,
//! installed into tests/mcp/node_modules by scripts/test.sh, which exports
//! `MCP_TEST_SERVERS`), plus `tests/mcp/changing-server.mjs`, a small server on the same
//! official SDK whose tool list changes on request.
//!
//! Without the servers a test prints why it skips — except under `CI=true`, where that is a
//! failure (the suite must not hide a missing install step).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

/// `tests/mcp/node_modules`, or `None` (with the reason printed) when not installed.
pub fn node_modules() -> Option<PathBuf> {
    let dir = std::env::var_os("MCP_TEST_SERVERS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/node_modules")
        });
    let ok = dir.join(".bin/mcp-server-everything").exists()
        && dir.join(".bin/mcp-server-filesystem").exists()
        && which("node");
    if ok {
        return Some(dir);
    }
    let why = format!(
        "the MCP test servers are not installed in {} (run `npm ci --prefix tests/mcp`, as scripts/test.sh does) or node is missing",
        dir.display()
    );
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
    eprintln!("skipping: {why}");
    None
}

fn which(program: &str) -> bool {
    std::process::Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

pub fn everything_bin(modules: &std::path::Path) -> String {
    modules
        .join(".bin/mcp-server-everything")
        .display()
        .to_string()
}

pub fn filesystem_bin(modules: &std::path::Path) -> String {
    modules
        .join(".bin/mcp-server-filesystem")
        .display()
        .to_string()
}

/// `tests/mcp/changing-server.mjs` (run with `node`).
pub fn changing_server() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/mcp/changing-server.mjs")
        .display()
        .to_string()
}

/// A free TCP port on 127.0.0.1.
pub fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// server-everything in streamable-HTTP mode on `port`, killed when dropped.
pub struct HttpEverything {
    pub child: std::process::Child,
    pub url: String,
    pub port: u16,
}

impl HttpEverything {
    pub fn start(modules: &std::path::Path) -> Self {
        Self::start_on(modules, free_port())
    }

    /// On a given port (to bring a killed server back where it was).
    pub fn start_on(modules: &std::path::Path, port: u16) -> Self {
        let child = std::process::Command::new(everything_bin(modules))
            .arg("streamableHttp")
            .env("PORT", port.to_string())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                std::time::Instant::now() < deadline,
                "server-everything did not listen on {port}"
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        Self {
            child,
            url: format!("http://127.0.0.1:{port}/mcp"),
            port,
        }
    }
}

impl Drop for HttpEverything {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
