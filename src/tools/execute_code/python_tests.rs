//! Interpreters are fake shell scripts in temp dirs (each path is probed once per process, so
//! every test uses fresh paths) plus the machine's real `python3`.

use std::os::unix::fs::PermissionsExt;

use pretty_assertions::assert_eq;

use super::*;

/// An executable `name` in `dir` that prints `version` and its own path as Python's probe would.
fn fake_python(dir: &Path, name: &str, version: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\necho {version}\necho \"$0\"\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn config(mode: CodeExecutionMode, python: &str) -> CodeExecutionConfig {
    CodeExecutionConfig {
        mode,
        python: python.to_string(),
        ..CodeExecutionConfig::default()
    }
}

fn env_of(pairs: Vec<(&'static str, String)>) -> impl Fn(&str) -> Option<String> {
    move |name| {
        pairs
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.clone())
    }
}

#[test]
fn the_configured_interpreter_wins_and_an_unusable_one_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let good = fake_python(dir.path(), "py-good", "3.11.4");
    let env = env_of(vec![("PATH", "/nonexistent".to_string())]);
    let found = find(
        &config(CodeExecutionMode::Project, &good.display().to_string()),
        &env,
    )
    .unwrap();
    assert_eq!(found.version, "3.11.4");
    assert_eq!(found.source, "code_execution.python");
    assert_eq!(found.path, good);

    let old = fake_python(dir.path(), "py-old", "2.7.18");
    let err = find(
        &config(CodeExecutionMode::Project, &old.display().to_string()),
        &env,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "code_execution.python is {}, which is Python 2.7.18; execute_code needs 3.8 or newer",
            old.display()
        )
    );
    let missing = dir.path().join("no-such-python");
    let err = find(
        &config(CodeExecutionMode::Project, &missing.display().to_string()),
        &env,
    )
    .unwrap_err();
    assert!(err.to_string().ends_with("which does not exist"), "{err}");
}

#[test]
fn a_virtualenv_is_used_in_project_mode_only() {
    let dir = tempfile::tempdir().unwrap();
    let venv = dir.path().join("venv");
    std::fs::create_dir_all(venv.join("bin")).unwrap();
    let venv_python = fake_python(&venv.join("bin"), "python", "3.12.1");
    let path_dir = dir.path().join("bin");
    std::fs::create_dir_all(&path_dir).unwrap();
    let path_python = fake_python(&path_dir, "python3", "3.10.0");
    let env = env_of(vec![
        ("PATH", path_dir.display().to_string()),
        ("VIRTUAL_ENV", venv.display().to_string()),
    ]);
    let project = find(&config(CodeExecutionMode::Project, ""), &env).unwrap();
    assert_eq!((project.path, project.source), (venv_python, "VIRTUAL_ENV"));
    let strict = find(&config(CodeExecutionMode::Strict, ""), &env).unwrap();
    assert_eq!((strict.path, strict.source), (path_python, "PATH"));
}

#[test]
fn nothing_usable_on_path_says_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    fake_python(dir.path(), "python3", "3.6.9");
    let env = env_of(vec![("PATH", dir.path().display().to_string())]);
    let err = find(&config(CodeExecutionMode::Strict, ""), &env).unwrap_err();
    assert_eq!(err, PythonMissing::NotFound);
    let env = env_of(vec![]);
    assert_eq!(
        find(&config(CodeExecutionMode::Strict, ""), &env).unwrap_err(),
        PythonMissing::NotFound
    );
}

#[test]
fn a_shim_resolves_to_the_interpreter_behind_it() {
    let Ok(path) = std::env::var("PATH") else {
        return;
    };
    let env = env_of(vec![("PATH", path)]);
    let Ok(found) = find(&config(CodeExecutionMode::Strict, ""), &env) else {
        eprintln!("skipping: no python3 on PATH");
        return;
    };
    let out = std::process::Command::new(&found.path)
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        found.path.display().to_string(),
        "the path run is the interpreter itself, not a wrapper"
    );
}
