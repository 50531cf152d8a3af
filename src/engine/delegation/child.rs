//! What a subagent starts with: a fresh `SessionSpec` built from its parent's (same cwd,
//! limits, store, environment, approval settings; the delegation model if configured; the
//! parent's tools minus the blocked ones) and a focused system prompt made only of the goal,
//! the context and the project's context file — never SOUL.md, memory or the parent's history.

use std::sync::Arc;

use super::Delegations;
use crate::engine::guard::SafetySpec;
use crate::engine::session_spec::BusyInputMode;
use crate::engine::session_spec::SessionSpec;
use crate::knowledge::context_files;
use crate::protocol::SubagentRole;
use crate::tools::DelegatedTask;

/// Tools no leaf child gets (Hermes's list): it cannot delegate, ask the user, or touch
/// the shared memory.
pub const LEAF_BLOCKED: [&str; 5] = [
    "delegate_task",
    "clarify",
    "memory",
    "send_message",
    "execute_code",
];
/// An orchestrator keeps `delegate_task`.
pub const ORCHESTRATOR_BLOCKED: [&str; 4] = ["clarify", "memory", "send_message", "execute_code"];

const CHILD_PROMPT: &str = "You are a subagent: another AI agent handed you one task. You \
work alone in the user's workspace with the tools you have; nobody will answer questions, so \
make reasonable decisions and note them. Finish the task, wait for any build or test you \
started, and then reply with a structured summary in exactly these sections:\n\n\
## What I did\n## What I found\n## Files changed\n## Problems\n\n\
Keep it factual and short; your parent reads only this summary.";

/// The spec of child `id` for `task`.
pub fn child_spec(
    parent: &Delegations,
    id: &str,
    parent_session_id: &str,
    label: &str,
    role: SubagentRole,
    max_iterations: u32,
) -> SessionSpec {
    let base = &parent.base;
    let blocked: &[&str] = match role {
        SubagentRole::Leaf => &LEAF_BLOCKED,
        SubagentRole::Orchestrator => &ORCHESTRATOR_BLOCKED,
    };
    let endpoint = parent
        .settings
        .endpoint
        .clone()
        .unwrap_or_else(|| base.endpoint.clone());
    let mut safety = SafetySpec::in_memory(base.shell.home.clone());
    safety.approvals = base.approvals.clone();
    safety.shell = base.shell.clone();
    safety.home = None;
    safety.checkpoints = base.checkpoints.clone();
    safety.redactor = base.redactor.clone();
    safety.agent = label.to_string();
    SessionSpec {
        session_id: crate::engine::session::new_session_id(),
        endpoint,
        tools: Arc::new(base.current_tools().without(blocked)),
        yolo: base.yolo,
        system_prompt: system_prompt(
            base.project_context
                .get_or_init(|| project_context(&base.cwd)),
        ),
        cwd: base.cwd.clone(),
        limits: base.limits.clone(),
        max_iterations: max_iterations.max(1),
        max_tokens: base.max_tokens,
        busy_input: BusyInputMode::Queue,
        switcher: None,
        store: base.store.clone(),
        resumed: None,
        skills: None,
        tool_env: Arc::clone(&base.tool_env),
        env_file: None,
        compression: base.compression,
        summariser: None,
        slash_commands: Vec::new(),
        discovery: None,
        safety,
        delegation: parent.child_delegation(id, parent_session_id),
        // Children have no goal commands; the loop belongs to the main agent.
        goals: crate::engine::session_spec::GoalSettings::default(),
        vision: base.vision.clone(),
        mcp: None,
        toolsets: None,
        cron: None,
        exit_reason: crate::store::EndReason::AgentClose,
    }
}

fn system_prompt(project_context: &str) -> String {
    if project_context.trim().is_empty() {
        CHILD_PROMPT.to_string()
    } else {
        format!("{CHILD_PROMPT}\n\n{project_context}")
    }
}

/// The first user message: the goal and the context, nothing else.
pub fn task_message(task: &DelegatedTask) -> String {
    if task.context.trim().is_empty() {
        format!("Goal: {}", task.goal)
    } else {
        format!("Goal: {}\n\nContext:\n{}", task.goal, task.context)
    }
}

/// The project's context file for children, rendered as the main prompt renders it.
pub fn project_context(cwd: &std::path::Path) -> String {
    context_files::render_for_prompt(&context_files::load_project_context(cwd))
}
