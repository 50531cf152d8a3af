//! Test support shared by integration tests and `examples/scripted_provider.rs`: the scripted
//! provider server, a real HTTP/1.1 server on 127.0.0.1 that speaks OpenAI chat completions,
//! Anthropic Messages, OpenAI Responses (streamed and not) and Bedrock ConverseStream, replays a script of responses and faults, and
//! records every request. See `tests/support/README.md` for the script JSON format.
//!
//! It never touches the network beyond loopback. Include it with `mod support;` from a test
//! crate; not every crate uses every item, hence the `dead_code` allowance.

#![allow(dead_code, unused_imports)]

pub mod display;
mod echo;
pub mod engine;
pub mod env;
mod eventstream_bedrock;
pub mod http;
pub mod mcp;
mod reply;
pub mod request;
pub mod script;
pub mod server;
pub mod sigv4_check;
mod sse_anthropic;
mod sse_openai;
mod sse_responses;
pub mod tmux;
pub mod tmux_app;

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
