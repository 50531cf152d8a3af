use std::path::PathBuf;

use super::*;
use crate::safety::classify::keys::*;

fn ctx() -> ShellContext {
    ShellContext {
        home: PathBuf::from("/home/dev"),
        hermes_home: PathBuf::from("/home/dev/.hermes"),
    }
}

fn check(command: &str) -> Option<&'static str> {
    check_in(command, &ctx())
}

const BLOCKED: &[(&str, &str)] = &[
    ("rm -rf /", RM_ROOT),
    ("rm -fr /", RM_ROOT),
    ("rm -r /", RM_ROOT),
    ("rm --recursive --force /", RM_ROOT),
    ("rm -Rf /*", RM_ROOT),
    ("rm -rf //", RM_ROOT),
    ("rm -rf /.", RM_ROOT),
    ("rm -rf /tmp/../", RM_ROOT),
    ("rm -vrf '/'", RM_ROOT),
    ("rm -r -f -- /", RM_ROOT),
    ("sudo rm -rf /", RM_ROOT),
    ("sudo -u root rm -rf /", RM_ROOT),
    ("/bin/rm -rf /", RM_ROOT),
    ("/usr/bin/sudo /bin/rm -rf /", RM_ROOT),
    ("env FOO=1 rm -rf /", RM_ROOT),
    ("nohup rm -rf / &", RM_ROOT),
    ("time rm -rf /", RM_ROOT),
    ("exec rm -rf /", RM_ROOT),
    ("nice -n 10 rm -rf /", RM_ROOT),
    ("timeout 10 rm -rf /", RM_ROOT),
    ("FOO=bar rm -rf /", RM_ROOT),
    ("\\rm -rf /", RM_ROOT),
    ("rm -rf / 2>/dev/null", RM_ROOT),
    ("echo hi; rm -rf /", RM_ROOT),
    ("echo hi && rm -rf /", RM_ROOT),
    ("false || rm -rf /", RM_ROOT),
    ("ls | rm -rf /", RM_ROOT),
    ("cd /tmp\nrm -rf /", RM_ROOT),
    ("(rm -rf /)", RM_ROOT),
    ("if true; then rm -rf /; fi", RM_ROOT),
    ("echo $(rm -rf /)", RM_ROOT),
    ("echo \"$(rm -rf /)\"", RM_ROOT),
    ("echo `rm -rf /`", RM_ROOT),
    ("bash -c 'rm -rf /'", RM_ROOT),
    ("sh -ec \"sudo rm -rf /\"", RM_ROOT),
    ("eval rm -rf /", RM_ROOT),
    ("env -S 'rm -rf /'", RM_ROOT),
    ("rm -rf /etc", RM_SYSTEM_DIR),
    ("rm -rf /usr/", RM_SYSTEM_DIR),
    ("rm -rf /var/*", RM_SYSTEM_DIR),
    ("sudo rm -r /boot", RM_SYSTEM_DIR),
    ("rm -rf /lib64", RM_SYSTEM_DIR),
    ("rm -rf ~", RM_HOME),
    ("rm -rf ~/", RM_HOME),
    ("rm -rf ~/*", RM_HOME),
    ("rm -rf $HOME", RM_HOME),
    ("rm -rf \"$HOME\"", RM_HOME),
    ("rm -rf ${HOME}/", RM_HOME),
    ("rm -rf ~/..", RM_SYSTEM_DIR),
    ("mkfs.ext4 /dev/sda1", MKFS),
    ("sudo mkfs -t xfs /dev/nvme0n1", MKFS),
    ("/sbin/mkfs.vfat /dev/sdb", MKFS),
    ("dd if=/dev/zero of=/dev/sda bs=1M", DISK_WRITE),
    ("sudo dd if=image.iso of=/dev/nvme0n1", DISK_WRITE),
    ("dd if=x of=/dev/mmcblk0", DISK_WRITE),
    ("cat image > /dev/sda", DISK_WRITE),
    ("echo x >/dev/vda", DISK_WRITE),
    ("cat img 1>> /dev/hdb", DISK_WRITE),
    (":(){ :|:& };:", FORK_BOMB),
    (":(){ : | : & }; :", FORK_BOMB),
    ("bomb(){ bomb|bomb& };bomb", FORK_BOMB),
    ("kill -1", KILL_ALL),
    ("kill -9 -1", KILL_ALL),
    ("kill -s KILL -1", KILL_ALL),
    ("kill -- -1", KILL_ALL),
    ("sudo kill -KILL -1", KILL_ALL),
    ("shutdown -h now", POWER),
    ("sudo reboot", POWER),
    ("halt", POWER),
    ("/sbin/poweroff", POWER),
    ("init 0", POWER),
    ("sudo init 6", POWER),
    ("telinit 0", POWER),
    ("systemctl poweroff", POWER),
    ("sudo systemctl --no-wall reboot", POWER),
    ("systemctl halt", POWER),
];

