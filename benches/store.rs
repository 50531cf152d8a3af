//! Session store benchmark (run: `cargo bench --bench store`):
//! - setup: 100,000 messages over 1,000 sessions (one of them 10,000 messages long), written
//!   in batched transactions; then 1,000 messages through the per-message-commit path;
//! - `session_search` discovery latency over 20 different queries (word, phrase, OR, prefix,
//!   substring fallback, CJK scan and trigram, hostile input), through the real tool;
//! - browse and scroll latency; `load_history` of the 10,000-message session, and a cold
//!   resume (open the database, resolve the session, load its history).
//!
//! Everything lives in a temp directory; nothing touches `~/.hermes`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::Duration;
use std::time::Instant;

use async_trait::async_trait;
use hermes::model::Role;
use hermes::model::ToolCall;
use hermes::protocol::ClarifyAnswer;
use hermes::safety::HardlineOnly;
use hermes::store::NewSession;
use hermes::store::SessionStore;
use hermes::store::StoredMessage;
use hermes::tools::SessionTools;
use hermes::tools::Tool;
use hermes::tools::ToolContext;
use hermes::tools::ToolHost;
use hermes::tools::ToolLimits;
use hermes::tools::session_search::SessionSearchTool;
use tokio_util::sync::CancellationToken;

const SESSIONS: usize = 1_000;
const TOTAL_MESSAGES: usize = 100_000;
const BIG_SESSION: usize = 10_000;

const TOPICS: &[&str] = &[
    "nginx",
    "kubernetes",
    "deploy",
    "segfault",
    "parser",
    "database",
    "migration",
    "websocket",
    "timeout",
    "authentication",
    "docker",
    "cache",
    "latency",
    "benchmark",
    "regex",
    "tokenizer",
    "memory",
    "leak",
    "python",
    "rust",
];

const SYLLABLES: &[&str] = &[
    "ka", "lo", "mi", "ren", "tor", "vas", "pel", "dun", "sir", "bo", "nex", "qua", "fi", "zen",
    "ul", "tra", "mor", "gin", "sta", "ve", "plo", "dri", "cas", "hem", "jur", "wel", "yon", "ix",
];

const CJK: &[&str] = &[
    "日本語のテキスト",
    "データベースの移行",
    "数据库迁移的问题",
    "サーバーの設定を確認",
    "性能测试结果",
    "メモリリークを修正",
    "部署到生产环境",
    "検索機能のテスト",
];

struct Gen {
    rng: fastrand::Rng,
    words: Vec<String>,
}

impl Gen {
    fn new() -> Self {
        let mut rng = fastrand::Rng::with_seed(42);
        let words = (0..4_000)
            .map(|_| {
                let n = rng.usize(2..=3);
                (0..n)
                    .map(|_| SYLLABLES[rng.usize(..SYLLABLES.len())])
                    .collect::<String>()
            })
            .collect();
        Self { rng, words }
    }

    /// Zipf-ish: low indexes are much more frequent.
    fn word(&mut self) -> &str {
        let i = (self.rng.f64().powi(3) * self.words.len() as f64) as usize;
        &self.words[i.min(self.words.len() - 1)]
    }

    fn text(&mut self, cjk: bool) -> String {
        let n = self.rng.usize(10..80);
        let mut out = String::new();
        for i in 0..n {
            if i > 0 && !cjk {
                out.push(' ');
            }
            if cjk {
                out.push_str(CJK[self.rng.usize(..CJK.len())]);
                out.push('、');
            } else if self.rng.u8(..100) < 4 {
                out.push_str(TOPICS[self.rng.usize(..TOPICS.len())]);
            } else {
                let w = self.word().to_string();
                out.push_str(&w);
            }
        }
        out
    }

