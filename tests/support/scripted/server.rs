//! The scripted provider server: accepts connections on 127.0.0.1, records every request, and
//! answers completion requests from the script queue (or echo mode).
//!
//! One request per connection (`Connection: close`). Every completion endpoint (chat
//! completions, messages, responses, Bedrock converse-stream) shares one queue; a request
//! records and pops under the same lock, so `requests()` order matches the order script
//! entries were consumed. A Bedrock request without a well-formed SigV4 (or bearer)
//! `Authorization` gets HTTP 403 without consuming an entry. The server stops when the
//! `ScriptedServer` is dropped. It does not retry, validate request schemas, or talk to
//! anything but loopback.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::MutexGuard;
use std::sync::PoisonError;
use std::time::Duration;

use serde_json::Value;
use serde_json::json;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tokio::net::TcpStream;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::echo::echo_response;
use super::http;
use super::reply;
use super::reply::Dialect;
use super::reply::Reply;
use super::reply::RequestCtx;
use super::reply::StreamEnd;
pub use super::request::Endpoint;
pub use super::request::RecordedRequest;
use super::script::Response;
use super::script::ResponseKind;
use super::sigv4_check;

/// A client that connects but never finishes its request is dropped after this long.
const READ_TIMEOUT: Duration = Duration::from_secs(60);

/// Where answers come from.
#[derive(Debug, Clone)]
pub enum Mode {
    /// Replay these responses in order; HTTP 500 "script exhausted" afterwards.
    Script(Vec<Response>),
    /// Answer every request from its own messages (see `echo`), pausing between chunks.
    Echo { delay_ms_between_chunks: u64 },
}

enum Source {
    Script(VecDeque<Response>),
    Echo { delay_ms: u64 },
}

struct Inner {
    source: Source,
    requests: Vec<RecordedRequest>,
}

struct Shared {
    inner: Mutex<Inner>,
    /// Number of recorded requests, for `wait_for_requests`.
    count: watch::Sender<usize>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panicking test thread must not hide the recorded requests from the others.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A running scripted provider. Dropping it stops the server.
pub struct ScriptedServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    cancel: CancellationToken,
}

impl Drop for ScriptedServer {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

impl ScriptedServer {
    /// Start on a random port on the current tokio runtime. Panics if binding fails.
    ///
    /// With `#[tokio::test]`'s current-thread runtime the server only runs while the test
    /// awaits; a test that blocks (std::process, thread::sleep) should use
    /// [`ScriptedServer::start_on_own_thread`] or a multi-thread runtime.
    pub async fn start(script: impl IntoIterator<Item = Response>) -> Self {
        let mode = Mode::Script(script.into_iter().collect());
        match Self::bind(0, mode).await {
            Ok(server) => server,
            Err(e) => panic!("scripted provider: cannot bind 127.0.0.1: {e}"),
        }
    }

    /// Start in echo mode on a random port on the current tokio runtime.
    pub async fn start_echo() -> Self {
        let mode = Mode::Echo {
            delay_ms_between_chunks: 0,
        };
        match Self::bind(0, mode).await {
            Ok(server) => server,
            Err(e) => panic!("scripted provider: cannot bind 127.0.0.1: {e}"),
        }
    }

    /// Start on a random port with its own thread and runtime, for synchronous tests.
    pub fn start_on_own_thread(script: impl IntoIterator<Item = Response>) -> Self {
        let mode = Mode::Script(script.into_iter().collect());
        match Self::bind_on_own_thread(0, mode) {
            Ok(server) => server,
            Err(e) => panic!("scripted provider: cannot start: {e}"),
        }
    }

    /// Echo mode with its own thread and runtime, for synchronous tests (tmux).
    pub fn start_echo_on_own_thread() -> Self {
        let mode = Mode::Echo {
            delay_ms_between_chunks: 0,
        };
        match Self::bind_on_own_thread(0, mode) {
            Ok(server) => server,
            Err(e) => panic!("scripted provider: cannot start: {e}"),
        }
    }

    /// Bind 127.0.0.1:`port` (0 = random) and serve on the current tokio runtime.
    pub async fn bind(port: u16, mode: Mode) -> std::io::Result<Self> {
        let listener = TcpListener::bind(("127.0.0.1", port)).await?;
        let server = Self::new(listener.local_addr()?, mode);
        tokio::spawn(accept_loop(
            listener,
            Arc::clone(&server.shared),
            server.cancel.clone(),
        ));
        Ok(server)
    }

    /// Bind 127.0.0.1:`port` (0 = random) and serve from a dedicated thread.
    pub fn bind_on_own_thread(port: u16, mode: Mode) -> std::io::Result<Self> {
        let std_listener = std::net::TcpListener::bind(("127.0.0.1", port))?;
        std_listener.set_nonblocking(true)?;
        let server = Self::new(std_listener.local_addr()?, mode);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let (shared, cancel) = (Arc::clone(&server.shared), server.cancel.clone());
        std::thread::Builder::new()
            .name("scripted-provider".into())
            .spawn(move || {
                runtime.block_on(async move {
                    if let Ok(listener) = TcpListener::from_std(std_listener) {
                        accept_loop(listener, shared, cancel).await;
                    }
                });
            })?;
        Ok(server)
    }

