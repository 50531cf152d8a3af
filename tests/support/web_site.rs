//! A small loopback web site for the web tools' tests: real-world-like pages from
//! `tests/fixtures/web/` and the awkward cases a fetcher meets (redirect chains that end on a
//! private address, a page over the download cap, one that never finishes, 403/404, binary
//! data). Hand-rolled HTTP/1.1 like the scripted provider: every response is
//! `Connection: close`, and the bytes on the wire are exactly what the route says.
//!
//! Routes (`WebSite::url(path)`):
//! - `/article` (news article with nav, ads, comments, footer), `/docs` (code blocks and a
//!   table), `/hub` (an index page with no article), `/zh` (Chinese), `/ar` (Arabic, RTL),
//!   `/ru` (windows-1251, declared only in a `<meta http-equiv>`), `/ru-header` (the same
//!   bytes, declared only in the `Content-Type` header), `/gzip` (the article gzip-encoded);
//! - `/report.pdf`, `/scanned.pdf` (no text layer), `/data.json`, `/notes.txt`,
//!   `/image.png`, `/download` (binary as `application/octet-stream`);
//! - `/redirect/ok` (two hops to `/article`), `/redirect/localhost` (two hops, then to
//!   `http://localhost:PORT/secret`), `/redirect/literal` (to `http://127.0.0.2:PORT/secret`),
//!   `/redirect/metadata` (to `http://metadata.google.internal/…`), `/redirect/loop`;
//! - `/big` (12 MB, no `Content-Length`), `/big-declared` (12 MB `Content-Length`, body not
//!   sent), `/slow` (headers and half a page, then nothing until the client gives up),
//!   `/forbidden` (403), anything else 404.
//!
//! `hits()` counts requests per path, so a test can show that a refused hop was never asked.

#![allow(dead_code, clippy::expect_used, clippy::unwrap_used)]

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tokio::net::TcpStream;

pub struct WebSite {
    addr: SocketAddr,
    hits: Arc<Mutex<HashMap<String, usize>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for WebSite {
    fn drop(&mut self) {
        self.task.abort();
    }
}

pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/web")
        .join(name)
}

fn read_fixture(name: &str) -> Vec<u8> {
    std::fs::read(fixture(name)).unwrap_or_default()
}

impl WebSite {
    /// Listens on 127.0.0.1, an ephemeral port.
    pub async fn start() -> WebSite {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind loopback");
        let addr = listener.local_addr().expect("local addr");
        let hits: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
        let counter = Arc::clone(&hits);
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let counter = Arc::clone(&counter);
                tokio::spawn(async move {
                    let _ = serve(stream, addr, counter).await;
                });
            }
        });
        WebSite { addr, hits, task }
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Requests served for `path` so far.
    pub fn hits(&self, path: &str) -> usize {
        self.hits
            .lock()
            .map(|h| h.get(path).copied().unwrap_or(0))
            .unwrap_or(0)
    }
}

