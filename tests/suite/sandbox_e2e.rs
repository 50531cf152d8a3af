//! The sandbox end to end through the real `terminal` tool: destructive commands that the
//! classifier is made to call benign (a policy that allows everything, confined) really run,
//! with HOME pointing at a throwaway home full of canary files, and every canary survives
//! byte-identical while work inside the workspace still succeeds. Also: network off refuses a
//! loopback connection, network on allows it, and a failed write outside the workspace is
//! escalated naming the path (approved: re-run outside; refused: the model is told why).

use std::collections::BTreeMap;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;

use async_trait::async_trait;
use hermes::protocol::ClarifyAnswer;
use hermes::safety::CommandPolicy;
use hermes::safety::CommandVerdict;
use hermes::safety::classify::ShellContext;
use hermes::safety::sandbox::NetworkAccess;
use hermes::safety::sandbox::Sandbox;
use hermes::safety::sandbox::SandboxMode;
use hermes::safety::sandbox::SandboxSettings;
use hermes::safety::sandbox::Support;
use hermes::safety::sandbox::denial::Denial;
use hermes::tools::SessionTools;
use hermes::tools::Tool;
use hermes::tools::ToolContext;
use hermes::tools::ToolEnv;
use hermes::tools::ToolHost;
use hermes::tools::ToolLimits;
use hermes::tools::ToolOutcome;
use hermes::tools::terminal::TerminalTool;
use tokio_util::sync::CancellationToken;

const CORPUS: &str = include_str!("../fixtures/sandbox_corpus.txt");
const SECRET: &str = "sk-canary-3f9a";

struct QuietHost;

#[async_trait]
impl ToolHost for QuietHost {
    fn progress(&self, _call_id: &str, _text: &str) {}
    async fn clarify(&self, _question: &str, _choices: &[String]) -> ClarifyAnswer {
        ClarifyAnswer::Declined
    }
}

/// Allows every command (as if the classifier called it benign), confined by `sandbox`;
/// escalations are answered with `escalation` and recorded.
struct EverythingBenign {
    sandbox: Arc<Sandbox>,
    escalation: CommandVerdict,
    asked: Mutex<Vec<String>>,
}

#[async_trait]
impl CommandPolicy for EverythingBenign {
    async fn check_command(&self, _command: &str, _cwd: &Path) -> CommandVerdict {
        CommandVerdict::Allow
    }
    async fn check_write(&self, _tool: &str, _path: &Path) -> CommandVerdict {
        CommandVerdict::Allow
    }
    fn sandbox(&self) -> Option<Arc<Sandbox>> {
        Some(Arc::clone(&self.sandbox))
    }
    async fn escalate(&self, _command: &str, _cwd: &Path, denial: &Denial) -> CommandVerdict {
        self.asked.lock().unwrap().push(denial.describe());
        self.escalation.clone()
    }
}

/// A throwaway machine: canary home (with a hermes home), a workspace and a project outside
/// it, and the sandbox's own temp dir, under `target/` (not the system temp dir the sandbox
/// would make writable).
struct Canaries {
    _root: tempfile::TempDir,
    home: PathBuf,
    hermes_home: PathBuf,
    workspace: PathBuf,
    outside: PathBuf,
    tmp: PathBuf,
    files: BTreeMap<PathBuf, Vec<u8>>,
}

