//! The standard whisper.cpp ggml models (`hermes voice models`) and their downloader.
//!
//! The list, sizes and SHA-1 sums are those of ggml-org/whisper.cpp `models/README.md`; files
//! come from `https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-<name>.bin` (the
//! base URL is an argument, so tests serve a fake model from 127.0.0.1). A download streams to
//! `<file>.part`, reports progress, verifies it and renames it into place.
//! Verification: the byte count matches Content-Length, is at least 80 % of the listed size,
//! the file starts with the ggml magic, and — when the caller passes a [`ChecksumCheck`] —
//! the digest matches (`hermes voice models download` checks the published SHA-1 with
//! [`ChecksumCheck::published_sha1`]).
//! Invariant: on any failure or cancellation no `.part` file and no final file is left behind;
//! an existing model is replaced only by a verified one.

use std::path::{Path, PathBuf};
use std::time::Duration;

use futures::StreamExt;
use tokio::io::AsyncWriteExt;

use super::whisper::GGML_MAGIC;
use crate::config::HermesHome;

/// Where the ggml files are published.
pub const DEFAULT_BASE_URL: &str = "https://huggingface.co/ggerganov/whisper.cpp/resolve/main";
const MIB: u64 = 1024 * 1024;
/// No bytes for this long ends a download.
const IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// One downloadable model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelSpec {
    /// `base.en`; the file is `ggml-<name>.bin`.
    pub name: &'static str,
    /// Size as the README lists it (rounded to MiB or 0.1 GiB).
    pub listed_bytes: u64,
    /// SHA-1 of the file as published in whisper.cpp's `models/README.md`.
    pub sha1: &'static str,
}

impl ModelSpec {
    pub fn file_name(&self) -> String {
        format!("ggml-{}.bin", self.name)
    }

    /// English-only models end in `.en`.
    pub fn english_only(&self) -> bool {
        self.name.ends_with(".en")
    }

    /// The listed size for people: "142 MiB", "1.5 GiB".
    pub fn size_label(&self) -> String {
        if self.listed_bytes >= 1024 * MIB {
            format!("{:.1} GiB", self.listed_bytes as f64 / (1024 * MIB) as f64)
        } else {
            format!("{} MiB", self.listed_bytes / MIB)
        }
    }

    /// The smallest file accepted as this model (80 % of the listed size: the README rounds).
    pub fn min_bytes(&self) -> u64 {
        self.listed_bytes / 5 * 4
    }

    /// `base_url/ggml-<name>.bin`.
    pub fn url(&self, base_url: &str) -> String {
        format!("{}/{}", base_url.trim_end_matches('/'), self.file_name())
    }
}

const fn spec(name: &'static str, listed_bytes: u64, sha1: &'static str) -> ModelSpec {
    ModelSpec {
        name,
        listed_bytes,
        sha1,
    }
}

/// The standard models (ggml-org/whisper.cpp `models/README.md`, "Available models").
pub const MODELS: &[ModelSpec] = &[
    spec("tiny", 75 * MIB, "bd577a113a864445d4c299885e0cb97d4ba92b5f"),
    spec(
        "tiny.en",
        75 * MIB,
        "c78c86eb1a8faa21b369bcd33207cc90d64ae9df",
    ),
    spec(
        "base",
        142 * MIB,
        "465707469ff3a37a2b9b8d8f89f2f99de7299dac",
    ),
    spec(
        "base.en",
        142 * MIB,
        "137c40403d78fd54d454da0f9bd998f78703390c",
    ),
    spec(
        "small",
        466 * MIB,
        "55356645c2b361a969dfd0ef2c5a50d530afd8d5",
    ),
    spec(
        "small.en",
        466 * MIB,
        "db8a495a91d927739e50b3fc1cc4c6b8f6c2d022",
    ),
    spec(
        "medium",
        1536 * MIB,
        "fd9727b6e1217c2f614f9b698455c4ffd82463b4",
    ),
    spec(
        "medium.en",
        1536 * MIB,
        "8c30f0e44ce9560643ebd10bbe50cd20eafd3723",
    ),
    spec(
        "large-v3",
        2970 * MIB,
        "ad82bf6a9043ceed055076d0fd39f5f186ff8062",
    ),
    spec(
        "large-v3-turbo",
        1536 * MIB,
        "4af2b29d7ec73d781377bfd1758ca957a807e941",
    ),
];

