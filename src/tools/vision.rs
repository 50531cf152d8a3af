//! The `vision_analyze` tool (spec-002c §2.7–2.8): the agent looks at an image — a local file,
//! a `file://` URI, an `http(s)` URL or a `data:` URL — to answer a question about it.
//!
//! Dual path, chosen at run time: when the main model sees images, the image is embedded in
//! the tool result (the model looks at it itself), limited by `vision.max_calls_per_image`;
//! otherwise the auxiliary vision model (`auxiliary.vision`) answers and the tool returns its
//! text. Every image is decoded, checked and saved as a PNG under `HERMES_HOME/images/` first,
//! so the conversation refers to a stable file. Invariants: downloads are capped in size and
//! time; a refused embed says how often the image was already loaded.

use std::path::Path;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;
use std::time::SystemTime;

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::json;

use crate::config::HermesHome;
use crate::images::image_file;
use crate::model::ToolSchema;
use crate::tools::Concurrency;
use crate::tools::Tool;
use crate::tools::ToolContext;
use crate::tools::ToolOutput;
use crate::tools::args;
use crate::util::paths::resolve_path;
use crate::web::WebError;
use crate::web::fetch::Bodies;
use crate::web::fetch::FetchOptions;
use crate::web::fetch::Fetcher;
use crate::web::guard::PrivateAddresses;

/// Largest image downloaded from a URL.
const MAX_DOWNLOAD_BYTES: u64 = 20 * 1024 * 1024;
const DOWNLOAD_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Debug, Deserialize)]
struct VisionArgs {
    image_url: String,
    #[serde(default)]
    question: Option<String>,
}

pub struct VisionAnalyzeTool {
    home: HermesHome,
    /// Image URLs go through the web tools' SSRF guard (private and metadata addresses
    /// refused unless the session allows private URLs, checked after DNS and per redirect).
    fetch: FetchOptions,
    fetcher: OnceLock<Result<Fetcher, String>>,
}

impl VisionAnalyzeTool {
    /// `private`: whether image URLs may point at private addresses (the web settings').
    pub fn new(home: HermesHome, private: PrivateAddresses) -> Self {
        let fetch = FetchOptions {
            private,
            timeout: DOWNLOAD_TIMEOUT,
            max_bytes: MAX_DOWNLOAD_BYTES,
            bodies: Bodies::Any,
            ..FetchOptions::default()
        };
        Self {
            home,
            fetch,
            fetcher: OnceLock::new(),
        }
    }

    /// The guarded fetcher, built on the first URL (a session that never downloads pays
    /// nothing for its HTTP client).
    fn fetcher(&self) -> Result<&Fetcher, LoadError> {
        self.fetcher
            .get_or_init(|| Fetcher::new(self.fetch.clone()).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|why| LoadError::Client(why.clone()))
    }
}

#[async_trait]
impl Tool for VisionAnalyzeTool {
    fn name(&self) -> &'static str {
        "vision_analyze"
    }

    fn toolset(&self) -> &'static str {
        "vision"
    }

    fn schema(&self) -> ToolSchema {
        ToolSchema {
            name: self.name().to_string(),
            description: "Look at an image and answer a question about it: a screenshot, a \
                photo, a chart, a diagram, an error dialog. Accepts a local file path, a \
                file:// URI, an http(s) URL or a data: URL (png, jpeg, gif, webp, bmp). Ask a \
                specific question for a specific answer."
                .to_string(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "image_url": {"type": "string", "description": "Path (relative to the working directory), file:// URI, http(s) URL or data: URL of the image."},
                    "question": {"type": "string", "description": "What to find out from the image. Default: a detailed description."}
                },
                "required": ["image_url"]
            }),
        }
    }

    fn concurrency(&self) -> Concurrency {
        Concurrency::ParallelSafe
    }

    fn preview(&self, args: &serde_json::Value) -> String {
        args::preview_text(args::str_field(args, "image_url"), 60)
    }

    async fn call(&self, args: serde_json::Value, ctx: &ToolContext) -> ToolOutput {
        let args: VisionArgs = match args::parse(self.name(), args) {
            Ok(a) => a,
            Err(e) => return e,
        };
        let question = args
            .question
            .as_deref()
            .map(str::trim)
            .filter(|q| !q.is_empty())
            .unwrap_or("Describe this image in detail.")
            .to_string();
        let Some(vision) = ctx.vision.clone() else {
            return ToolOutput::error("vision_analyze is not available here");
        };
        let source = match ImageSource::parse(args.image_url.trim(), &ctx.cwd) {
            Ok(source) => source,
            Err(why) => return ToolOutput::error(why.to_string()),
        };
        let images_dir = self.home.images_dir();
        let fetcher = match (&source, self.fetcher()) {
            (ImageSource::Url(_), Err(why)) => return ToolOutput::error(why.to_string()),
            (_, fetcher) => fetcher.ok(),
        };
        let loaded = tokio::select! {
            loaded = load(source.clone(), images_dir, fetcher) => loaded,
            _ = ctx.cancel.cancelled() => return ToolOutput::cancelled("cancelled"),
        };
        let saved = match loaded {
            Ok(saved) => saved,
            Err(why) => return ToolOutput::error(why.to_string()),
        };
        let name = saved
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if vision.model_sees_images() {
            if let Err(times) = vision.note_embed(&source.key()) {
                return ToolOutput::error(format!(
                    "vision_analyze refused: this image has already been loaded into context \
                     {times} time(s) in this session (vision.max_calls_per_image). Use what you \
                     saw before, or ask about a different image."
                ));
            }
            let mut output = ToolOutput::ok(format!(
                "Image loaded: {name} ({}×{}), attached to this result. Look at it to answer: \
                 {question}",
                saved.width, saved.height
            ));
            output.images = vec![saved.path];
            return output;
        }
        match vision.describe(&saved.path, &question, &ctx.cancel).await {
            Ok(text) => ToolOutput::ok(format!(
                "Analysis of {name} ({}×{}) by the auxiliary vision model:\n{text}",
                saved.width, saved.height
            )),
            Err(why) => ToolOutput::error(format!("vision_analyze failed: {why}")),
        }
    }
}