    /// One turn: user, assistant (sometimes with a tool call and its result).
    fn turn(&mut self, cjk: bool, n: usize) -> Vec<StoredMessage> {
        let mut out = vec![StoredMessage::new(Role::User, self.text(cjk))];
        if self.rng.u8(..3) == 0 {
            let call = ToolCall {
                id: format!("call_{n}"),
                name: "terminal".into(),
                arguments: format!(r#"{{"command":"grep -rn {} src/"}}"#, self.word()),
            };
            let mut a = StoredMessage::new(Role::Assistant, "Let me check.");
            a.tool_calls = vec![call.clone()];
            out.push(a);
            let mut t = StoredMessage::new(Role::Tool, self.text(false).repeat(3));
            t.tool_call_id = Some(call.id);
            t.tool_name = Some(call.name);
            out.push(t);
        }
        out.push(StoredMessage::new(Role::Assistant, self.text(cjk)));
        out
    }
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    let i = ((samples.len() as f64 - 1.0) * p).round() as usize;
    samples[i]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

struct NullHost;

#[async_trait]
impl ToolHost for NullHost {
    fn progress(&self, _call_id: &str, _text: &str) {}
    async fn clarify(&self, _question: &str, _choices: &[String]) -> ClarifyAnswer {
        ClarifyAnswer::Declined
    }
}

fn context(dir: &std::path::Path) -> ToolContext {
    ToolContext {
        env: Arc::new(hermes::tools::ToolEnv::default()),
        nested: None,
        call_id: "bench".into(),
        session_id: "current-session".into(),
        cwd: dir.to_path_buf(),
        limits: ToolLimits::default(),
        cancel: CancellationToken::new(),
        host: Arc::new(NullHost),
        policy: Arc::new(HardlineOnly),
        session: Arc::new(SessionTools::new()),
        delegator: None,
        vision: None,
    }
}

fn session(id: &str) -> NewSession {
    NewSession {
        id: id.into(),
        model: "bench-model".into(),
        cwd: "/bench".into(),
        ..NewSession::default()
    }
}

/// Fill the store; returns the id of the 10,000-message session.
fn populate(store: &SessionStore) -> String {
    let mut g = Gen::new();
    let big = "session-0000".to_string();
    let mut written = 0usize;
    for s in 0..SESSIONS {
        let id = format!("session-{s:04}");
        store.create_session(&session(&id)).unwrap();
        let target = if s == 0 {
            BIG_SESSION
        } else {
            (TOTAL_MESSAGES - BIG_SESSION) / (SESSIONS - 1)
        };
        let cjk = s % 20 == 7;
        let mut batch = Vec::new();
        let mut n = 0;
        while n < target {
            for m in g.turn(cjk, n) {
                if n < target {
                    batch.push(m);
                    n += 1;
                }
            }
            if batch.len() >= 2_000 {
                store.append_messages(&id, &batch).unwrap();
                batch.clear();
            }
        }
        store.append_messages(&id, &batch).unwrap();
        written += n;
    }
    // Top up rounding so the total is exact.
    let rest = TOTAL_MESSAGES.saturating_sub(written);
    let filler: Vec<StoredMessage> = (0..rest)
        .map(|_| StoredMessage::new(Role::User, g.text(false)))
        .collect();
    store.append_messages("session-0001", &filler).unwrap();
    big
}

const QUERIES: &[&str] = &[
    "nginx",
    "kubernetes deploy",
    "segfault parser",
    "database migration",
    "\"websocket timeout\"",
    "authentication OR docker",
    "cach*",
    "latency benchmark",
    "regex tokenizer",
    "memory leak",
    "kalo",
    "python rust nginx",
    "zzqxvw",
    "ubernete",
    "本語",
    "データベース",
    "数据库",
    "col:x",
    "\"unbalanced",
    "mirentor",
];

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.db");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();

    let t = Instant::now();
    let store = Arc::new(SessionStore::open(&path).unwrap());
    let big = populate(&store);
    let setup = t.elapsed();

    // Per-message commit path: 1,000 appends, each its own committed transaction.
    store.create_session(&session("commit-path")).unwrap();
    let mut g = Gen::new();
    let mut commits = Vec::new();
    let t = Instant::now();
    for _ in 0..1_000 {
        let m = StoredMessage::new(Role::Assistant, g.text(false));
        let s = Instant::now();
        store.append_message("commit-path", &m).unwrap();
        commits.push(s.elapsed());
    }
    let commit_total = t.elapsed();

    let tool = SessionSearchTool::new(Arc::clone(&store));
    let ctx = context(dir.path());
    let call = |args: serde_json::Value| {
        let s = Instant::now();
        let out = rt.block_on(tool.call(args, &ctx));
        (s.elapsed(), out)
    };

    println!("hermes session store benchmark ({TOTAL_MESSAGES} messages, {SESSIONS} sessions)");
    println!("  setup (batched transactions):      {:>9.1} ms", ms(setup));
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0)
        + std::fs::metadata(dir.path().join("state.db-wal"))
            .map(|m| m.len())
            .unwrap_or(0);
    println!(
        "  database size (db + wal):          {:>9.1} MB",
        size as f64 / 1e6
    );
    println!(
        "  append_message (own commit, 1,000): p50 {:.3} ms  p95 {:.3} ms  total {:.0} ms",
        ms(percentile(&mut commits, 0.5)),
        ms(percentile(&mut commits, 0.95)),
        ms(commit_total)
    );

