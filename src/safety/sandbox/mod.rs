//! The kernel sandbox under the agent's commands: what a confined command may read, write and
//! connect to, and how that is enforced — Landlock on Linux (`landlock_fs`), a Seatbelt
//! profile under `sandbox-exec` on macOS (`seatbelt`).
//!
//! `Sandbox` holds the session's settings (`sandbox.mode`, `sandbox.network`,
//! `sandbox.writable_roots`), what the kernel supports (probed once at start) and where the
//! protected files are (`protected`). `confine(cwd)` turns that into a `Confine` for
//! `util::process::spawn_confined`: the rules are computed in the parent (`plan`), and only
//! async-signal-safe system calls run in the child. `denial` reads a failed command's output
//! for the sandbox's refusals, so the engine can offer to re-run it outside.
//!
//! It does not decide whether a command may run at all (the classifier and the approval gate
//! do) and never confines what the user typed (`!cmd`) or what the user approved. Invariants:
//! a protected path is never writable, and a secret never readable, by a confined command,
//! whatever roots are configured; when the kernel cannot enforce a part (no Landlock, an ABI
//! without network rules) the status says so instead of claiming it.

pub mod denial;
#[cfg(target_os = "linux")]
mod landlock_fs;
pub mod plan;
pub mod protected;
pub mod seatbelt;

use std::path::Path;
use std::path::PathBuf;

use crate::safety::classify::ShellContext;
use crate::util::process::Confine;

/// `sandbox.mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SandboxMode {
    /// No sandbox: commands run as the user, guarded by approvals only.
    Off,
    /// Read anywhere (but secrets); write only in the temp dirs.
    ReadOnly,
    /// Read anywhere (but secrets); write in the working directory, the temp dirs and
    /// `sandbox.writable_roots`, never in a protected path.
    #[default]
    WorkspaceWrite,
}

impl SandboxMode {
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "off" | "none" | "danger-full-access" | "false" => Some(Self::Off),
            "read-only" | "readonly" => Some(Self::ReadOnly),
            "workspace-write" | "workspace" | "on" | "true" => Some(Self::WorkspaceWrite),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Off => "off",
            Self::ReadOnly => "read-only",
            Self::WorkspaceWrite => "workspace-write",
        }
    }
}

/// Whether confined commands may open network connections (`sandbox.network`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NetworkAccess {
    #[default]
    Allowed,
    Denied,
}

/// The `sandbox:` settings, resolved.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SandboxSettings {
    pub mode: SandboxMode,
    pub network: NetworkAccess,
    /// Extra writable directories (absolute, `~` already expanded).
    pub writable_roots: Vec<PathBuf>,
}

/// What this machine can enforce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Support {
    /// Linux Landlock with this ABI version.
    Landlock { abi: i32 },
    /// macOS Seatbelt (`sandbox-exec`).
    Seatbelt,
    /// Nothing: commands run with approvals only. The reason names what is missing.
    Unavailable { reason: String },
}

/// Set to make the probe report "no Landlock" (for tests of the fallback on kernels that
/// have it). Not a user setting.
pub const SIMULATE_UNAVAILABLE_ENV: &str = "HERMES_TEST_SANDBOX_UNAVAILABLE";

impl Support {
    /// Probes the running kernel (or `sandbox-exec`) once.
    pub fn probe() -> Self {
        if std::env::var_os(SIMULATE_UNAVAILABLE_ENV).is_some_and(|v| !v.is_empty()) {
            return Self::Unavailable {
                reason: format!("Landlock reported missing ({SIMULATE_UNAVAILABLE_ENV} is set)"),
            };
        }
        probe_platform()
    }
}

#[cfg(target_os = "linux")]
fn probe_platform() -> Support {
    match landlock_fs::abi_version() {
        Ok(abi) if abi >= 1 => Support::Landlock { abi },
        Ok(_) => Support::Unavailable {
            reason: "this kernel reports no Landlock ABI".to_string(),
        },
        Err(reason) => Support::Unavailable { reason },
    }
}

#[cfg(target_os = "macos")]
fn probe_platform() -> Support {
    if Path::new(seatbelt::SANDBOX_EXEC).is_file() {
        Support::Seatbelt
    } else {
        Support::Unavailable {
            reason: format!("{} is missing", seatbelt::SANDBOX_EXEC),
        }
    }
}

