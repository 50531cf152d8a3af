//! The sandbox's rules as a list of grants — "this path and everything under it may be read /
//! written" — computed in the parent before a confined command starts.
//!
//! Landlock (like Seatbelt's `subpath`) grants whole hierarchies and has no "deny": a right
//! given to a directory reaches every file under it. So a protected path inside a readable or
//! writable tree is left out by construction: every directory on the way down to it (a
//! *chain* directory) gets only what the protected path itself may have (list-only above a
//! secret, read-only above a read-only file), and each of the chain directory's other entries
//! gets the full grant on its own. The price: in a chain directory itself nothing can be
//! created or removed (a "make file" right on it would reach the protected path too). A
//! protected path that does not exist is not protected from being created — there is nothing
//! to protect yet, and making its ancestors chains would freeze whole workspaces. Symlinks
//! among the listed entries are skipped: they are governed by their targets' rules.
//!
//! It does not enforce anything (`landlock_fs`, `seatbelt` do) and reads the filesystem only
//! to canonicalise paths and list chain directories. Invariant: no grant at or above a special
//! path gives more than that special path allows.

use std::collections::BTreeMap;
use std::path::Path;
use std::path::PathBuf;

use super::SandboxError;
use super::protected::SpecialAccess;
use super::protected::SpecialPath;

/// How much a grant gives, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Access {
    /// List directories only (above a secret).
    List,
    /// Read files, list directories, execute programs.
    Read,
    /// Read, and write existing files in place (device files such as `/dev/null`).
    ReadWriteFiles,
    /// Everything: create, write, rename, remove.
    Full,
}

impl Access {
    fn capped_by(special: SpecialAccess) -> Self {
        match special {
            SpecialAccess::None => Self::List,
            SpecialAccess::ReadOnly => Self::Read,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub path: PathBuf,
    pub access: Access,
    pub is_dir: bool,
}

/// Device files every program expects to write.
const DEVICE_FILES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
    "/dev/ptmx",
    "/dev/pts",
];

/// The grants for one command, plus what they were built from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub grants: Vec<Grant>,
    /// The writable roots, canonical and existing.
    pub roots: Vec<PathBuf>,
    /// The special paths, canonical (the existing part resolved).
    pub specials: Vec<SpecialPath>,
}

/// The inputs, canonicalised, with the chain directories worked out.
struct Layout {
    roots: Vec<PathBuf>,
    specials: Vec<SpecialPath>,
    /// Chain directory → the most any grant on it may give.
    chains: BTreeMap<PathBuf, Access>,
}

impl Layout {
    fn new(roots: &[PathBuf], specials: &[SpecialPath]) -> Self {
        let specials: Vec<SpecialPath> = specials
            .iter()
            .map(|s| SpecialPath {
                path: real_path(&s.path),
                access: s.access,
            })
            .collect();
        let mut chains: BTreeMap<PathBuf, Access> = BTreeMap::new();
        for special in specials.iter().filter(|s| s.path.exists()) {
            let cap = Access::capped_by(special.access);
            for dir in special.path.ancestors().skip(1) {
                chains
                    .entry(dir.to_path_buf())
                    .and_modify(|c| *c = (*c).min(cap))
                    .or_insert(cap);
            }
        }
        let roots = roots
            .iter()
            .filter(|r| r.is_dir())
            .map(|r| real_path(r))
            .filter(|r| !specials.iter().any(|s| r.starts_with(&s.path)))
            .collect();
        Self {
            roots,
            specials,
            chains,
        }
    }

    /// What the base grants give `path` before specials: read everywhere, device files,
    /// and full access under the roots.
    fn base(&self, path: &Path) -> Access {
        if self.roots.iter().any(|r| path.starts_with(r)) {
            Access::Full
        } else if DEVICE_FILES.iter().any(|d| path.starts_with(d)) {
            Access::ReadWriteFiles
        } else {
            Access::Read
        }
    }

    fn special(&self, path: &Path) -> Option<SpecialAccess> {
        self.specials
            .iter()
            .filter(|s| path.starts_with(&s.path))
            .map(|s| s.access)
            .min()
    }

    /// The effective access of an existing path (canonical), as the kernel will see it.
    fn effective(&self, path: &Path) -> Option<Access> {
        match self.special(path) {
            Some(SpecialAccess::None) => return None,
            Some(SpecialAccess::ReadOnly) => return Some(Access::Read.min(self.base(path))),
            None => {}
        }
        let base = self.base(path);
        Some(match self.chains.get(path) {
            Some(cap) => base.min(*cap),
            None => base,
        })
    }
}

impl Plan {
    /// The grants for a command whose writable roots are `roots`, with `specials` left out.
    pub fn build(roots: &[PathBuf], specials: &[SpecialPath]) -> Result<Self, SandboxError> {
        let layout = Layout::new(roots, specials);
        let mut grants = Vec::new();
        visit(&layout, Path::new("/"), true, None, &mut grants)?;
        // Roots and device files off the chains: a plain grant each (nothing special below).
        let extra = layout
            .roots
            .iter()
            .map(|r| (r.clone(), Access::Full))
            .chain(
                DEVICE_FILES
                    .iter()
                    .map(|d| (PathBuf::from(d), Access::ReadWriteFiles)),
            );
        for (path, access) in extra {
            let off_chain = !layout.chains.contains_key(&path);
            if off_chain && layout.special(&path).is_none() && path.exists() {
                let is_dir = path.is_dir();
                grants.push(Grant {
                    path,
                    access,
                    is_dir,
                });
            }
        }
        Ok(Self {
            grants,
            roots: layout.roots,
            specials: layout.specials,
        })
    }
}

/// Grants for `path` (a directory when `is_dir`), whose nearest granted ancestor gave `above`
/// (`None`: no grant above it yet).
fn visit(
    layout: &Layout,
    path: &Path,
    is_dir: bool,
    above: Option<Access>,
    grants: &mut Vec<Grant>,
) -> Result<(), SandboxError> {
    let Some(access) = layout.effective(path) else {
        return Ok(()); // A secret: nothing at all.
    };
    let on_chain = layout.chains.contains_key(path);
    if Some(access) > above {
        grants.push(Grant {
            path: path.to_path_buf(),
            access,
            is_dir,
        });
    }
    if !on_chain || !is_dir {
        return Ok(());
    }
    let entries = std::fs::read_dir(path).map_err(|source| SandboxError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_symlink() {
            continue;
        }
        visit(layout, &entry.path(), kind.is_dir(), Some(access), grants)?;
    }
    Ok(())
}

/// Whether a confined command may write `path` (canonicalised here): an existing path needs
/// write access on itself, a new one full access on its directory.
pub fn may_write(roots: &[PathBuf], specials: &[SpecialPath], path: &Path) -> bool {
    let layout = Layout::new(roots, specials);
    let real = real_path(path);
    if real.exists() {
        layout
            .effective(&real)
            .is_some_and(|a| a >= Access::ReadWriteFiles)
    } else {
        real.parent()
            .and_then(|dir| layout.effective(dir))
            .is_some_and(|a| a == Access::Full)
            && layout.special(&real).is_none()
    }
}

/// `path` with its longest existing ancestor canonicalised (symlinks resolved), `..` applied.
pub fn real_path(path: &Path) -> PathBuf {
    let mut rest = Vec::new();
    let mut existing = path;
    loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            let mut out = real;
            for part in rest.iter().rev() {
                if *part == ".." {
                    out.pop();
                } else {
                    out.push(part);
                }
            }
            return out;
        }
        match (existing.file_name(), existing.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
