//! The images of a turn: the user's attached images become image parts of the user message
//! when the model sees images; otherwise the auxiliary vision model describes each one into
//! the text, and the user is told that this happened (or why it could not).
//!
//! Invariants: every attached image leaves a trace in the message (a part, a description or a
//! placeholder naming the file); notices say which image and why.

use std::sync::Arc;

use super::events::EventSink;
use super::images;
use super::images::ImageState;
use super::images::VisionSettings;
use crate::model::ImagePart;
use crate::model::Message;
use crate::protocol::Event;
use crate::protocol::ImageAttachment;
use crate::protocol::Notice;
use crate::protocol::NoticeLevel;

/// A user message as it arrives from a frontend.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UserInput {
    pub text: String,
    pub images: Vec<ImageAttachment>,
}

impl From<String> for UserInput {
    fn from(text: String) -> Self {
        Self {
            text,
            images: Vec::new(),
        }
    }
}

/// What a turn knows about images.
#[derive(Clone)]
pub struct TurnVision {
    pub state: Arc<ImageState>,
    pub settings: VisionSettings,
    /// The main model sees images (`ModelEndpoint::supports_vision`).
    pub model_sees_images: bool,
    /// The main model's name, for notices.
    pub model: String,
}

/// The history message for `text` (already through the hooks) and the attached `images`.
pub async fn user_message(
    vision: &TurnVision,
    events: &EventSink,
    text: String,
    attached: &[ImageAttachment],
    cancel: &tokio_util::sync::CancellationToken,
) -> Message {
    let mut message = Message::user(text);
    if attached.is_empty() {
        return message;
    }
    // The files stay referenced either way, so the store and transcripts keep them.
    message.images = attached.iter().map(|a| ImagePart::new(&a.path)).collect();
    if vision.model_sees_images {
        return message;
    }
    let question = images::attached_image_question(&message.content);
    let mut notes = String::new();
    for (index, image) in attached.iter().enumerate() {
        let n = index + 1;
        let name = images::file_name(&image.path);
        let Some(describer) = &vision.settings.describer else {
            notice(
                events,
                NoticeLevel::Warning,
                format!(
                    "{} cannot see images and no auxiliary.vision model is set, so Image #{n} \
                     ({name}) was not shown to it. Set auxiliary.vision.model, or switch to a \
                     vision model with /model.",
                    vision.model
                ),
            );
            notes.push_str(&format!(
                "\n\n[Image #{n} attached ({name}), but it could not be shown or described.]"
            ));
            continue;
        };
        notice(
            events,
            NoticeLevel::Info,
            format!(
                "🔍 {} cannot see images: asking {} to describe Image #{n}…",
                vision.model, describer.model
            ),
        );
        match images::describe(
            describer,
            &vision.state,
            vision.settings.embed_target_bytes,
            &image.path,
            &question,
            cancel,
        )
        .await
        {
            Ok(description) => {
                notice(
                    events,
                    NoticeLevel::Info,
                    format!(
                        "🔍 Image #{n} described by {} ({} words) and sent as text.",
                        describer.model,
                        description.split_whitespace().count()
                    ),
                );
                notes.push_str(&format!(
                    "\n\n[Image #{n} ({name}, {}×{}), described by {} because {} cannot see \
                     images:\n{description}]",
                    image.width, image.height, describer.model, vision.model
                ));
            }
            Err(err) => {
                notice(
                    events,
                    NoticeLevel::Warning,
                    format!("Image #{n} ({name}) could not be described: {err}"),
                );
                notes.push_str(&format!(
                    "\n\n[Image #{n} attached ({name}), but it could not be described.]"
                ));
            }
        }
    }
    message.content.push_str(&notes);
    message
}

/// The history as the model gets it this time: payloads filled, or images moved out for a
/// text-only model. Files that cannot be read are reported (once each).
pub async fn request_messages(
    vision: &TurnVision,
    events: &EventSink,
    history: &[Message],
) -> Vec<Message> {
    let (messages, problems) = images::prepare(
        &vision.state,
        vision.settings.embed_target_bytes,
        vision.model_sees_images,
        history.to_vec(),
    )
    .await;
    for problem in problems {
        notice(events, NoticeLevel::Warning, problem.to_string());
    }
    messages
}

/// `vision_analyze`'s view of the session.
pub struct SessionVision(pub TurnVision);

#[async_trait::async_trait]
impl crate::tools::VisionHost for SessionVision {
    fn model_sees_images(&self) -> bool {
        self.0.model_sees_images
    }

    fn note_embed(&self, image: &std::path::Path) -> Result<(), u64> {
        self.0
            .state
            .note_embed(image, self.0.settings.max_embeds_per_image)
    }

    async fn describe(
        &self,
        image: &std::path::Path,
        question: &str,
        cancel: &tokio_util::sync::CancellationToken,
    ) -> Result<String, crate::tools::DescribeError> {
        let Some(describer) = &self.0.settings.describer else {
            return Err(crate::tools::DescribeError::NoDescriber {
                model: self.0.model.clone(),
            });
        };
        images::describe(
            describer,
            &self.0.state,
            self.0.settings.embed_target_bytes,
            image,
            question,
            cancel,
        )
        .await
    }
}

/// After a failed request that carried images: when the provider's error reads like "this
/// model takes no images", say how to route images through the describer instead.
pub fn hint_if_images_rejected(
    vision: &TurnVision,
    events: &EventSink,
    err: &crate::providers::ProviderError,
    history: &[Message],
) {
    use crate::providers::ProviderError;
    let message = match err {
        ProviderError::BadResponse { message } | ProviderError::Transport { message } => message,
        ProviderError::EmptyResponse
        | ProviderError::Hang { .. }
        | ProviderError::RateLimited { .. }
        | ProviderError::Auth { .. }
        | ProviderError::Credentials { .. }
        | ProviderError::Login { .. }
        | ProviderError::ContextTooLong { .. }
        | ProviderError::Cancelled => return,
    };
    let lower = message.to_ascii_lowercase();
    let about_images = ["image", "vision", "multimodal", "multi-modal", "image_url"]
        .iter()
        .any(|word| lower.contains(word));
    let sent_images = history.iter().any(|m| !m.images.is_empty());
    if vision.model_sees_images && sent_images && about_images {
        notice(
            events,
            NoticeLevel::Warning,
            format!(
                "{} seems not to accept images. Set model.vision: false (`hermes config set \
                 model.vision false`) so images are described by auxiliary.vision instead, or \
                 switch to a vision model with /model.",
                vision.model
            ),
        );
    }
}

fn notice(events: &EventSink, level: NoticeLevel, text: String) {
    events.send(Event::Notice(Notice { level, text }));
}