const ALLOWED: &[&str] = &[
    "rm -rf ./build",
    "rm -rf build/",
    "rm -rf /tmp/x",
    "rm -rf /usr/local/lib/foo",
    "rm -rf /home/user/project/target",
    "rm -rf ~/project/build",
    "rm -rf $HOME/.cache/pip",
    "rm /etc/foo.conf",
    "rm -f /",
    "echo \"rm -rf /\"",
    "echo 'rm -rf /' > notes.txt",
    "printf '%s\\n' 'sudo reboot'",
    "git commit -m 'rm -rf / is blocked'",
    "grep mkfs notes.txt",
    "grep -r 'shutdown' src/",
    "man mkfs",
    "dd if=a of=b",
    "dd if=/dev/zero of=./disk.img bs=1M count=1",
    "echo hi > /dev/null",
    "cmd 2>&1 | tee log.txt",
    "ls > /dev/stdout",
    "kill -9 1234",
    "kill -1 1234",
    "kill -TERM -4321",
    "kill -l",
    "systemctl status nginx",
    "systemctl restart nginx",
    "init_db --force",
    "ls -la # rm -rf /",
    "cargo build --release",
    "find . -name '*.rs' | xargs wc -l",
    "bash script.sh",
    "bash -c 'echo hello'",
    "sudo apt-get install -y ripgrep",
    "echo ${HOME}",
    "cd ~ && ls",
    "python3 -c 'print(1)'",
    "",
];

#[test]
fn blocks_hardline_commands() {
    for (command, key) in BLOCKED {
        assert_eq!(
            check(command),
            Some(hardline_reason(key)),
            "command: {command:?}"
        );
    }
}

#[test]
fn allows_ordinary_commands() {
    for command in ALLOWED {
        assert_eq!(check(command), None, "command: {command:?}");
    }
}

#[test]
fn unbalanced_quotes_still_checked() {
    assert_eq!(check("rm -rf / 'oops"), Some(hardline_reason(RM_ROOT)));
    assert_eq!(check("echo 'unterminated"), None);
}

#[test]
fn deep_nesting_does_not_overflow() {
    // Quoting doubles the text per level, so keep the nesting modest; the depth cap is 6.
    let mut command = String::from("echo hi");
    for _ in 0..10 {
        command = format!("bash -c {}", shlex::try_quote(&command).unwrap());
    }
    assert_eq!(check(&command), None);
    assert_eq!(check(&"$(".repeat(10_000)), None);
    assert_eq!(
        check(&format!("{}rm -rf /", "$(".repeat(3))),
        Some(hardline_reason(RM_ROOT))
    );
}

#[test]
fn check_reads_the_environment_and_still_blocks() {
    // `check` builds its context from $HOME; these verdicts do not depend on it.
    assert_eq!(
        super::check("sudo rm -rf /"),
        Some(hardline_reason(RM_ROOT))
    );
    assert_eq!(super::check("rm -rf ~"), Some(hardline_reason(RM_HOME)));
    assert_eq!(super::check("ls -la"), None);
}

#[test]
fn every_hardline_key_has_a_reason() {
    for key in [
        RM_ROOT,
        RM_SYSTEM_DIR,
        RM_HOME,
        MKFS,
        DISK_WRITE,
        FORK_BOMB,
        KILL_ALL,
        POWER,
    ] {
        assert!(!hardline_reason(key).is_empty(), "{key}");
    }
    assert_eq!(hardline_reason(RECURSIVE_RM), "");
}