    fn new(addr: SocketAddr, mode: Mode) -> Self {
        let source = match mode {
            Mode::Script(list) => Source::Script(list.into()),
            Mode::Echo {
                delay_ms_between_chunks,
            } => Source::Echo {
                delay_ms: delay_ms_between_chunks,
            },
        };
        let inner = Inner {
            source,
            requests: Vec::new(),
        };
        Self {
            addr,
            shared: Arc::new(Shared {
                inner: Mutex::new(inner),
                count: watch::Sender::new(0),
            }),
            cancel: CancellationToken::new(),
        }
    }

    /// `http://127.0.0.1:PORT/v1` — the OpenAI-style base URL.
    pub fn base_url(&self) -> String {
        format!("{}/v1", self.root_url())
    }

    /// A `config.yaml` that points hermes at this server (`custom` provider, `scripted-model`).
    pub fn config_yaml(&self) -> String {
        format!(
            "model:\n  provider: custom\n  base_url: {}\n  default: scripted-model\n",
            self.base_url()
        )
    }

    /// `http://127.0.0.1:PORT` — for clients that append `/v1/...` themselves.
    pub fn root_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// Append a response to the script (no effect in echo mode).
    pub fn push(&self, response: Response) {
        if let Source::Script(queue) = &mut self.shared.lock().source {
            queue.push_back(response);
        }
    }

    /// Script entries not yet consumed (0 in echo mode).
    pub fn remaining(&self) -> usize {
        match &self.shared.lock().source {
            Source::Script(queue) => queue.len(),
            Source::Echo { .. } => 0,
        }
    }

    /// The JSON body of every request so far, in arrival order (`Null` when not JSON).
    pub fn bodies(&self) -> Vec<Value> {
        self.requests().into_iter().map(|r| r.body).collect()
    }

    /// Every request so far, in arrival order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.lock().requests.clone()
    }

    /// Only the completion requests (every wire format), in arrival order.
    pub fn completion_requests(&self) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| r.endpoint().is_completion())
            .collect()
    }

    /// Wait until at least `n` requests were recorded and return them all. Panics after
    /// `timeout` with the number seen, so a test failure says what happened.
    pub async fn wait_for_requests(&self, n: usize, timeout: Duration) -> Vec<RecordedRequest> {
        let mut rx = self.shared.count.subscribe();
        match tokio::time::timeout(timeout, rx.wait_for(|count| *count >= n)).await {
            Ok(Ok(_)) => self.requests(),
            _ => panic!(
                "scripted provider: waited {timeout:?} for {n} requests, saw {}",
                self.requests().len()
            ),
        }
    }
}

