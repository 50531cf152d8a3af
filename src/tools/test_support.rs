//! Test helpers for the tools: a `ToolHost` that records progress lines and answers clarify
//! questions from a script, and a `ToolContext` over a temp directory with YOLO on.

use std::path::Path;
use std::sync::Arc;
use std::sync::Mutex;

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

use crate::protocol::ClarifyAnswer;
use crate::safety::HardlineOnly;
use crate::tools::SessionTools;
use crate::tools::ToolContext;
use crate::tools::ToolHost;
use crate::tools::ToolLimits;

#[derive(Default)]
pub struct FakeHost {
    pub progress: Mutex<Vec<String>>,
    pub questions: Mutex<Vec<(String, Vec<String>)>>,
    /// The answer to give; `None` = never answer (wait forever).
    pub answer: Mutex<Option<ClarifyAnswer>>,
}

impl FakeHost {
    pub fn answering(answer: ClarifyAnswer) -> Self {
        Self {
            answer: Mutex::new(Some(answer)),
            ..Self::default()
        }
    }

    pub fn lines(&self) -> Vec<String> {
        self.progress.lock().unwrap().clone()
    }
}

#[async_trait]
impl ToolHost for FakeHost {
    fn progress(&self, _call_id: &str, text: &str) {
        self.progress.lock().unwrap().push(text.to_string());
    }

    async fn clarify(&self, question: &str, choices: &[String]) -> ClarifyAnswer {
        self.questions
            .lock()
            .unwrap()
            .push((question.to_string(), choices.to_vec()));
        let answer = self.answer.lock().unwrap().clone();
        match answer {
            Some(a) => a,
            None => std::future::pending().await,
        }
    }
}

/// A context rooted at `dir` with YOLO on, default limits and a fresh session.
pub fn ctx(dir: &Path) -> ToolContext {
    ctx_with(dir, Arc::new(FakeHost::default()))
}

pub fn ctx_with(dir: &Path, host: Arc<FakeHost>) -> ToolContext {
    ToolContext {
        env: Arc::new(crate::tools::ToolEnv::default()),
        call_id: "call_1".to_string(),
        session_id: "session_1".to_string(),
        cwd: dir.to_path_buf(),
        limits: ToolLimits::default(),
        cancel: CancellationToken::new(),
        host,
        policy: Arc::new(HardlineOnly),
        session: Arc::new(SessionTools::new()),
        delegator: None,
        vision: None,
        nested: None,
    }
}

/// A policy that refuses every file write (and allows every command), to check that file
/// tools ask before writing.
pub struct RefuseWrites;

#[async_trait::async_trait]
impl crate::safety::CommandPolicy for RefuseWrites {
    async fn check_command(&self, _command: &str, _cwd: &Path) -> crate::safety::CommandVerdict {
        crate::safety::CommandVerdict::Allow
    }

    async fn check_write(&self, tool: &str, path: &Path) -> crate::safety::CommandVerdict {
        crate::safety::CommandVerdict::Deny {
            reason: format!("{tool} may not write {}", path.display()),
        }
    }
}
