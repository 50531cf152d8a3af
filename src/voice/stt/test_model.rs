//! Test support for the STT tests: a one-thread HTTP/1.1 server on 127.0.0.1 that answers each
//! connection with the next canned reply (raw bytes, so tests can also send broken ones) and
//! records requests; and a model-file header that passes `check_model_file`.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

/// One request as received.
#[derive(Debug, Clone)]
pub struct Recorded {
    /// Request line and headers, as sent.
    pub head: String,
    pub body: Vec<u8>,
}

impl Recorded {
    /// A header's value (name case-insensitive).
    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().skip(1).find_map(|line| {
            let (k, v) = line.split_once(':')?;
            k.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_string())
        })
    }
}

pub type Requests = Arc<Mutex<Vec<Recorded>>>;

/// A complete response with `Content-Length` and `Connection: close`.
pub fn reply(status: &str, content_type: &str, body: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body);
    out
}

/// Serves `replies` in order (one per connection); returns `http://127.0.0.1:PORT`.
pub fn serve(replies: Vec<Vec<u8>>) -> (String, Requests) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let requests: Requests = Arc::default();
    let seen = Arc::clone(&requests);
    std::thread::spawn(move || {
        for raw in replies {
            let Ok((mut stream, _)) = listener.accept() else {
                return;
            };
            let recorded = read_request(&mut stream);
            seen.lock().unwrap().push(recorded);
            let _ = stream.write_all(&raw);
            let _ = stream.flush();
        }
    });
    (url, requests)
}

fn read_request(stream: &mut std::net::TcpStream) -> Recorded {
    let mut data = Vec::new();
    let mut buf = [0u8; 8192];
    let head_end = loop {
        if let Some(pos) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break pos + 4;
        }
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break data.len(),
            Ok(n) => data.extend_from_slice(&buf[..n]),
        }
    };
    let head = String::from_utf8_lossy(&data[..head_end]).into_owned();
    let mut recorded = Recorded {
        head,
        body: Vec::new(),
    };
    let length: usize = recorded
        .header("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut body = data[head_end..].to_vec();
    while body.len() < length {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => body.extend_from_slice(&buf[..n]),
        }
    }
    recorded.body = body;
    recorded
}

/// The tiny.en ggml header: magic, then n_vocab … ftype (no weights).
pub fn tiny_header() -> Vec<u8> {
    let mut bytes = super::whisper::GGML_MAGIC.to_vec();
    for v in [51864i32, 1500, 384, 6, 4, 448, 384, 6, 4, 80, 1] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    bytes
}
