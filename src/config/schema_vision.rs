//! The image settings of `config.yaml`: `vision:` (spec-002c §2.8, Hermes's key names and
//! defaults) and `model.vision`, whether the main model takes images. Plain data; the engine
//! and `images::embed` interpret it.

use serde::Deserialize;
use serde::Serialize;

/// `vision:` — what an embedded image may cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct VisionConfig {
    /// Per-image byte budget for embedded images; larger (or wider than 1568 px) images are
    /// downscaled to a JPEG that fits. Clamped to 64 KiB–4 MiB.
    pub embed_target_bytes: u64,
    /// How many times `vision_analyze` may embed the same image per session. Unset: 3 inside
    /// subagents, no limit for the main agent; `0`: no limit anywhere.
    pub max_calls_per_image: Option<u64>,
}

impl Default for VisionConfig {
    fn default() -> Self {
        Self {
            embed_target_bytes: 262_144,
            max_calls_per_image: None,
        }
    }
}

/// `model.vision`: whether the main model sees images. `auto` decides from the provider and
/// model name; `true`/`false` override it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VisionSupport {
    #[default]
    Auto,
    Yes,
    No,
}

impl Serialize for VisionSupport {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(match self {
            Self::Auto => "auto",
            Self::Yes => "true",
            Self::No => "false",
        })
    }
}

impl<'de> Deserialize<'de> for VisionSupport {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use super::schema::FlagOrText;
        match FlagOrText::deserialize(deserializer)? {
            FlagOrText::Flag(true) => Ok(Self::Yes),
            FlagOrText::Flag(false) => Ok(Self::No),
            FlagOrText::Text(text) => match text.trim().to_ascii_lowercase().as_str() {
                "auto" | "" => Ok(Self::Auto),
                "true" | "yes" | "on" => Ok(Self::Yes),
                "false" | "no" | "off" => Ok(Self::No),
                other => Err(serde::de::Error::custom(format!(
                    "unknown model.vision value `{other}`, expected auto, true or false"
                ))),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vision_support_reads_flags_and_words() {
        let read = |s: &str| serde_norway::from_str::<VisionSupport>(s);
        assert_eq!(read("true").unwrap(), VisionSupport::Yes);
        assert_eq!(read("false").unwrap(), VisionSupport::No);
        assert_eq!(read("auto").unwrap(), VisionSupport::Auto);
        assert_eq!(read("\"no\"").unwrap(), VisionSupport::No);
        assert!(
            read("maybe")
                .unwrap_err()
                .to_string()
                .contains("auto, true or false")
        );
    }

    #[test]
    fn vision_section_defaults_and_reads_the_cap() {
        let v: VisionConfig = serde_norway::from_str("max_calls_per_image: 1").unwrap();
        assert_eq!(v.embed_target_bytes, 262_144);
        assert_eq!(v.max_calls_per_image, Some(1));
        assert_eq!(VisionConfig::default().max_calls_per_image, None);
    }
}
