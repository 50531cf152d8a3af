use super::*;

fn ws(src: &str) -> Vec<Word> {
    src.split_whitespace().map(Word::plain).collect()
}

fn program(src: &str) -> Option<String> {
    let words = ws(src);
    unwrap(&words).program.map(|i| words[i].text.clone())
}

#[test]
fn wrappers_are_stripped() {
    for (src, prog) in [
        ("rm x", "rm"),
        ("/usr/bin/sudo -u root -E /bin/rm x", "/bin/rm"),
        ("sudo --user root rm", "rm"),
        ("sudo -uroot rm", "rm"),
        ("env -i FOO=1 -u BAR rm", "rm"),
        ("FOO=1 BAR=2 rm", "rm"),
        ("nohup setsid time -p rm", "rm"),
        ("nice -n 5 ionice -c 3 rm", "rm"),
        ("nice -5 rm", "rm"),
        ("timeout -s KILL 10s rm", "rm"),
        ("stdbuf -oL rm", "rm"),
        ("exec -a name rm", "rm"),
        ("command rm", "rm"),
        ("builtin command -p rm", "rm"),
        ("xargs -0 -n 1 -I {} rm", "rm"),
        ("chroot /mnt rm", "rm"),
        ("flock /tmp/lock rm", "rm"),
        ("busybox rm", "rm"),
        ("doas -u root rm", "rm"),
        ("runuser -u dev -- rm", "rm"),
        ("su", "su"),
    ] {
        assert_eq!(program(src).as_deref(), Some(prog), "{src}");
    }
}

#[test]
fn no_command_runs() {
    for src in [
        "command -v rm",
        "sudo -l",
        "env",
        "xargs",
        "FOO=1",
        "sudo -e /etc/x",
    ] {
        assert_eq!(program(src), None, "{src}");
    }
}

#[test]
fn wrapper_details() {
    let words = ws("sudo -S -u root rm");
    let u = unwrap(&words);
    assert!(u.sudo_password);
    assert_eq!(u.positions, [0, 4]);
    assert!(unwrap(&ws("sudo -SE rm")).sudo_password);
    assert!(unwrap(&ws("sudo --askpass rm")).sudo_password);
    assert!(!unwrap(&ws("sudo -E rm")).sudo_password);
    assert!(unwrap(&ws("xargs rm")).xargs);
    assert_eq!(unwrap(&ws("sudo -e /etc/x")).edits, Some(2));
    assert_eq!(unwrap(&ws("sudoedit /etc/x")).edits, Some(1));
    assert_eq!(unwrap(&ws("FOO=1 env BAR=2 rm")).assignments, [0, 2]);
}

#[test]
fn wrappers_that_run_shell_text() {
    assert_eq!(unwrap(&ws("env -S rm -rf /")).script, Some(2..5));
    assert_eq!(unwrap(&ws("watch -n 1 rm -rf /")).script, Some(3..6));
    assert_eq!(unwrap(&ws("su - root -c x")).script, Some(4..5));
    assert_eq!(unwrap(&ws("script -qc x /dev/null")).script, Some(2..3));
    assert_eq!(unwrap(&ws("flock /tmp/l -c x")).script, Some(3..4));
}

#[test]
fn assignments_are_recognised() {
    assert!(is_assignment("A=1"));
    assert!(is_assignment("PATH+=x"));
    assert!(is_assignment("_x9=a=b"));
    assert!(!is_assignment("=x"));
    assert!(!is_assignment("1A=x"));
    assert!(!is_assignment("--opt=x"));
    assert!(!is_assignment("plain"));
}
