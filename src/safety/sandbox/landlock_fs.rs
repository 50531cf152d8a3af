//! Linux enforcement: a Landlock ruleset built from a `Plan` in the parent, applied in the
//! child between fork and exec with two raw system calls (`prctl(PR_SET_NO_NEW_PRIVS)` and
//! `landlock_restrict_self`), both async-signal-safe.
//!
//! Handled: every filesystem right of ABI 6 (the `landlock` crate drops what the running
//! kernel lacks), TCP bind and connect when the network is off (ABI ≥ 4), and the signal
//! scope (ABI ≥ 6: a confined command cannot signal hermes or any process outside its own
//! sandbox), plus the abstract-unix-socket scope when the network is off. It does not
//! decide what is granted (`plan` does).

use std::os::fd::AsRawFd;
use std::os::fd::OwnedFd;
use std::sync::Arc;

use landlock::ABI;
use landlock::Access;
use landlock::AccessFs;
use landlock::AccessNet;
use landlock::BitFlags;
use landlock::PathBeneath;
use landlock::PathFd;
use landlock::Ruleset;
use landlock::RulesetAttr;
use landlock::RulesetCreatedAttr;
use landlock::Scope;

use super::NetworkAccess;
use super::SandboxError;
use super::plan::Access as GrantAccess;
use super::plan::Plan;
use crate::util::process::Confine;

/// The ABI whose rights hermes asks for; older kernels get what they support.
const TARGET_ABI: ABI = ABI::V6;
/// `LANDLOCK_CREATE_RULESET_VERSION`: ask for the ABI version instead of creating a ruleset.
const CREATE_RULESET_VERSION: libc::c_uint = 1;

/// The running kernel's Landlock ABI version, or why there is none.
pub fn abi_version() -> Result<i32, String> {
    // SAFETY: with a null attribute, size 0 and the VERSION flag the call only returns a
    // number; no memory is read or written.
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            CREATE_RULESET_VERSION,
        )
    };
    if version >= 0 {
        return i32::try_from(version).map_err(|_| format!("odd Landlock ABI {version}"));
    }
    let error = std::io::Error::last_os_error();
    Err(match error.raw_os_error() {
        Some(libc::EOPNOTSUPP) => "Landlock is built into this kernel but not enabled at boot \
                                   (add landlock to the lsm= boot parameter)"
            .to_string(),
        Some(libc::ENOSYS) => {
            "this kernel has no Landlock (Linux 5.13 or later needed)".to_string()
        }
        _ => format!("probing Landlock failed: {error}"),
    })
}

fn rights(access: GrantAccess, is_dir: bool) -> BitFlags<AccessFs> {
    let read = AccessFs::from_read(TARGET_ABI) | AccessFs::IoctlDev;
    let all = AccessFs::from_all(TARGET_ABI);
    let wanted = match access {
        GrantAccess::List => BitFlags::from(AccessFs::ReadDir),
        GrantAccess::Read => read,
        GrantAccess::ReadWriteFiles => read | AccessFs::WriteFile | AccessFs::Truncate,
        GrantAccess::Full => all,
    };
    if is_dir {
        wanted
    } else {
        wanted & AccessFs::from_file(TARGET_ABI)
    }
}

fn rules_error(e: impl std::fmt::Display) -> SandboxError {
    SandboxError::Rules(e.to_string())
}

/// The ruleset for `plan`, ready to be applied in a child.
pub fn confine(plan: &Plan, network: NetworkAccess) -> Result<Confine, SandboxError> {
    let mut ruleset = Ruleset::default()
        .handle_access(AccessFs::from_all(TARGET_ABI))
        .map_err(rules_error)?
        .scope(Scope::Signal)
        .map_err(rules_error)?;
    if network == NetworkAccess::Denied {
        ruleset = ruleset
            .handle_access(AccessNet::from_all(TARGET_ABI))
            .map_err(rules_error)?
            .scope(Scope::AbstractUnixSocket)
            .map_err(rules_error)?;
    }
    let mut created = ruleset.create().map_err(rules_error)?;
    for grant in &plan.grants {
        let access = rights(grant.access, grant.is_dir);
        if access.is_empty() {
            continue;
        }
        // A path that vanished since the plan was made needs no rule.
        let Ok(fd) = PathFd::new(&grant.path) else {
            continue;
        };
        created = created
            .add_rule(PathBeneath::new(fd, access))
            .map_err(rules_error)?;
    }
    let fd: Option<OwnedFd> = created.into();
    let Some(fd) = fd else {
        return Err(SandboxError::Rules(
            "the kernel refused to create a Landlock ruleset".to_string(),
        ));
    };
    let fd = Arc::new(fd);
    let step = move || restrict_self(fd.as_raw_fd());
    Ok(Confine {
        wrapper: Vec::new(),
        in_child: Some(Arc::new(step)),
    })
}

/// In the child: no new privileges (setuid programs stay unprivileged, as Landlock requires),
/// then the ruleset. Only raw system calls: safe between fork and exec.
fn restrict_self(ruleset_fd: libc::c_int) -> std::io::Result<()> {
    // SAFETY: prctl with integer arguments touches no memory.
    if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: landlock_restrict_self takes a file descriptor and flags, no memory.
    if unsafe { libc::syscall(libc::SYS_landlock_restrict_self, ruleset_fd, 0u32) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}