async fn serve(
    mut stream: TcpStream,
    addr: SocketAddr,
    hits: Arc<Mutex<HashMap<String, usize>>>,
) -> std::io::Result<()> {
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut buf).await?;
        if n == 0 || head.len() > 64 * 1024 {
            return Ok(());
        }
        head.extend_from_slice(&buf[..n]);
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let path = head.split(' ').nth(1).unwrap_or("/").to_string();
    if let Ok(mut h) = hits.lock() {
        *h.entry(path.clone()).or_default() += 1;
    }
    let port = addr.port();
    let html = "text/html; charset=utf-8";
    match path.as_str() {
        "/article" => ok(&mut stream, html, &read_fixture("article.html")).await,
        "/docs" => ok(&mut stream, html, &read_fixture("docs.html")).await,
        "/hub" => ok(&mut stream, html, &read_fixture("hub.html")).await,
        "/zh" => ok(&mut stream, html, &read_fixture("zh.html")).await,
        "/ar" => ok(&mut stream, html, &read_fixture("ar.html")).await,
        "/ru" => ok(&mut stream, "text/html", &read_fixture("ru-1251.html")).await,
        "/ru-header" => {
            // The same cp1251 bytes with the `<meta>` declaration cut out.
            let stripped = strip(&read_fixture("ru-1251.html"), b"; charset=windows-1251");
            ok(&mut stream, "text/html; charset=windows-1251", &stripped).await
        }
        "/gzip" => {
            let body = gzip(&read_fixture("article.html"));
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {html}\r\nContent-Encoding: gzip\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            write(&mut stream, head.as_bytes(), &body).await
        }
        "/report.pdf" => ok(&mut stream, "application/pdf", &read_fixture("report.pdf")).await,
        "/scanned.pdf" => ok(&mut stream, "application/pdf", &read_fixture("scanned.pdf")).await,
        "/data.json" => ok(&mut stream, "application/json", &read_fixture("data.json")).await,
        "/notes.txt" => {
            ok(
                &mut stream,
                "text/plain; charset=utf-8",
                &read_fixture("notes.txt"),
            )
            .await
        }
        "/image.png" => ok(&mut stream, "image/png", PNG).await,
        "/download" => {
            let body: Vec<u8> = (0..4096u32).map(|i| (i * 7 % 256) as u8).collect();
            ok(&mut stream, "application/octet-stream", &body).await
        }
        "/redirect/ok" => redirect(&mut stream, 301, "/redirect/ok2").await,
        "/redirect/ok2" => redirect(&mut stream, 302, "/article").await,
        "/redirect/localhost" => redirect(&mut stream, 302, "/redirect/localhost2").await,
        "/redirect/localhost2" => {
            redirect(&mut stream, 307, &format!("http://localhost:{port}/secret")).await
        }
        "/redirect/literal" => {
            redirect(&mut stream, 302, &format!("http://127.0.0.2:{port}/secret")).await
        }
        "/redirect/metadata" => {
            let to = "http://metadata.google.internal/computeMetadata/v1/instance/";
            redirect(&mut stream, 302, to).await
        }
        "/redirect/loop" => redirect(&mut stream, 302, "/redirect/loop").await,
        "/secret" => ok(&mut stream, "text/plain", b"internal admin token page").await,
        "/big" => {
            let head =
                format!("HTTP/1.1 200 OK\r\nContent-Type: {html}\r\nConnection: close\r\n\r\n");
            stream.write_all(head.as_bytes()).await?;
            stream.write_all(b"<html><body><p>").await?;
            let chunk = vec![b'a'; 64 * 1024];
            for _ in 0..(12 * 16) {
                if stream.write_all(&chunk).await.is_err() {
                    return Ok(());
                }
            }
            stream.shutdown().await
        }
        "/big-declared" => {
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {html}\r\nContent-Length: {}\r\n\
                 Connection: close\r\n\r\n",
                12 * 1024 * 1024
            );
            stream.write_all(head.as_bytes()).await?;
            tokio::time::sleep(Duration::from_secs(30)).await;
            Ok(())
        }
        "/slow" => {
            let head =
                format!("HTTP/1.1 200 OK\r\nContent-Type: {html}\r\nConnection: close\r\n\r\n");
            stream.write_all(head.as_bytes()).await?;
            stream
                .write_all(b"<html><head><title>Slow</title></head><body><p>The first half")
                .await?;
            stream.flush().await?;
            tokio::time::sleep(Duration::from_secs(120)).await;
            Ok(())
        }
        "/forbidden" => {
            let body = b"<html><head><title>403 Forbidden</title></head><body><h1>Forbidden</h1><p>You don't have permission to access this resource.</p></body></html>";
            status(&mut stream, "403 Forbidden", body).await
        }
        _ => {
            let body = b"<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>";
            status(&mut stream, "404 Not Found", body).await
        }
    }
}

fn strip(raw: &[u8], needle: &[u8]) -> Vec<u8> {
    match raw.windows(needle.len()).position(|w| w == needle) {
        Some(at) => [&raw[..at], &raw[at + needle.len()..]].concat(),
        None => raw.to_vec(),
    }
}

fn gzip(body: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let _ = encoder.write_all(body);
    encoder.finish().unwrap_or_default()
}

async fn write(stream: &mut TcpStream, head: &[u8], body: &[u8]) -> std::io::Result<()> {
    stream.write_all(head).await?;
    stream.write_all(body).await?;
    stream.shutdown().await
}

async fn ok(stream: &mut TcpStream, content_type: &str, body: &[u8]) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    write(stream, head.as_bytes(), body).await
}

async fn status(stream: &mut TcpStream, line: &str, body: &[u8]) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {line}\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    write(stream, head.as_bytes(), body).await
}

async fn redirect(stream: &mut TcpStream, code: u16, to: &str) -> std::io::Result<()> {
    let reason = match code {
        301 => "Moved Permanently",
        307 => "Temporary Redirect",
        _ => "Found",
    };
    let head = format!(
        "HTTP/1.1 {code} {reason}\r\nLocation: {to}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    write(stream, head.as_bytes(), b"").await
}

/// A 1×1 PNG.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
    0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
    0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
    0x42, 0x60, 0x82,
];
