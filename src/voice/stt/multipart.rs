//! A minimal `multipart/form-data` body (RFC 7578) for the transcription upload: text fields
//! and one file part. reqwest's `multipart` feature is not enabled, and this is all we need.
//!
//! Invariant: the boundary is random per body and field values are ours (model names,
//! language codes), so a value containing the boundary is not a concern; names and the file
//! name are quoted and must not contain `"` or line breaks (ours never do).

/// A body under construction.
pub struct Multipart {
    boundary: String,
    body: Vec<u8>,
}

impl Multipart {
    pub fn new() -> Self {
        Self {
            boundary: format!("hermes-{}", uuid::Uuid::new_v4().simple()),
            body: Vec::new(),
        }
    }

    /// The request's `Content-Type` header value.
    pub fn content_type(&self) -> String {
        format!("multipart/form-data; boundary={}", self.boundary)
    }

    pub fn text(mut self, name: &str, value: &str) -> Self {
        self.open_part(&format!("form-data; name=\"{name}\""), None);
        self.body.extend_from_slice(value.as_bytes());
        self.body.extend_from_slice(b"\r\n");
        self
    }

    pub fn file(mut self, name: &str, file_name: &str, content_type: &str, bytes: &[u8]) -> Self {
        self.open_part(
            &format!("form-data; name=\"{name}\"; filename=\"{file_name}\""),
            Some(content_type),
        );
        self.body.extend_from_slice(bytes);
        self.body.extend_from_slice(b"\r\n");
        self
    }

    /// The finished body (closing boundary appended).
    pub fn finish(mut self) -> Vec<u8> {
        self.body
            .extend_from_slice(format!("--{}--\r\n", self.boundary).as_bytes());
        self.body
    }

    fn open_part(&mut self, disposition: &str, content_type: Option<&str>) {
        let mut head = format!(
            "--{}\r\nContent-Disposition: {disposition}\r\n",
            self.boundary
        );
        if let Some(ct) = content_type {
            head.push_str(&format!("Content-Type: {ct}\r\n"));
        }
        head.push_str("\r\n");
        self.body.extend_from_slice(head.as_bytes());
    }
}

#[cfg(test)]
#[path = "multipart_tests.rs"]
mod tests;
