//! The one scripted HTTP test server: a real HTTP/1.1 server on 127.0.0.1 that speaks OpenAI
//! chat completions, Anthropic Messages, OpenAI Responses (streamed and not) and Bedrock
//! ConverseStream, replays a script of responses and faults (stalls, trickled chunks, resets,
//! raw bytes for any other HTTP API), and records every request. See `README.md` beside this
//! file for the script format.
//!
//! It is compiled three times, never into hermes itself: as `support::scripted` in the
//! integration binary (`tests/all.rs`), as `crate::test_server` in the library's unit tests
//! (`src/lib.rs`, `#[cfg(test)]`), and in `examples/scripted_provider.rs`. So it uses only
//! the library's own dependencies and nothing of hermes. It never touches the network
//! beyond loopback.

#![allow(dead_code, unused_imports)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod echo;
mod eventstream_bedrock;
pub mod http;
mod reply;
pub mod request;
pub mod script;
pub mod server;
pub mod sigv4_check;
mod sse_anthropic;
mod sse_openai;
mod sse_responses;

pub use echo::echo_response;
pub use script::CONTEXT_TOO_LONG;
pub use script::Response;
pub use script::ResponseKind;
pub use script::ScriptError;
pub use script::ScriptedCall;
pub use script::ScriptedUsage;
pub use script::load_script;
pub use script::parse_script;
pub use server::Endpoint;
pub use server::Mode;
pub use server::RecordedRequest;
pub use server::ScriptedServer;