/// Hermes's short names: `turbo` is `large-v3-turbo`, `large` is `large-v3`.
pub fn canonical_name(name: &str) -> &str {
    match name {
        "turbo" => "large-v3-turbo",
        "large" => "large-v3",
        other => other,
    }
}

/// The spec for `name` (aliases allowed).
pub fn find(name: &str) -> Option<&'static ModelSpec> {
    let name = canonical_name(name.trim());
    MODELS.iter().find(|m| m.name == name)
}

/// `HERMES_HOME/models`.
pub fn models_dir(home: &HermesHome) -> PathBuf {
    home.root().join("models")
}

/// `HERMES_HOME/models/ggml-<name>.bin`.
pub fn model_path(home: &HermesHome, name: &str) -> PathBuf {
    models_dir(home).join(format!("ggml-{name}.bin"))
}

/// A standard model and whether it is on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelStatus {
    pub spec: &'static ModelSpec,
    pub path: PathBuf,
    /// Size on disk when the file exists.
    pub installed_bytes: Option<u64>,
}

/// Every standard model with its install state (for `hermes voice models`).
pub fn list(home: &HermesHome) -> Vec<ModelStatus> {
    MODELS
        .iter()
        .map(|spec| {
            let path = model_path(home, spec.name);
            let installed_bytes = std::fs::metadata(&path)
                .ok()
                .filter(std::fs::Metadata::is_file)
                .map(|m| m.len());
            ModelStatus {
                spec,
                path,
                installed_bytes,
            }
        })
        .collect()
}

/// A streaming digest of the downloaded bytes.
pub trait Checksum: Send {
    fn update(&mut self, bytes: &[u8]);
    /// The digest as lowercase hex.
    fn finish_hex(self: Box<Self>) -> String;
}

/// SHA-1, the digest whisper.cpp publishes for its models.
#[derive(Default)]
pub struct Sha1Digest(sha1::Sha1);

impl Checksum for Sha1Digest {
    fn update(&mut self, bytes: &[u8]) {
        sha1::Digest::update(&mut self.0, bytes);
    }