async fn accept_loop(listener: TcpListener, shared: Arc<Shared>, cancel: CancellationToken) {
    loop {
        let accepted = tokio::select! {
            () = cancel.cancelled() => return,
            accepted = listener.accept() => accepted,
        };
        let Ok((stream, _)) = accepted else {
            // Transient accept errors (e.g. EMFILE) must not kill the server.
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        let (shared, cancel) = (Arc::clone(&shared), cancel.clone());
        tokio::spawn(async move {
            tokio::select! {
                () = cancel.cancelled() => {}
                () = serve(stream, &shared) => {}
            }
        });
    }
}

async fn serve(mut stream: TcpStream, shared: &Shared) {
    // SSE chunks must leave immediately, not wait for Nagle.
    let _ = stream.set_nodelay(true);
    let raw = match tokio::time::timeout(READ_TIMEOUT, http::read_request(&mut stream)).await {
        Ok(Ok(raw)) => raw,
        Ok(Err(http::HttpError::Malformed(why))) => {
            let body = json!({"error": {"message": format!("malformed request: {why}")}});
            let _ = http::write_fixed(&mut stream, 400, &[], reply::JSON, &body.to_string()).await;
            return;
        }
        _ => return,
    };
    let reply = answer(shared, raw);
    // A client hanging up mid-answer is normal (interrupt tests); nothing to report.
    let _ = write_reply(&mut stream, reply).await;
}

/// Record the request and decide the answer, under one lock.
fn answer(shared: &Shared, raw: http::RawRequest) -> Reply {
    let body: Value = serde_json::from_slice(&raw.body).unwrap_or(Value::Null);
    let endpoint = Endpoint::of(&raw.method, &raw.path);
    let auth = (endpoint == Endpoint::ConverseStream).then(|| sigv4_check::check(&raw.headers));
    let mut inner = shared.lock();
    inner.requests.push(RecordedRequest {
        head: raw.head,
        method: raw.method.clone(),
        path: raw.path.clone(),
        headers: raw.headers,
        body: body.clone(),
        raw_body: raw.body,
    });
    let seq = inner.requests.len() as u64;
    shared.count.send_replace(inner.requests.len());
    // A raw entry answers whatever comes next (any API, not only completions).
    if let Source::Script(queue) = &mut inner.source
        && matches!(
            queue.front(),
            Some(Response {
                kind: ResponseKind::Raw { .. },
                ..
            })
        )
        && let Some(next) = queue.pop_front()
    {
        return reply::render(&next, &RequestCtx::from_body(Dialect::OpenAi, &body, seq));
    }
    let dialect = match endpoint {
        Endpoint::ChatCompletions => Dialect::OpenAi,
        Endpoint::Messages => Dialect::Anthropic,
        Endpoint::Responses => Dialect::Responses,
        Endpoint::ConverseStream => Dialect::Bedrock,
        Endpoint::Models => return models(),
        Endpoint::Other => {
            let message = format!("no route for {} {}", raw.method, raw.path);
            return reply::error(Dialect::OpenAi, 404, &message);
        }
    };
    // Like strict servers: tool calls must be answered before anything else is said. The
    // request is recorded, no script entry is used.
    if dialect == Dialect::OpenAi {
        let body_messages = body["messages"].as_array().map(Vec::as_slice);
        let missing = super::request::unanswered_tool_calls(body_messages.unwrap_or_default());
        if !missing.is_empty() {
            let message = format!(
                "An assistant message with 'tool_calls' must be followed by tool messages \
                 responding to each 'tool_call_id'. The following tool_call_ids did not have \
                 response messages: {}",
                missing.join(", ")
            );
            return reply::error(dialect, 400, &message);
        }
    }
    let mut ctx = RequestCtx::from_body(dialect, &body, seq);
    if dialect == Dialect::Bedrock {
        if let Some(Err(why)) = auth {
            return reply::error(Dialect::Bedrock, 403, &why);
        }
        ctx.model = super::request::converse_model(&raw.path).unwrap_or_default();
    }
    match &mut inner.source {
        Source::Echo { delay_ms } => {
            reply::render(&echo_response(&body, seq).with_delay_ms(*delay_ms), &ctx)
        }
        Source::Script(queue) => match queue.front() {
            None => reply::exhausted(dialect, seq, &raw.method, &raw.path),
            Some(Response {
                kind: ResponseKind::RejectStreaming { .. },
                ..
            }) if ctx.stream => reply::error(dialect, 400, "streaming is not supported"),
            Some(_) => match queue.pop_front() {
                Some(next) => reply::render(&next, &ctx),
                None => reply::exhausted(dialect, seq, &raw.method, &raw.path),
            },
        },
    }
}

fn models() -> Reply {
    let body = json!({"object": "list", "data": [{"id": "scripted-model", "object": "model"}]});
    Reply::Fixed {
        status: 200,
        headers: Vec::new(),
        content_type: reply::JSON,
        body: body.to_string(),
    }
}

async fn write_reply(stream: &mut TcpStream, reply: Reply) -> std::io::Result<()> {
    match reply {
        Reply::Fixed {
            status,
            headers,
            content_type,
            body,
        } => {
            http::write_fixed(stream, status, &headers, content_type, &body).await?;
            stream.shutdown().await
        }
        // SO_LINGER 0: closing now sends RST instead of FIN, so the client sees a reset.
        Reply::Reset => stream.set_zero_linger(),
        Reply::Raw { bytes, stall } => {
            stream.write_all(&bytes).await?;
            stream.flush().await?;
            if stall.is_zero() {
                stream.shutdown().await
            } else {
                tokio::time::sleep(stall).await;
                Ok(())
            }
        }
        Reply::Stream {
            content_type,
            events,
            delay,
            end,
        } => write_stream(stream, content_type, &events, delay, end).await,
        Reply::Frames {
            content_type,
            frames,
            delay,
            end,
        } => write_stream(stream, content_type, &frames, delay, end).await,
    }
}

/// A chunked 200 body, one chunk per event, ending as `end` says.
async fn write_stream<T: AsRef<[u8]>>(
    stream: &mut TcpStream,
    content_type: &str,
    events: &[T],
    delay: Duration,
    end: StreamEnd,
) -> std::io::Result<()> {
    http::start_chunked(stream, 200, content_type).await?;
    for (i, event) in events.iter().enumerate() {
        if i > 0 && !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
        http::write_chunk(stream, event.as_ref()).await?;
    }
    match end {
        StreamEnd::Complete => {
            http::finish_chunks(stream).await?;
            stream.shutdown().await
        }
        // Dropping without the final chunk: the client sees a truncated body.
        StreamEnd::StallThenDrop(stall) => {
            tokio::time::sleep(stall).await;
            Ok(())
        }
        StreamEnd::Reset => stream.set_zero_linger(),
    }
}
