//! Where the real Python Hermes Agent is: `HERMES_PY_VENV` (a virtualenv with
//! `hermes-agent==0.19.0`) and `HERMES_SDIST` (its unpacked source distribution, which has the
//! `skills/` and `optional-skills/` trees the wheel lacks). `scripts/test.sh` installs and
//! exports both (`install_python_hermes` in `scripts/lib.sh`).
//!
//! Without them a test prints why it skips — except under `CI=true`, where that is a failure
//! (the suite must not hide a missing install step).

use std::path::Path;
use std::path::PathBuf;

/// The version the suite is written against (the venv must have exactly this one).
pub const VERSION: &str = "0.19.0";

#[derive(Debug, Clone)]
pub struct PythonHermes {
    pub venv: PathBuf,
    pub sdist: PathBuf,
}

impl PythonHermes {
    /// The installed Python Hermes, or `None` (with the reason printed) when it is missing.
    pub fn locate() -> Option<Self> {
        match Self::find() {
            Ok(found) => Some(found),
            Err(why) => {
                let why = format!(
                    "{why} — run scripts/test.sh (it installs Python Hermes {VERSION} and exports HERMES_PY_VENV and HERMES_SDIST)"
                );
                assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
                eprintln!("skipping: {why}");
                None
            }
        }
    }

    fn find() -> Result<Self, String> {
        let venv = dir_from_env("HERMES_PY_VENV")?;
        let sdist = dir_from_env("HERMES_SDIST")?;
        if !venv.join("bin/hermes").is_file() || !venv.join("bin/python").is_file() {
            return Err(format!(
                "HERMES_PY_VENV={} has no bin/hermes or bin/python",
                venv.display()
            ));
        }
        let dist_info = format!("hermes_agent-{VERSION}.dist-info");
        let installed = std::fs::read_dir(venv.join("lib"))
            .into_iter()
            .flatten()
            .flatten()
            .any(|python| {
                python
                    .path()
                    .join("site-packages")
                    .join(&dist_info)
                    .is_dir()
            });
        if !installed {
            return Err(format!(
                "HERMES_PY_VENV={} has no hermes-agent {VERSION}",
                venv.display()
            ));
        }
        for tree in ["skills", "optional-skills", "hermes_cli/skin_engine.py"] {
            if !sdist.join(tree).exists() {
                return Err(format!("HERMES_SDIST={} has no {tree}", sdist.display()));
            }
        }
        Ok(Self { venv, sdist })
    }

    pub fn hermes_bin(&self) -> PathBuf {
        self.venv.join("bin/hermes")
    }

    pub fn python_bin(&self) -> PathBuf {
        self.venv.join("bin/python")
    }

    /// The bundled skills a real install seeds into `HERMES_HOME/skills` (73 in 0.19).
    pub fn bundled_skills(&self) -> PathBuf {
        self.sdist.join("skills")
    }

    /// The official optional skills (104 in 0.19), installed on request in Hermes.
    pub fn optional_skills(&self) -> PathBuf {
        self.sdist.join("optional-skills")
    }

    pub fn source_file(&self, relative: &str) -> PathBuf {
        self.sdist.join(relative)
    }
}

fn dir_from_env(var: &str) -> Result<PathBuf, String> {
    let value = std::env::var_os(var).ok_or_else(|| format!("{var} is not set"))?;
    let dir = PathBuf::from(value);
    if Path::new(&dir).is_dir() {
        Ok(dir)
    } else {
        Err(format!("{var}={} is not a directory", dir.display()))
    }
}