    println!("\n  session_search discovery (limit 5, median of 5 runs):");
    println!(
        "    {:<28} {:>10} {:>6}  first line",
        "query", "median ms", "hits"
    );
    let mut all = Vec::new();
    for q in QUERIES {
        let mut runs = Vec::new();
        let mut out = None;
        for _ in 0..5 {
            let (d, o) = call(serde_json::json!({ "query": q }));
            runs.push(d);
            out = Some(o);
        }
        all.extend(runs.iter().copied());
        let out = out.unwrap();
        let hits = out.content.matches("\n## ").count();
        let first: String = out
            .content
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .take(60)
            .collect();
        println!(
            "    {:<28} {:>10.2} {:>6}  {first}",
            q,
            ms(percentile(&mut runs, 0.5)),
            hits
        );
    }
    println!(
        "    all queries: p50 {:.2} ms  p95 {:.2} ms  max {:.2} ms",
        ms(percentile(&mut all, 0.5)),
        ms(percentile(&mut all, 0.95)),
        ms(percentile(&mut all, 1.0))
    );

    let mut browse = Vec::new();
    for _ in 0..50 {
        browse.push(call(serde_json::json!({})).0);
    }
    println!(
        "\n  browse (10 recent sessions):        p50 {:.2} ms  p95 {:.2} ms",
        ms(percentile(&mut browse, 0.5)),
        ms(percentile(&mut browse, 0.95))
    );

    let middle = store.messages(&big).unwrap()[BIG_SESSION / 2].id;
    let mut scroll = Vec::new();
    for _ in 0..50 {
        scroll.push(call(serde_json::json!({"session_id": big, "around_message_id": middle})).0);
    }
    println!(
        "  scroll (±5 in the 10k session):     p50 {:.2} ms  p95 {:.2} ms",
        ms(percentile(&mut scroll, 0.5)),
        ms(percentile(&mut scroll, 0.95))
    );

    let mut loads = Vec::new();
    for _ in 0..20 {
        let s = Instant::now();
        let h = store.load_history(&big).unwrap();
        loads.push(s.elapsed());
        assert_eq!(h.len(), BIG_SESSION);
    }
    println!(
        "  load_history (10,000 messages):     p50 {:.2} ms  p95 {:.2} ms",
        ms(percentile(&mut loads, 0.5)),
        ms(percentile(&mut loads, 0.95))
    );
    drop(tool);
    drop(store);

    // Cold resume: open the database, resolve the session by prefix, load its history.
    let mut resumes = Vec::new();
    for _ in 0..5 {
        let s = Instant::now();
        let store = SessionStore::open(&path).unwrap();
        let row = store.get_session("session-0000").unwrap().unwrap();
        let h = store.load_history(&row.id).unwrap();
        resumes.push(s.elapsed());
        assert_eq!(h.len(), BIG_SESSION);
    }
    println!(
        "  resume 10k session (open+resolve+load): p50 {:.2} ms  max {:.2} ms",
        ms(percentile(&mut resumes, 0.5)),
        ms(percentile(&mut resumes, 1.0))
    );
}
