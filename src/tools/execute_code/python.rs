//! Which Python runs `execute_code` scripts: `code_execution.python` when set, else (in
//! `project` mode) the active `VIRTUAL_ENV` / `CONDA_PREFIX` interpreter, else the first
//! `python3` on PATH — each only if it runs and is at least 3.8.
//!
//! It does not run scripts. The probe (`python -c …`, bounded by 5 s) is run once per
//! interpreter path and process; the answer is cached, so a session start costs one probe
//! at most.

use std::collections::HashMap;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::OnceLock;
use std::time::Duration;

use crate::config::CodeExecutionConfig;
use crate::config::CodeExecutionMode;

/// The oldest Python the stub supports (f-strings, `socket.AF_UNIX`, `threading`).
pub const MIN_VERSION: (u32, u32) = (3, 8);
const PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// A usable interpreter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interpreter {
    pub path: PathBuf,
    /// `3.12.1`.
    pub version: String,
    /// Where it came from, for `hermes tools` and the docs: `code_execution.python`,
    /// `VIRTUAL_ENV`, `CONDA_PREFIX` or `PATH`.
    pub source: &'static str,
}

/// Why there is no interpreter; the text says what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PythonMissing {
    #[error("code_execution.python is {path}, which {why}")]
    Configured { path: String, why: String },
    #[error(
        "no python3 (3.8 or newer) was found on PATH; install Python 3 or set \
         code_execution.python"
    )]
    NotFound,
}

/// What a probe found.
#[derive(Debug, Clone)]
enum Probe {
    /// Its version and the interpreter itself (`sys.executable`: a pyenv or asdf shim
    /// resolves to the real binary, so each script skips the shim's ~100 ms).
    Usable(String, PathBuf),
    Old(String),
    Broken(String),
}

/// The interpreter for `config`, looking variables up with `env`.
pub fn find(
    config: &CodeExecutionConfig,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Interpreter, PythonMissing> {
    let configured = config.python.trim();
    if !configured.is_empty() {
        let path = if configured.contains('/') || configured.starts_with('~') {
            crate::util::paths::resolve_path(Path::new("."), configured)
        } else {
            on_path(configured, env).unwrap_or_else(|| PathBuf::from(configured))
        };
        return match probe(&path) {
            Probe::Usable(version, real) => Ok(Interpreter {
                path: real,
                version,
                source: "code_execution.python",
            }),
            Probe::Old(version) => Err(PythonMissing::Configured {
                path: configured.to_string(),
                why: format!("is Python {version}; execute_code needs 3.8 or newer"),
            }),
            Probe::Broken(why) => Err(PythonMissing::Configured {
                path: configured.to_string(),
                why,
            }),
        };
    }
    if config.mode == CodeExecutionMode::Project {
        for var in ["VIRTUAL_ENV", "CONDA_PREFIX"] {
            let Some(root) = env(var).filter(|v| !v.trim().is_empty()) else {
                continue;
            };
            for exe in ["python", "python3"] {
                let candidate = Path::new(root.trim()).join("bin").join(exe);
                if !candidate.is_file() {
                    continue;
                }
                // A broken or old environment falls back to PATH, as Hermes falls back.
                if let Probe::Usable(version, real) = probe(&candidate) {
                    return Ok(Interpreter {
                        path: real,
                        version,
                        source: var,
                    });
                }
                break;
            }
        }
    }
    let path = on_path("python3", env).ok_or(PythonMissing::NotFound)?;
    match probe(&path) {
        Probe::Usable(version, real) => Ok(Interpreter {
            path: real,
            version,
            source: "PATH",
        }),
        Probe::Old(_) | Probe::Broken(_) => Err(PythonMissing::NotFound),
    }
}

/// The first executable file named `name` in `PATH`.
fn on_path(name: &str, env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let path = env("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Runs `path -c 'print version'` once per path and process.
fn probe(path: &Path) -> Probe {
    static CACHE: OnceLock<Mutex<HashMap<PathBuf, Probe>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Mutex::default);
    if let Some(found) = cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get(path)
    {
        return found.clone();
    }
    let found = run_probe(path);
    cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .insert(path.to_path_buf(), found.clone());
    found
}

fn run_probe(path: &Path) -> Probe {
    let child = std::process::Command::new(path)
        .args([
            "-c",
            "import sys; print('%d.%d.%d' % tuple(sys.version_info[:3])); print(sys.executable)",
        ])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Probe::Broken("does not exist".to_string());
        }
        Err(e) => return Probe::Broken(format!("could not be started ({e})")),
    };
    let deadline = std::time::Instant::now() + PROBE_TIMEOUT;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if std::time::Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Ok(None) | Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                return Probe::Broken("did not answer within 5 s".to_string());
            }
        }
    };
    let mut out = String::new();
    if let Some(mut stdout) = child.stdout.take() {
        use std::io::Read;
        let _ = stdout.read_to_string(&mut out);
    }
    if !status.success() {
        return Probe::Broken("is not a working Python interpreter".to_string());
    }
    let mut lines = out.lines();
    let version = lines.next().unwrap_or("").trim().to_string();
    // A venv's `sys.executable` is its own `bin/python`, so the venv is kept.
    let real = lines
        .next()
        .map(|l| PathBuf::from(l.trim()))
        .filter(|p| p.is_absolute() && is_executable(p))
        .unwrap_or_else(|| path.to_path_buf());
    let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    let major = parts.next().unwrap_or(0);
    let minor = parts.next().unwrap_or(0);
    if (major, minor) >= MIN_VERSION {
        Probe::Usable(version, real)
    } else {
        Probe::Old(version)
    }
}

#[cfg(test)]
#[path = "python_tests.rs"]
mod tests;
