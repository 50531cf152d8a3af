//! A minimal loopback HTTP/1.1 server for the providers' network-level unit tests (the full
//! scripted provider server lives in tests/support). Each accepted connection consumes the
//! next scripted `Reply`; requests (head + body) are recorded for assertions.

use std::sync::Arc;
use std::sync::Mutex;

use tokio::io::AsyncReadExt;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tokio::net::TcpStream;

#[derive(Debug, Clone)]
pub enum Reply {
    /// Write these bytes (a whole HTTP response) and close.
    Raw(String),
    /// Write these bytes, then keep the connection open and silent.
    Stall(String),
    /// Close with a TCP reset without answering.
    Reset,
}

impl Reply {
    pub fn json(status: u16, body: &str) -> Self {
        Self::with_headers(status, "application/json", &[], body)
    }

    pub fn sse(body: &str) -> Self {
        Self::with_headers(200, "text/event-stream", &[], body)
    }

    pub fn with_headers(
        status: u16,
        content_type: &str,
        extra: &[(&str, &str)],
        body: &str,
    ) -> Self {
        let mut head = format!(
            "HTTP/1.1 {status} X\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n",
            body.len()
        );
        for (k, v) in extra {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        Self::Raw(format!("{head}\r\n{body}"))
    }
}

#[derive(Debug, Clone)]
pub struct Recorded {
    pub head: String,
    pub body: String,
}

pub struct TestServer {
    pub base: String,
    pub requests: Arc<Mutex<Vec<Recorded>>>,
}

impl TestServer {
    pub async fn start(script: Vec<Reply>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let recorded = requests.clone();
        tokio::spawn(async move {
            for reply in script {
                let Ok((mut sock, _)) = listener.accept().await else {
                    return;
                };
                let req = read_request(&mut sock).await;
                recorded.lock().unwrap().push(req);
                tokio::spawn(answer(sock, reply));
            }
        });
        Self { base, requests }
    }

    pub fn bodies(&self) -> Vec<serde_json::Value> {
        let reqs = self.requests.lock().unwrap();
        reqs.iter()
            .map(|r| serde_json::from_str(&r.body).unwrap())
            .collect()
    }
}

async fn answer(mut sock: TcpStream, reply: Reply) {
    match reply {
        Reply::Raw(bytes) => {
            let _ = sock.write_all(bytes.as_bytes()).await;
            let _ = sock.shutdown().await;
        }
        Reply::Stall(bytes) => {
            let _ = sock.write_all(bytes.as_bytes()).await;
            let _ = sock.flush().await;
            tokio::time::sleep(std::time::Duration::from_secs(30)).await;
        }
        Reply::Reset => {
            let _ = sock.set_zero_linger();
            drop(sock);
        }
    }
}

async fn read_request(sock: &mut TcpStream) -> Recorded {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let n = sock.read(&mut chunk).await.unwrap_or(0);
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
        let text = String::from_utf8_lossy(&buf);
        if let Some(end) = text.find("\r\n\r\n") {
            let head = text[..end].to_string();
            let len = head
                .lines()
                .find_map(|l| {
                    let (k, v) = l.split_once(':')?;
                    k.eq_ignore_ascii_case("content-length")
                        .then(|| v.trim().parse::<usize>().ok())?
                })
                .unwrap_or(0);
            if buf.len() >= end + 4 + len {
                let body = String::from_utf8_lossy(&buf[end + 4..end + 4 + len]).into_owned();
                return Recorded { head, body };
            }
        }
    }
    Recorded {
        head: String::from_utf8_lossy(&buf).into_owned(),
        body: String::new(),
    }
}