    fn finish_hex(self: Box<Self>) -> String {
        let digest = sha1::Digest::finalize(self.0);
        digest.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl ChecksumCheck {
    /// The SHA-1 whisper.cpp lists for `spec`.
    pub fn published_sha1(spec: &ModelSpec) -> Self {
        Self {
            digest: Box::new(Sha1Digest::default()),
            expected_hex: spec.sha1.to_string(),
        }
    }
}

/// A digest and the hex value it must produce.
pub struct ChecksumCheck {
    pub digest: Box<dyn Checksum>,
    pub expected_hex: String,
}

/// What to download and where.
pub struct Download<'a> {
    pub spec: &'a ModelSpec,
    /// [`DEFAULT_BASE_URL`], a mirror, or a test server.
    pub base_url: &'a str,
    /// The directory that receives `ggml-<name>.bin` (usually [`models_dir`]); created if needed.
    pub dir: &'a Path,
    pub checksum: Option<ChecksumCheck>,
}

/// Why a download failed. Nothing is left on disk after any of these.
#[derive(Debug, thiserror::Error)]
pub enum DownloadError {
    #[error("unknown whisper model `{name}`; known models: {known}")]
    UnknownModel { name: String, known: String },
    #[error("could not set up the HTTP client: {0}")]
    Client(String),
    #[error("{url} answered HTTP {status}")]
    Http { url: String, status: u16 },
    #[error("downloading {url} failed: {detail}")]
    Transport { url: String, detail: String },
    #[error("{url} sent nothing for {secs} s; giving up")]
    Stalled { url: String, secs: u64 },
    #[error("{url} is not a whisper ggml model (wrong magic bytes; an error page?)")]
    NotGgml { url: String },
    #[error("{url} ended after {got} of {expected} bytes")]
    Truncated {
        url: String,
        got: u64,
        expected: u64,
    },
    #[error("{url} is {got} bytes; the model is listed at about {listed} bytes")]
    TooSmall { url: String, got: u64, listed: u64 },
    #[error("ggml-{name}.bin checksum mismatch: expected {expected}, got {got}")]
    ChecksumMismatch {
        name: String,
        expected: String,
        got: String,
    },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The spec for `name`, or an error listing the known names.
pub fn lookup(name: &str) -> Result<&'static ModelSpec, DownloadError> {
    find(name).ok_or_else(|| DownloadError::UnknownModel {
        name: name.to_string(),
        known: MODELS.iter().map(|m| m.name).collect::<Vec<_>>().join(", "),
    })
}

/// The shared HTTP client (rustls, connection pooling) for [`download`].
pub fn http_client() -> Result<reqwest::Client, DownloadError> {
    crate::util::http::build_client().map_err(|e| DownloadError::Client(e.to_string()))
}

/// A `.part` file removed on drop unless it was renamed into place.
struct PartFile {
    path: PathBuf,
    armed: bool,
}

impl Drop for PartFile {
    fn drop(&mut self) {
        if self.armed {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Downloads `job.spec` into `job.dir`, calling `progress(bytes_so_far, total)` after every
/// chunk (total from Content-Length when the server sends it). Returns the model's path.
pub async fn download(
    client: &reqwest::Client,
    job: Download<'_>,
    progress: &mut (dyn FnMut(u64, Option<u64>) + Send),
) -> Result<PathBuf, DownloadError> {
    let url = job.spec.url(job.base_url);
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| DownloadError::Io { path, source }
    };
    tokio::fs::create_dir_all(job.dir)
        .await
        .map_err(io(job.dir))?;
    let target = job.dir.join(job.spec.file_name());
    let mut part = PartFile {
        path: job.dir.join(format!("{}.part", job.spec.file_name())),
        armed: true,
    };

    let response = tokio::time::timeout(IDLE_TIMEOUT, client.get(&url).send())
        .await
        .map_err(|_| stalled(&url))?
        .map_err(|e| transport(&url, &e))?;
    if !response.status().is_success() {
        return Err(DownloadError::Http {
            url,
            status: response.status().as_u16(),
        });
    }
    let total = response.content_length();
    let mut file = tokio::fs::File::create(&part.path)
        .await
        .map_err(io(&part.path))?;
    let mut checksum = job.checksum;
    let mut stream = response.bytes_stream();
    let mut got: u64 = 0;
    let mut head = Vec::with_capacity(GGML_MAGIC.len());
    progress(0, total);
    loop {
        let next = tokio::time::timeout(IDLE_TIMEOUT, stream.next())
            .await
            .map_err(|_| stalled(&url))?;
        let Some(chunk) = next else { break };
        let chunk = chunk.map_err(|e| transport(&url, &e))?;
        if head.len() < GGML_MAGIC.len() {
            let take = (GGML_MAGIC.len() - head.len()).min(chunk.len());
            head.extend_from_slice(&chunk[..take]);
            if head[..] != GGML_MAGIC[..head.len()] {
                return Err(DownloadError::NotGgml { url });
            }
        }
        if let Some(check) = checksum.as_mut() {
            check.digest.update(&chunk);
        }
        file.write_all(&chunk).await.map_err(io(&part.path))?;
        got += chunk.len() as u64;
        progress(got, total);
    }
    file.sync_all().await.map_err(io(&part.path))?;
    drop(file);

    if let Some(expected) = total.filter(|&t| t != got) {
        return Err(DownloadError::Truncated { url, got, expected });
    }
    if head.len() < GGML_MAGIC.len() {
        return Err(DownloadError::NotGgml { url });
    }
    if got < job.spec.min_bytes() {
        return Err(DownloadError::TooSmall {
            url,
            got,
            listed: job.spec.listed_bytes,
        });
    }
    if let Some(check) = checksum {
        let got = check.digest.finish_hex();
        if !got.eq_ignore_ascii_case(check.expected_hex.trim()) {
            return Err(DownloadError::ChecksumMismatch {
                name: job.spec.name.to_string(),
                expected: check.expected_hex,
                got,
            });
        }
    }
    tokio::fs::rename(&part.path, &target)
        .await
        .map_err(io(&target))?;
    part.armed = false;
    Ok(target)
}

fn stalled(url: &str) -> DownloadError {
    DownloadError::Stalled {
        url: url.to_string(),
        secs: IDLE_TIMEOUT.as_secs(),
    }
}

fn transport(url: &str, err: &reqwest::Error) -> DownloadError {
    let mut detail = err.to_string();
    let mut source = std::error::Error::source(err);
    while let Some(inner) = source {
        detail = inner.to_string();
        source = inner.source();
    }
    DownloadError::Transport {
        url: url.to_string(),
        detail,
    }
}

#[cfg(test)]
#[path = "models_tests.rs"]
mod tests;