impl Canaries {
    fn new() -> Self {
        let root = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        let home = root.path().join("home");
        let hermes_home = home.join(".hermes");
        let workspace = root.path().join("work");
        let outside = home.join("other-project");
        let tmp = root.path().join("tmp");
        let mut files = BTreeMap::new();
        let canaries: [(&Path, &str, &str); 9] = [
            (
                &home,
                ".ssh/authorized_keys",
                "ssh-ed25519 AAAAC3 canary@host\n",
            ),
            (
                &home,
                ".ssh/id_ed25519",
                "-----BEGIN OPENSSH PRIVATE KEY-----\ncanary\n",
            ),
            (&home, ".bashrc", "# canary bashrc\nexport PS1='$ '\n"),
            (&home, ".profile", "# canary profile\n"),
            (
                &hermes_home,
                "config.yaml",
                "model:\n  default: canary-model\n",
            ),
            (&hermes_home, ".env", "OPENAI_API_KEY=sk-canary-3f9a\n"),
            (
                &hermes_home,
                "skills/note/SKILL.md",
                "---\nname: note\n---\nbody\n",
            ),
            (&hermes_home, "state.db", "SQLite format 3\0canary"),
            (&outside, "main.rs", "fn main() { println!(\"canary\"); }\n"),
        ];
        for (base, rel, text) in canaries {
            let path = base.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, text).unwrap();
            files.insert(path, text.as_bytes().to_vec());
        }
        for dir in [&workspace, &tmp, &hermes_home.join("hooks")] {
            std::fs::create_dir_all(dir).unwrap();
        }
        Self {
            _root: root,
            home,
            hermes_home,
            workspace,
            outside,
            tmp,
            files,
        }
    }

    fn sandbox(&self, network: NetworkAccess) -> Arc<Sandbox> {
        let shell = ShellContext {
            home: self.home.clone(),
            hermes_home: self.hermes_home.clone(),
        };
        let settings = SandboxSettings {
            mode: SandboxMode::WorkspaceWrite,
            network,
            writable_roots: Vec::new(),
        };
        Arc::new(
            Sandbox::new(settings, Support::probe(), shell).with_temp_dirs(vec![self.tmp.clone()]),
        )
    }

    /// `command` with the placeholders filled in, run with HOME and TMPDIR set to ours.
    fn script(&self, command: &str) -> String {
        let command = command
            .replace("$HH", &self.hermes_home.display().to_string())
            .replace("$OUT", &self.outside.display().to_string())
            .replace("$WS", &self.workspace.display().to_string());
        format!(
            "export HOME='{}' TMPDIR='{}'; cd '{}' || exit 90; {command}",
            self.home.display(),
            self.tmp.display(),
            self.workspace.display()
        )
    }

    fn assert_intact(&self, after: &str) {
        for (path, bytes) in &self.files {
            let now = std::fs::read(path).unwrap_or_else(|e| {
                panic!("canary {} is gone after `{after}`: {e}", path.display())
            });
            assert_eq!(
                &now,
                bytes,
                "canary {} changed after `{after}`",
                path.display()
            );
        }
        assert!(!self.home.join(".bash_aliases").exists(), "after `{after}`");
        assert!(!self.outside.join("new-file").exists(), "after `{after}`");
        assert!(!self.outside.join(".git").exists(), "after `{after}`");
    }
}

fn context(policy: Arc<EverythingBenign>, cwd: &Path) -> ToolContext {
    ToolContext {
        call_id: "call_1".to_string(),
        session_id: "sandbox-e2e".to_string(),
        cwd: cwd.to_path_buf(),
        limits: ToolLimits {
            terminal_timeout: std::time::Duration::from_secs(20),
            ..ToolLimits::default()
        },
        cancel: CancellationToken::new(),
        host: Arc::new(QuietHost),
        policy,
        session: Arc::new(SessionTools::new()),
        env: Arc::new(ToolEnv::default()),
        delegator: None,
        vision: None,
        nested: None,
    }
}

fn policy(sandbox: Arc<Sandbox>, escalation: CommandVerdict) -> Arc<EverythingBenign> {
    Arc::new(EverythingBenign {
        sandbox,
        escalation,
        asked: Mutex::new(Vec::new()),
    })
}

async fn terminal(ctx: &ToolContext, command: &str) -> hermes::tools::ToolOutput {
    TerminalTool
        .call(serde_json::json!({ "command": command }), ctx)
        .await
}

