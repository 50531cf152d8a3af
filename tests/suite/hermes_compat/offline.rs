//! A proxy on 127.0.0.1 that refuses every request and records what was asked for. Both
//! programs get it as `HTTP(S)_PROXY`/`ALL_PROXY` (with `NO_PROXY=127.0.0.1,localhost`, so the
//! scripted provider is reached directly): anything else — Python Hermes's model-metadata
//! fetch from openrouter.ai, an update check — fails at once with a 403 instead of touching
//! the internet or waiting for a DNS or connect timeout.
//!
//! It does not forward anything. Invariant: every connection gets an answer and is closed, so
//! a client never hangs on it.

use std::io::BufRead;
use std::io::BufReader;
use std::io::Write;
use std::net::SocketAddr;
use std::net::TcpListener;
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::PoisonError;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// A running refusing proxy. Dropping it stops it.
pub struct RefusingProxy {
    addr: SocketAddr,
    attempts: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
}

impl RefusingProxy {
    pub fn start() -> Self {
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let addr = listener.local_addr().unwrap();
        let attempts = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (seen, stopping) = (Arc::clone(&attempts), Arc::clone(&stop));
        std::thread::Builder::new()
            .name("refusing-proxy".into())
            .spawn(move || {
                for stream in listener.incoming() {
                    if stopping.load(Ordering::SeqCst) {
                        break;
                    }
                    if let Ok(stream) = stream {
                        refuse(stream, &seen);
                    }
                }
            })
            .unwrap();
        Self {
            addr,
            attempts,
            stop,
        }
    }

    /// `http://127.0.0.1:PORT`, for the proxy variables.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The first line of every request refused so far (`CONNECT openrouter.ai:443 HTTP/1.1`).
    pub fn attempts(&self) -> Vec<String> {
        self.attempts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl Drop for RefusingProxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(self.addr);
    }
}

fn refuse(stream: TcpStream, seen: &Mutex<Vec<String>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let mut reader = BufReader::new(&stream);
    let mut line = String::new();
    if reader.read_line(&mut line).is_ok() && !line.trim().is_empty() {
        seen.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(line.trim().to_string());
    }
    let mut stream = &stream;
    let _ = stream
        .write_all(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
}

#[test]
fn refuses_and_records_every_request() {
    use std::io::Read;
    let proxy = RefusingProxy::start();
    let mut stream = TcpStream::connect(proxy.addr).unwrap();
    stream
        .write_all(b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
    assert_eq!(proxy.attempts(), ["CONNECT example.com:443 HTTP/1.1"]);
}
