//! A synthetic transcript for benchmarks and frame-time checks: `n` cells of mixed kinds
//! (user, reasoning, markdown replies with code, tool calls, notices), built through the same
//! `apply` path the engine's events take.

use super::Transcript;
use crate::protocol::Event;
use crate::protocol::MessageComplete;
use crate::protocol::MessageStart;
use crate::protocol::ReasoningDelta;
use crate::protocol::ToolComplete;
use crate::protocol::ToolStart;
use crate::protocol::ToolStatus;
use crate::protocol::TurnComplete;
use crate::protocol::TurnOutcome;

const REPLY: &str = "Here is what I found in **the repo**:\n\n\
- `src/main.rs` parses the CLI\n\
- the engine lives in `src/engine/`\n  - one actor per session\n\n\
```rust\nfn main() {\n    let x = 42;\n    println!(\"{x}\");\n}\n```\n\n\
See [the docs](https://example.com/docs) for more. This paragraph is long enough that it \
has to wrap on an ordinary terminal width, which exercises the word wrapper as well.\n";

/// Builds a transcript of exactly `n` cells.
pub fn bench_transcript(n: usize) -> Transcript {
    let mut t = Transcript::new();
    let mut turn = 0_u64;
    while t.len() < n {
        turn += 1;
        let step = t.len() % 5;
        match step {
            0 => t.push_user(&format!("question number {turn}: what does the code do?")),
            1 => t.apply(&Event::ReasoningDelta(ReasoningDelta {
                turn_id: turn,
                text: "Let me look at the files.\nThen summarise.\n".to_string(),
            })),
            2 => {
                let call_id = format!("call-{turn}");
                t.apply(&Event::ToolStart(ToolStart {
                    call_id: call_id.clone(),
                    name: "terminal".to_string(),
                    preview: format!("ls -la /tmp/dir_{turn}"),
                    arguments: serde_json::Value::Null,
                    parent_call_id: None,
                }));
                let output = (0..12)
                    .map(|i| format!("-rw-r--r-- 1 user user {i:>5} file_{i}.txt"))
                    .collect::<Vec<_>>()
                    .join("\n");
                t.apply(&Event::ToolComplete(ToolComplete {
                    call_id,
                    name: "terminal".to_string(),
                    status: ToolStatus::Ok,
                    output,
                    duration_ms: 120,
                }));
            }
            3 => {
                t.apply(&Event::MessageStart(MessageStart { turn_id: turn }));
                t.apply(&Event::MessageComplete(MessageComplete {
                    turn_id: turn,
                    text: REPLY.to_string(),
                    reasoning: None,
                }));
            }
            _ => t.apply(&Event::TurnComplete(TurnComplete {
                turn_id: turn,
                outcome: TurnOutcome::Interrupted {
                    done: "listed the directory".to_string(),
                },
            })),
        }
    }
    t
}