fn refused() -> CommandVerdict {
    CommandVerdict::Deny {
        reason: "the sandbox blocked it (test)".to_string(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn destructive_commands_leave_every_canary_intact() {
    let m = Canaries::new();
    let policy = policy(m.sandbox(NetworkAccess::Allowed), refused());
    let ctx = context(Arc::clone(&policy), &m.workspace);
    let commands: Vec<&str> = CORPUS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    assert!(
        commands.len() >= 150,
        "the corpus has {} commands",
        commands.len()
    );
    for command in &commands {
        terminal(&ctx, &m.script(command)).await;
        m.assert_intact(command);
    }
    // Nothing secret reached the workspace, whatever was copied there.
    let mut leaked = Vec::new();
    for entry in walk(&m.workspace) {
        if std::fs::read(&entry)
            .is_ok_and(|b| b.windows(SECRET.len()).any(|w| w == SECRET.as_bytes()))
        {
            leaked.push(entry);
        }
    }
    assert!(leaked.is_empty(), "the secret leaked into {leaked:?}");
    for path in [
        "/etc/hermes-canary",
        "/usr/local/bin/hermes-canary",
        "/opt/hermes-canary",
        "/var/lib/hermes-canary",
    ] {
        assert!(!Path::new(path).exists(), "{path} was created");
    }
    assert!(
        !policy.asked.lock().unwrap().is_empty(),
        "some refusals were escalated"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn work_inside_the_workspace_still_works() {
    let m = Canaries::new();
    let ctx = context(
        policy(m.sandbox(NetworkAccess::Allowed), refused()),
        &m.workspace,
    );
    let steps = [
        "echo a > f1 && mkdir -p d/e && touch d/e/f && ls d/e",
        "python3 -c \"open('p.txt','w').write('ok')\" && cat p.txt",
        "sed -i s/a/b/ f1 && cp f1 f2 && mv f2 f3 && rm f3 && ln -s f1 link && cat link",
        "tar -czf a.tgz f1 && mkdir -p x && tar -xzf a.tgz -C x && cat x/f1",
        "git init -q repo && cd repo && git -c user.email=a@b -c user.name=n commit -q --allow-empty -m m && git log --oneline | wc -l",
        "echo t > \"$TMPDIR/scratch\" && cat \"$TMPDIR/scratch\" > from-tmp && echo > /dev/null",
        "cat /etc/hostname > h && ls / > root.txt && head -c 16 /dev/urandom | wc -c",
        "perl -e 'open(F, \">\", \"perl.txt\") or die; print F \"p\"' && cat perl.txt",
    ];
    for step in steps {
        let out = terminal(&ctx, &m.script(step)).await;
        assert_eq!(out.outcome, ToolOutcome::Ok, "`{step}`: {}", out.content);
        assert!(
            out.content.contains("exit code 0"),
            "`{step}`: {}",
            out.content
        );
    }
    assert_eq!(
        std::fs::read_to_string(m.workspace.join("f1")).unwrap(),
        "b\n"
    );
    assert!(m.workspace.join("repo/.git").is_dir());
    assert_eq!(
        std::fs::read_to_string(m.workspace.join("from-tmp")).unwrap(),
        "t\n"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn network_off_refuses_a_loopback_connection_and_on_allows_it() {
    let url = format!("http://{}/", http_ok_server());
    let m = Canaries::new();
    let curl = format!("curl -sS --max-time 5 -o /dev/null -w '%{{http_code}}' {url}");
    let refusing = policy(m.sandbox(NetworkAccess::Denied), refused());
    let off = context(Arc::clone(&refusing), &m.workspace);
    let out = terminal(&off, &m.script(&curl)).await;
    assert_eq!(out.outcome, ToolOutcome::Denied, "{}", out.content);
    assert!(!out.content.contains("200"), "{}", out.content);
    let asked = refusing.asked.lock().unwrap().clone();
    assert_eq!(asked, ["a network connection (sandbox.network is false)"]);
    let on = context(
        policy(m.sandbox(NetworkAccess::Allowed), refused()),
        &m.workspace,
    );
    let out = terminal(&on, &m.script(&curl)).await;
    assert!(
        out.content.contains("200") && out.content.contains("exit code 0"),
        "{}",
        out.content
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_write_is_escalated_naming_the_path() {
    let m = Canaries::new();
    let target = m.outside.join("notes.txt");
    let command = m.script(&format!("echo approved > {}", target.display()));
    // Refused: not run outside, and the model is told the sandbox blocked it and where.
    let refusing = policy(m.sandbox(NetworkAccess::Allowed), refused());
    let out = terminal(&context(Arc::clone(&refusing), &m.workspace), &command).await;
    assert_eq!(out.outcome, ToolOutcome::Denied, "{}", out.content);
    assert!(!target.exists());
    let asked = refusing.asked.lock().unwrap().clone();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert!(
        asked[0].contains(&target.display().to_string()),
        "{asked:?}"
    );
    // Approved: re-run once outside the sandbox, and it works.
    let approving = policy(m.sandbox(NetworkAccess::Allowed), CommandVerdict::Approved);
    let out = terminal(&context(approving, &m.workspace), &command).await;
    assert_eq!(out.outcome, ToolOutcome::Ok, "{}", out.content);
    assert!(
        out.content.contains("outside the sandbox"),
        "{}",
        out.content
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "approved\n");
}

/// A loopback server answering every request with `200 OK`; its address.
fn http_ok_server() -> std::net::SocketAddr {
    use std::io::Read;
    use std::io::Write;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let mut buf = [0u8; 4096];
            let _ = stream.read(&mut buf);
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok");
        }
    });
    addr
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        match entry.file_type() {
            Ok(t) if t.is_dir() => out.extend(walk(&path)),
            Ok(t) if t.is_file() => out.push(path),
            _ => {}
        }
    }
    out
}
