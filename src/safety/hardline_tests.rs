use super::*;

const BLOCKED: &[(&str, &str)] = &[
    ("rm -rf /", ROOT),
    ("rm -fr /", ROOT),
    ("rm -r /", ROOT),
    ("rm --recursive --force /", ROOT),
    ("rm -Rf /*", ROOT),
    ("rm -rf //", ROOT),
    ("rm -rf /.", ROOT),
    ("rm -rf /tmp/../", ROOT),
    ("rm -vrf '/'", ROOT),
    ("rm -r -f -- /", ROOT),
    ("sudo rm -rf /", ROOT),
    ("sudo -u root rm -rf /", ROOT),
    ("/bin/rm -rf /", ROOT),
    ("/usr/bin/sudo /bin/rm -rf /", ROOT),
    ("env FOO=1 rm -rf /", ROOT),
    ("nohup rm -rf / &", ROOT),
    ("time rm -rf /", ROOT),
    ("exec rm -rf /", ROOT),
    ("nice -n 10 rm -rf /", ROOT),
    ("timeout 10 rm -rf /", ROOT),
    ("FOO=bar rm -rf /", ROOT),
    ("\\rm -rf /", ROOT),
    ("rm -rf / 2>/dev/null", ROOT),
    ("echo hi; rm -rf /", ROOT),
    ("echo hi && rm -rf /", ROOT),
    ("false || rm -rf /", ROOT),
    ("ls | rm -rf /", ROOT),
    ("cd /tmp\nrm -rf /", ROOT),
    ("(rm -rf /)", ROOT),
    ("if true; then rm -rf /; fi", ROOT),
    ("echo $(rm -rf /)", ROOT),
    ("echo \"$(rm -rf /)\"", ROOT),
    ("echo `rm -rf /`", ROOT),
    ("bash -c 'rm -rf /'", ROOT),
    ("sh -ec \"sudo rm -rf /\"", ROOT),
    ("eval rm -rf /", ROOT),
    ("env -S 'rm -rf /'", ROOT),
    ("rm -rf /etc", SYSTEM_DIR),
    ("rm -rf /usr/", SYSTEM_DIR),
    ("rm -rf /var/*", SYSTEM_DIR),
    ("sudo rm -r /boot", SYSTEM_DIR),
    ("rm -rf /lib64", SYSTEM_DIR),
    ("rm -rf ~", HOME),
    ("rm -rf ~/", HOME),
    ("rm -rf ~/*", HOME),
    ("rm -rf $HOME", HOME),
    ("rm -rf \"$HOME\"", HOME),
    ("rm -rf ${HOME}/", HOME),
    ("rm -rf ~/..", HOME),
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
    for (command, reason) in BLOCKED {
        assert_eq!(check(command), Some(*reason), "command: {command:?}");
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
    assert_eq!(check("rm -rf / 'oops"), Some(ROOT));
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
    assert_eq!(check(&format!("{}rm -rf /", "$(".repeat(3))), Some(ROOT));
}