/// Why the image could not be loaded; the text is for the model.
#[derive(Debug, thiserror::Error)]
enum LoadError {
    #[error("image_url is empty")]
    EmptyUrl,
    #[error("not a usable file:// URI: {0}")]
    FileUri(String),
    #[error(transparent)]
    Image(#[from] image_file::ImageError),
    #[error(transparent)]
    Join(#[from] tokio::task::JoinError),
    #[error("could not set up downloads: {0}")]
    Client(String),
    #[error("could not fetch {url}: {source}")]
    Fetch {
        url: String,
        #[source]
        source: WebError,
    },
    #[error("malformed data: URL (no comma)")]
    DataNoComma,
    #[error("only base64 data: URLs are supported")]
    DataNotBase64,
    #[error("malformed base64 in the data: URL ({0})")]
    Base64(#[source] base64::DecodeError),
}

/// Where the image comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
enum ImageSource {
    File(PathBuf),
    Url(String),
    Data(String),
}

impl ImageSource {
    fn parse(text: &str, cwd: &Path) -> Result<Self, LoadError> {
        if text.is_empty() {
            return Err(LoadError::EmptyUrl);
        }
        let lower = text.to_ascii_lowercase();
        if lower.starts_with("data:") {
            return Ok(Self::Data(text.to_string()));
        }
        if lower.starts_with("http://") || lower.starts_with("https://") {
            return Ok(Self::Url(text.to_string()));
        }
        if let Some(path) = crate::util::image_path::pasted_image_path(text, None)
            && lower.starts_with("file:")
        {
            return Ok(Self::File(path));
        }
        if lower.starts_with("file:") {
            return Err(LoadError::FileUri(text.to_string()));
        }
        Ok(Self::File(resolve_path(cwd, text)))
    }

    /// What the embed cap counts: the resolved file, or the URL.
    fn key(&self) -> PathBuf {
        match self {
            Self::File(path) => std::fs::canonicalize(path).unwrap_or_else(|_| path.clone()),
            Self::Url(url) => PathBuf::from(url),
            Self::Data(data) => {
                use sha2::Digest;
                let digest = sha2::Sha256::digest(data.as_bytes());
                PathBuf::from(format!("data-url-{digest:x}"))
            }
        }
    }
}

/// Fetches, decodes and saves the image; the error text is for the model.
async fn load(
    source: ImageSource,
    images_dir: PathBuf,
    fetcher: Option<&Fetcher>,
) -> Result<crate::protocol::ImageAttachment, LoadError> {
    let (bytes, what) = match &source {
        ImageSource::File(path) => {
            let path = path.clone();
            return tokio::task::spawn_blocking(move || {
                let image = image_file::decode_file(&path)?;
                Ok(image_file::save_png(
                    &images_dir,
                    &image,
                    SystemTime::now(),
                )?)
            })
            .await?;
        }
        ImageSource::Url(url) => match fetcher {
            Some(fetcher) => (download(fetcher, url).await?, url.clone()),
            None => return Err(LoadError::Client("no HTTP client".to_string())),
        },
        ImageSource::Data(data) => (decode_data_url(data)?, "the data: URL".to_string()),
    };
    tokio::task::spawn_blocking(move || {
        let image = image_file::decode_bytes(&bytes, &what)?;
        Ok(image_file::save_png(
            &images_dir,
            &image,
            SystemTime::now(),
        )?)
    })
    .await?
}

async fn download(fetcher: &Fetcher, url: &str) -> Result<Vec<u8>, LoadError> {
    fetcher
        .fetch(url)
        .await
        .map(|page| page.body)
        .map_err(|source| LoadError::Fetch {
            url: url.to_string(),
            source,
        })
}

fn decode_data_url(data: &str) -> Result<Vec<u8>, LoadError> {
    use base64::Engine;
    let (header, body) = data.split_once(',').ok_or(LoadError::DataNoComma)?;
    if !header.to_ascii_lowercase().ends_with(";base64") {
        return Err(LoadError::DataNotBase64);
    }
    let body: String = body.chars().filter(|c| !c.is_whitespace()).collect();
    base64::engine::general_purpose::STANDARD
        .decode(body)
        .map_err(LoadError::Base64)
}

#[cfg(test)]
#[path = "vision_tests.rs"]
mod tests;
