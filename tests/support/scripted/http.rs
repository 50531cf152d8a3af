//! Minimal hand-rolled HTTP/1.1 for the scripted provider: parse one request (request line,
//! headers, `Content-Length` body) and write one response, either fixed-length or a chunked
//! stream.
//!
//! Deliberately not a general server: no keep-alive (every response says `Connection: close`),
//! no chunked request bodies, no `Expect: 100-continue`. Being hand-rolled is the point — the
//! server decides exactly which bytes reach the socket, so faults are precise.

use std::collections::BTreeMap;

use tokio::io::AsyncReadExt;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

const MAX_HEAD: usize = 64 * 1024;
const MAX_BODY: usize = 64 * 1024 * 1024;

/// A parsed request. Header names are lowercased.
#[derive(Debug, Clone)]
pub struct RawRequest {
    /// The request line and headers as sent (without the blank line).
    pub head: String,
    pub method: String,
    /// The request target as sent, including any query string.
    pub path: String,
    pub headers: BTreeMap<String, String>,
    pub body: Vec<u8>,
}

#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    #[error("connection closed before a full request arrived")]
    Eof,
    #[error("malformed request: {0}")]
    Malformed(&'static str),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Read one request from `stream`.
pub async fn read_request(stream: &mut TcpStream) -> Result<RawRequest, HttpError> {
    let mut buf = Vec::with_capacity(4096);
    let head_end = loop {
        if let Some(pos) = find(&buf, b"\r\n\r\n") {
            break pos;
        }
        if buf.len() > MAX_HEAD {
            return Err(HttpError::Malformed("header section too large"));
        }
        if read_more(stream, &mut buf).await? == 0 {
            return Err(HttpError::Eof);
        }
    };
    let head = std::str::from_utf8(&buf[..head_end])
        .map_err(|_| HttpError::Malformed("header section is not UTF-8"))?;
    let head_text = head.to_owned();
    let mut lines = head.split("\r\n");
    let request_line = lines
        .next()
        .ok_or(HttpError::Malformed("no request line"))?;
    let mut parts = request_line.split(' ');
    let method = parts.next().unwrap_or_default().to_owned();
    let path = parts
        .next()
        .ok_or(HttpError::Malformed("no request target"))?
        .to_owned();
    let mut headers = BTreeMap::new();
    for line in lines {
        let (name, value) = line
            .split_once(':')
            .ok_or(HttpError::Malformed("header without colon"))?;
        headers.insert(name.trim().to_ascii_lowercase(), value.trim().to_owned());
    }
    let length: usize = match headers.get("content-length") {
        Some(v) => v
            .parse()
            .map_err(|_| HttpError::Malformed("bad content-length"))?,
        None => 0,
    };
    if length > MAX_BODY {
        return Err(HttpError::Malformed("body too large"));
    }
    let mut body = buf.split_off(head_end + 4);
    while body.len() < length {
        if read_more(stream, &mut body).await? == 0 {
            return Err(HttpError::Eof);
        }
    }
    body.truncate(length);
    Ok(RawRequest {
        head: head_text,
        method,
        path,
        headers,
        body,
    })
}

async fn read_more(stream: &mut TcpStream, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut chunk = [0u8; 8192];
    let n = stream.read(&mut chunk).await?;
    buf.extend_from_slice(&chunk[..n]);
    Ok(n)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Write a complete fixed-length response.
pub async fn write_fixed(
    stream: &mut TcpStream,
    status: u16,
    extra_headers: &[(String, String)],
    content_type: &str,
    body: &str,
) -> std::io::Result<()> {
    let mut out = status_line(status);
    out.push_str(&format!("Content-Type: {content_type}\r\n"));
    out.push_str(&format!("Content-Length: {}\r\n", body.len()));
    for (name, value) in extra_headers {
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    out.push_str("Connection: close\r\n\r\n");
    out.push_str(body);
    stream.write_all(out.as_bytes()).await?;
    stream.flush().await
}

/// Write the head of a `Transfer-Encoding: chunked` response; follow with [`write_chunk`]
/// calls and [`finish_chunks`].
pub async fn start_chunked(
    stream: &mut TcpStream,
    status: u16,
    content_type: &str,
) -> std::io::Result<()> {
    let mut out = status_line(status);
    out.push_str(&format!("Content-Type: {content_type}\r\n"));
    out.push_str("Cache-Control: no-cache\r\n");
    out.push_str("Transfer-Encoding: chunked\r\n");
    out.push_str("Connection: close\r\n\r\n");
    stream.write_all(out.as_bytes()).await?;
    stream.flush().await
}

/// One chunk of a chunked body, flushed immediately so the client sees it now.
pub async fn write_chunk(stream: &mut TcpStream, data: &[u8]) -> std::io::Result<()> {
    if data.is_empty() {
        // A zero-length chunk would terminate the body.
        return Ok(());
    }
    let mut framed = format!("{:x}\r\n", data.len()).into_bytes();
    framed.extend_from_slice(data);
    framed.extend_from_slice(b"\r\n");
    stream.write_all(&framed).await?;
    stream.flush().await
}

/// The terminating zero-length chunk.
pub async fn finish_chunks(stream: &mut TcpStream) -> std::io::Result<()> {
    stream.write_all(b"0\r\n\r\n").await?;
    stream.flush().await
}

fn status_line(status: u16) -> String {
    format!("HTTP/1.1 {status} {}\r\n", reason(status))
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        408 => "Request Timeout",
        413 => "Payload Too Large",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        529 => "Overloaded",
        _ => "Status",
    }
}
