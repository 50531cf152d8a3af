//! Images on their way to a model (spec-002c §2.6–2.8): the payloads of attached and
//! tool-loaded images, encoded within the embed budget and cached per session; and, for a
//! model that cannot see images, descriptions written by the auxiliary vision model instead.
//!
//! Not here: reading the clipboard or saving files (`clipboard`), the wire format
//! (`providers`). Invariants: history and the store keep file references only, payloads live
//! in the cache; a file that cannot be read is reported once per session and sent as a text
//! placeholder, never silently dropped; a text-only model never receives pixels.

use std::collections::HashMap;
use std::collections::HashSet;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::PoisonError;

use tokio_util::sync::CancellationToken;

use crate::images::image_file::ImageError;
use crate::model::ImagePart;
use crate::model::ImagePayload;
use crate::model::Message;
use crate::providers::ChatRequest;
use crate::providers::Provider;
use crate::tools::DescribeError;

/// The model that describes images for models that cannot see them (`auxiliary.vision`).
#[derive(Clone)]
pub struct Describer {
    pub provider: Arc<dyn Provider>,
    pub model: String,
}

/// Image settings for a session, from `vision:` and `auxiliary.vision`.
#[derive(Clone)]
pub struct VisionSettings {
    pub describer: Option<Describer>,
    /// Already clamped (`images::embed::clamp_embed_target`).
    pub embed_target_bytes: u64,
    /// How often `vision_analyze` may embed the same image; `None`: no limit.
    pub max_embeds_per_image: Option<u64>,
    /// The same for this session's subagents.
    pub subagent_max_embeds: Option<u64>,
}

impl VisionSettings {
    /// From config, for the main agent: an unset `max_calls_per_image` caps only subagents
    /// (at 3); 0 means no limit anywhere.
    pub fn from_config(config: &crate::config::VisionConfig, describer: Option<Describer>) -> Self {
        let (main, sub) = match config.max_calls_per_image {
            Some(0) => (None, None),
            Some(n) => (Some(n), Some(n)),
            None => (None, Some(3)),
        };
        Self {
            describer,
            embed_target_bytes: crate::images::embed::clamp_embed_target(config.embed_target_bytes),
            max_embeds_per_image: main,
            subagent_max_embeds: sub,
        }
    }

    /// What a subagent of this session gets.
    pub fn for_subagent(&self) -> Self {
        Self {
            max_embeds_per_image: self.subagent_max_embeds,
            ..self.clone()
        }
    }
}

impl Default for VisionSettings {
    fn default() -> Self {
        Self {
            describer: None,
            embed_target_bytes: crate::images::embed::DEFAULT_EMBED_TARGET_BYTES,
            max_embeds_per_image: None,
            subagent_max_embeds: Some(3),
        }
    }
}

/// Per-session image state shared by the turns and `vision_analyze`.
#[derive(Default)]
pub struct ImageState {
    payloads: Mutex<HashMap<PathBuf, Arc<ImagePayload>>>,
    /// Files already reported as unreadable (reported once).
    reported: Mutex<HashSet<PathBuf>>,
    /// Native embeds per resolved path (`vision.max_calls_per_image`).
    embeds: Mutex<HashMap<PathBuf, u64>>,
}

impl ImageState {
    /// Count one native embed of `path`; `Err(n)` when it has already been embedded `n`
    /// times and `cap` is reached.
    pub fn note_embed(&self, path: &Path, cap: Option<u64>) -> Result<(), u64> {
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let mut embeds = self.embeds.lock().unwrap_or_else(PoisonError::into_inner);
        let count = embeds.entry(key).or_insert(0);
        if let Some(cap) = cap
            && *count >= cap
        {
            return Err(*count);
        }
        *count += 1;
        Ok(())
    }

    /// The payload of `path`, encoded once per session. Blocking (disk and encoding).
    fn payload(&self, path: &Path, target: u64) -> Result<Arc<ImagePayload>, ImageError> {
        if let Some(found) = self
            .payloads
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(path)
        {
            return Ok(Arc::clone(found));
        }
        let payload = crate::images::embed::encode_for_embed(path, target).map(Arc::new)?;
        self.payloads
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(path.to_path_buf(), Arc::clone(&payload));
        Ok(payload)
    }

    fn first_report(&self, path: &Path) -> bool {
        self.reported
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(path.to_path_buf())
    }
}

/// An image that could not go to the model; `Display` is the notice the user gets.
#[derive(Debug, thiserror::Error)]
pub enum ImageProblem {
    #[error(
        "{} could not be sent ({source}); the model gets a placeholder instead",
        path.display()
    )]
    Unsendable { path: PathBuf, source: ImageError },
    #[error("images could not be prepared ({0}); sent as text only")]
    Panicked(#[source] tokio::task::JoinError),
}

