//! The stable pattern keys a `Finding` carries.
//!
//! A key names a family of findings, not one command: it is what "allow for this session"
//! and "always allow" (config.yaml `command_allowlist`) remember. Keys are never renamed once
//! released; new families get new keys. This module only names them; the rule modules decide
//! when each applies.

// --- Hardline: blocked in every mode, never allowlisted. ---

/// Recursive `rm` of `/` (or `/*`).
pub const RM_ROOT: &str = "rm_root";
/// Recursive `rm` of a top-level system directory (`/etc`, `/usr`, `/home`, …).
pub const RM_SYSTEM_DIR: &str = "rm_system_dir";
/// Recursive `rm` of the home directory (`~`, `$HOME`, `~/*`).
pub const RM_HOME: &str = "rm_home";
/// `mkfs`, `mkfs.*`, `mke2fs`, `cryptsetup luksFormat`, `diskutil erase*`, `mkswap DEVICE`.
pub const MKFS: &str = "mkfs";
/// `dd of=`, redirection, `cp`/`tee`/`shred`/`wipefs -a`/`sfdisk`/`parted mklabel` onto a
/// disk device; `cryptsetup erase`.
pub const DISK_WRITE: &str = "disk_write";
/// `:(){ :|:& };:` and the same shape with any function name; `perl -e 'fork while 1'`.
pub const FORK_BOMB: &str = "fork_bomb";
/// `kill -1` / `kill -9 -1`: signal every process; `kill 1` (init); `killall5`.
pub const KILL_ALL: &str = "kill_all";
/// shutdown / reboot / halt / poweroff / `init 0|6` / `systemctl poweroff|reboot|suspend|…`,
/// `loginctl poweroff|…`, logind/systemd D-Bus power calls, writes to `/proc/sysrq-trigger`.
pub const POWER: &str = "power";

// --- Dangerous: need approval. ---

/// `rm -r` / `-R` / `--recursive` (not of a hardline target).
pub const RECURSIVE_RM: &str = "recursive_rm";
/// `chmod` giving write permission to others: `777`, `666`, `o+w`, `a+w`.
pub const CHMOD_WORLD_WRITABLE: &str = "chmod_world_writable";
/// `chown -R root …`.
pub const CHOWN_RECURSIVE_ROOT: &str = "chown_recursive_root";
/// Recursive `chmod`/`chown` of `/`, a system directory or the home directory.
pub const RECURSIVE_PERMS_SYSTEM: &str = "recursive_perms_system";
/// `dd` (raw copies; `dd of=<disk>` is hardline).
pub const DD: &str = "dd";
/// SQL `DROP TABLE|DATABASE|SCHEMA` given to a database client.
pub const SQL_DROP: &str = "sql_drop";
/// SQL `TRUNCATE` given to a database client.
pub const SQL_TRUNCATE: &str = "sql_truncate";
/// SQL `DELETE FROM` without `WHERE` given to a database client.
pub const SQL_DELETE_WITHOUT_WHERE: &str = "sql_delete_without_where";
/// Writes to shell startup files (`~/.bashrc`, `~/.zshrc`, `~/.config/fish/**`, …).
pub const WRITE_SHELL_RC: &str = "write_shell_rc";
/// Writes under `~/.ssh`.
pub const WRITE_SSH: &str = "write_ssh";
/// Writes to credential files (`~/.aws/**`, `~/.netrc`, `~/.docker/config.json`, …).
pub const WRITE_CREDENTIALS: &str = "write_credentials";
/// Writes to system paths (`/etc/**`, `/usr`, `/bin`, `/var` outside `/var/tmp`, …).
pub const WRITE_SYSTEM: &str = "write_system";
/// Writes into another user's home (`/home/<other>/…`, `/root/…`).
pub const WRITE_OTHER_HOME: &str = "write_other_home";
/// Changes hermes's own approval/safety settings: writes to `<hermes_home>/config.yaml`,
/// `.env`, `shell-hooks-allowlist.json`; `hermes config set approvals…` and friends;
/// `hermes --yolo`, `HERMES_YOLO_MODE=…`. Approval UIs should not offer "always" for it.
pub const HERMES_SETTINGS: &str = "hermes_settings";
/// `curl … | sh`, `wget -O- … | bash`, `bash <(curl …)`, `sh -c "$(curl …)"`.
pub const PIPE_TO_SHELL: &str = "pipe_to_shell";
/// A shell runs text hermes cannot see: `bash -c "$VAR"`, `eval "$X"`, `… | base64 -d | sh`,
/// or nesting deeper than `MAX_DEPTH`.
pub const OPAQUE_SHELL: &str = "opaque_shell";
/// `python -c` / `perl -e` / `node -e` / … inline code that looks destructive.
pub const INLINE_CODE: &str = "inline_code";
/// `git push --force` / `-f` / `--force-with-lease` / `--mirror` / `+refspec`.
pub const GIT_FORCE_PUSH: &str = "git_force_push";
/// `git push --delete` / `git push origin :branch`.
pub const GIT_PUSH_DELETE: &str = "git_push_delete";
/// `git reset --hard`.
pub const GIT_RESET_HARD: &str = "git_reset_hard";
/// `git clean -f` (not with `-n`).
pub const GIT_CLEAN: &str = "git_clean";
/// `git branch -D` / `git branch -d --force`.
pub const GIT_BRANCH_DELETE: &str = "git_branch_delete";
/// `systemctl stop|restart|disable|mask|kill`, `service NAME stop|restart`.
pub const SERVICE_STOP: &str = "service_stop";
/// `pkill -9`, `killall -9` / `-KILL` / `-r`.
pub const FORCE_KILL: &str = "force_kill";
/// Killing hermes itself (`pkill hermes`, `kill $(pgrep hermes)`).
pub const KILL_HERMES: &str = "kill_hermes";
/// `docker stop|restart|kill`, `docker compose stop|restart|kill|down` (also podman).
pub const DOCKER_STOP: &str = "docker_stop";
/// `hermes gateway stop|restart`, `hermes update`.
pub const HERMES_LIFECYCLE: &str = "hermes_lifecycle";
/// `sudo -S` / `--stdin` / `-A` / `--askpass`.
pub const SUDO_PASSWORD: &str = "sudo_password";
/// `find -delete`, `find -exec rm …`.
pub const FIND_DELETE: &str = "find_delete";
/// `xargs rm …`.
pub const XARGS_RM: &str = "xargs_rm";
/// `chmod +x FILE` followed by running FILE in the same command line.
pub const CHMOD_EXEC: &str = "chmod_exec";
/// `ssh HOST CMD`, `docker exec CTR CMD`, `kubectl exec POD -- CMD` where CMD would need
/// approval (or be hardline) here.
pub const REMOTE_COMMAND: &str = "remote_command";
/// `crontab FILE` / `crontab -r`: installing or removing scheduled jobs.
pub const CRONTAB: &str = "crontab";
/// A write whose target is computed by a `$(…)` hermes cannot resolve (`cp x "$(cat dest)"`).
pub const OPAQUE_WRITE: &str = "opaque_write";
/// `rsync --delete` (and `--del`, `--delete-*`, `--remove-source-files`): deletes files.
pub const RSYNC_DELETE: &str = "rsync_delete";
/// `LD_PRELOAD=` / `LD_AUDIT=` / `DYLD_INSERT_LIBRARIES=`: loads a library into every program.
pub const PRELOAD_LIBRARY: &str = "preload_library";