#[cfg(not(any(target_os = "linux", target_os = "macos")))]
fn probe_platform() -> Support {
    Support::Unavailable {
        reason: "no sandbox is implemented for this operating system".to_string(),
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("could not build the sandbox rules: {0}")]
    Rules(String),
    #[error("could not read {path} for the sandbox rules: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// The session's sandbox.
#[derive(Debug, Clone)]
pub struct Sandbox {
    settings: SandboxSettings,
    support: Support,
    shell: ShellContext,
    temp_dirs: Vec<PathBuf>,
}

impl Sandbox {
    /// A sandbox with `settings`, enforced with what `support` says this machine has.
    pub fn new(settings: SandboxSettings, support: Support, shell: ShellContext) -> Self {
        Self {
            settings,
            support,
            shell,
            temp_dirs: default_temp_dirs(),
        }
    }

    /// The same sandbox with `dirs` as its temp dirs instead of the system's (for tests that
    /// keep their files under `/tmp`, and embedders giving commands a temp dir of their own).
    pub fn with_temp_dirs(mut self, dirs: Vec<PathBuf>) -> Self {
        self.temp_dirs = dirs;
        self
    }

    /// No sandbox at all (tests, embedders, `sandbox.mode: off`).
    pub fn off(shell: ShellContext) -> Self {
        Self::new(
            SandboxSettings {
                mode: SandboxMode::Off,
                ..SandboxSettings::default()
            },
            Support::Unavailable {
                reason: "sandbox.mode is off".to_string(),
            },
            shell,
        )
    }

    pub fn settings(&self) -> &SandboxSettings {
        &self.settings
    }

    pub fn support(&self) -> &Support {
        &self.support
    }

    /// Whether commands are really confined.
    pub fn is_active(&self) -> bool {
        self.settings.mode != SandboxMode::Off
            && !matches!(self.support, Support::Unavailable { .. })
    }

    /// Whether outbound connections are refused by the kernel (not only configured off).
    pub fn network_enforced_off(&self) -> bool {
        self.is_active()
            && self.settings.network == NetworkAccess::Denied
            && match self.support {
                Support::Landlock { abi } => abi >= 4,
                Support::Seatbelt => true,
                Support::Unavailable { .. } => false,
            }
    }

    /// The one-line state for the status bar and `/status`:
    /// `workspace-write, network off`, `off`, `unavailable (…)`.
    pub fn status_line(&self) -> String {
        if self.settings.mode == SandboxMode::Off {
            return "off".to_string();
        }
        if let Support::Unavailable { reason } = &self.support {
            return format!("unavailable ({reason}); approvals only");
        }
        let network = match (self.settings.network, self.network_enforced_off()) {
            (NetworkAccess::Allowed, _) => "network on",
            (NetworkAccess::Denied, true) => "network off",
            (NetworkAccess::Denied, false) => "network on (this kernel cannot refuse it)",
        };
        format!("{}, {network}", self.settings.mode.name())
    }

    /// A notice for the start of a session when the configured sandbox cannot be enforced.
    pub fn start_notice(&self) -> Option<String> {
        if self.settings.mode == SandboxMode::Off {
            return None;
        }
        match &self.support {
            Support::Unavailable { reason } => Some(format!(
                "sandbox unavailable: {reason} — commands run with approvals only"
            )),
            _ if self.settings.network == NetworkAccess::Denied && !self.network_enforced_off() => {
                Some(
                    "sandbox.network is false, but this kernel's Landlock has no network rules \
                     (ABI < 4): connections are not refused"
                        .to_string(),
                )
            }
            _ => None,
        }
    }

    /// The directories a confined command in `cwd` may write.
    pub fn writable_roots(&self, cwd: &Path) -> Vec<PathBuf> {
        let mut roots = self.temp_dirs.clone();
        if self.settings.mode == SandboxMode::WorkspaceWrite {
            roots.push(cwd.to_path_buf());
            roots.extend(self.settings.writable_roots.iter().cloned());
            roots.extend(protected::cache_dirs(&self.shell.home));
        }
        roots
    }

    /// The rules for a command in `cwd`.
    pub fn plan(&self, cwd: &Path) -> Result<plan::Plan, SandboxError> {
        let specials = protected::special_paths(&self.shell, cwd);
        plan::Plan::build(&self.writable_roots(cwd), &specials)
    }

    /// Whether a confined command in `cwd` may write `path` (for reading denials).
    pub fn may_write(&self, cwd: &Path, path: &Path) -> bool {
        let specials = protected::special_paths(&self.shell, cwd);
        plan::may_write(&self.writable_roots(cwd), &specials, path)
    }

    /// How to confine a command in `cwd`; `None` when the sandbox is off or unavailable.
    pub fn confine(&self, cwd: &Path) -> Result<Option<Confine>, SandboxError> {
        if !self.is_active() {
            return Ok(None);
        }
        let plan = self.plan(cwd)?;
        self.enforce(&plan).map(Some)
    }

    #[cfg(target_os = "linux")]
    fn enforce(&self, plan: &plan::Plan) -> Result<Confine, SandboxError> {
        landlock_fs::confine(plan, self.settings.network)
    }

    #[cfg(target_os = "macos")]
    fn enforce(&self, plan: &plan::Plan) -> Result<Confine, SandboxError> {
        Ok(seatbelt::confine(plan, self.settings.network))
    }

    #[cfg(not(any(target_os = "linux", target_os = "macos")))]
    fn enforce(&self, _plan: &plan::Plan) -> Result<Confine, SandboxError> {
        Err(SandboxError::Rules(
            "no sandbox for this operating system".to_string(),
        ))
    }
}

/// The system temp dir (`TMPDIR` or `/tmp`), `/var/tmp` and `/dev/shm`, as they exist.
fn default_temp_dirs() -> Vec<PathBuf> {
    let mut dirs = vec![std::env::temp_dir()];
    for dir in ["/tmp", "/var/tmp", "/dev/shm"] {
        dirs.push(PathBuf::from(dir));
    }
    let mut out: Vec<PathBuf> = Vec::new();
    for dir in dirs {
        if dir.is_dir() && !out.contains(&dir) {
            out.push(dir);
        }
    }
    out
}

#[cfg(test)]
#[path = "sandbox_tests.rs"]
mod tests;