impl From<ImageProblem> for DescribeError {
    fn from(problem: ImageProblem) -> Self {
        match problem {
            ImageProblem::Unsendable { path, source } => Self::Unsendable { path, source },
            ImageProblem::Panicked(err) => Self::Prepare(err),
        }
    }
}

/// Gets `messages` ready for a model: fills every image's payload when the model sees images,
/// else moves the images out (a text-only model gets only the text, which already holds the
/// descriptions). Returns problems to tell the user, each file once per session.
pub async fn prepare(
    state: &Arc<ImageState>,
    target: u64,
    model_sees_images: bool,
    messages: Vec<Message>,
) -> (Vec<Message>, Vec<ImageProblem>) {
    if !messages.iter().any(|m| !m.images.is_empty()) {
        return (messages, Vec::new());
    }
    if !model_sees_images {
        return (strip_images(messages), Vec::new());
    }
    // Kept for the unlikely case that encoding panics: then the model gets placeholders.
    let fallback = messages.clone();
    let state = Arc::clone(state);
    let joined = tokio::task::spawn_blocking(move || fill_payloads(&state, target, messages)).await;
    match joined {
        Ok(done) => done,
        Err(err) => (strip_images(fallback), vec![ImageProblem::Panicked(err)]),
    }
}

/// The messages without image parts; each image leaves its file name in the text.
fn strip_images(messages: Vec<Message>) -> Vec<Message> {
    messages
        .into_iter()
        .map(|mut m| {
            let names = std::mem::take(&mut m.images);
            for part in names {
                let name = file_name(&part.path);
                if !m.content.contains(&name) {
                    m.content
                        .push_str(&format!("\n[image {name}: not shown to this model]"));
                }
            }
            m
        })
        .collect()
}

fn fill_payloads(
    state: &ImageState,
    target: u64,
    mut messages: Vec<Message>,
) -> (Vec<Message>, Vec<ImageProblem>) {
    let mut problems = Vec::new();
    for part in messages.iter_mut().flat_map(|m| m.images.iter_mut()) {
        if part.payload.is_some() {
            continue;
        }
        match state.payload(&part.path, target) {
            Ok(payload) => part.payload = Some(payload),
            Err(source) => {
                if state.first_report(&part.path) {
                    problems.push(ImageProblem::Unsendable {
                        path: part.path.clone(),
                        source,
                    });
                }
            }
        }
    }
    (messages, problems)
}

/// Asks the describer about one image. `question` steers the description.
pub async fn describe(
    describer: &Describer,
    state: &Arc<ImageState>,
    target: u64,
    path: &Path,
    question: &str,
    cancel: &CancellationToken,
) -> Result<String, DescribeError> {
    let mut message = Message::user(question.to_string());
    message.images = vec![ImagePart::new(path)];
    let (mut messages, problems) = prepare(state, target, true, vec![message]).await;
    if let Some(problem) = problems.into_iter().next() {
        return Err(problem.into());
    }
    if messages
        .iter()
        .all(|m| m.images.iter().any(|i| i.payload.is_none()))
    {
        return Err(DescribeError::Unreadable {
            path: path.to_path_buf(),
        });
    }
    let request = ChatRequest {
        model: describer.model.clone(),
        system: DESCRIBER_SYSTEM.to_string(),
        messages: std::mem::take(&mut messages),
        tools: Vec::new(),
        max_tokens: Some(1_024),
    };
    let completion = describer
        .provider
        .complete(&request, &|_| {}, cancel)
        .await?;
    let text = completion.text.trim().to_string();
    if text.is_empty() {
        return Err(DescribeError::Empty {
            model: describer.model.clone(),
        });
    }
    Ok(text)
}

const DESCRIBER_SYSTEM: &str = "You describe images for an assistant that cannot see them. \
Be accurate and specific: transcribe any visible text exactly, describe layout, UI elements, \
charts and errors, and say when something is unreadable. Do not speculate beyond the image.";

/// The prompt for describing an image the user attached to `user_text`.
pub fn attached_image_question(user_text: &str) -> String {
    if user_text.trim().is_empty() {
        "Describe this image in detail.".to_string()
    } else {
        format!(
            "Describe this image in detail. The user sent it with this message, so cover what \
             it needs: {user_text}"
        )
    }
}

pub fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

#[cfg(test)]
#[path = "images_tests.rs"]
mod tests;
