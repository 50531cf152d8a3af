//! Encoding an image for a request within the embed budget (spec §2.8): every embedded image
//! is re-sent on each later call of the session, so its size is capped.
//!
//! Not here: deciding whether a model gets pixels at all, counting embeds per image, or the
//! config key (the caller passes `vision.embed_target_bytes`). Invariants: the budget counts
//! the image bytes before base64; a result is never larger than the clamped budget and never
//! longer than [`MAX_EMBED_SIDE`] on either side; an original file is sent unchanged only
//! when it already fits and providers accept its format; anything else becomes a PNG (when a
//! lossless copy fits) or a JPEG, alpha flattened onto white.

use std::path::Path;

use base64::Engine;
use image::DynamicImage;
use image::RgbImage;
use image::imageops::FilterType;

use super::image_file::ImageError;
use super::image_file::ImageKind;
use super::image_file::decode_bytes;
use super::image_file::detect_kind;
use super::image_file::display_name;
use super::image_file::encode_png;
use super::image_file::read_image_file;
use crate::model::ImagePayload;

/// `vision.embed_target_bytes` when unset or 0.
pub const DEFAULT_EMBED_TARGET_BYTES: u64 = 262_144;
pub const MIN_EMBED_TARGET_BYTES: u64 = 65_536;
pub const MAX_EMBED_TARGET_BYTES: u64 = 4_194_304;
/// Longest side sent to a model; larger images are downscaled (providers do it anyway).
pub const MAX_EMBED_SIDE: u32 = 1568;

/// JPEG qualities tried in order at each size before shrinking further.
const JPEG_QUALITIES: [u8; 5] = [85, 75, 65, 50, 40];
/// Each shrink step scales the longest side by at most this much.
const SHRINK_STEP: f64 = 0.75;
/// Below this longest side the image is useless to a model; give up rather than loop on.
/// (A JPEG this small is far below the smallest budget, so it is never reached in practice.)
const MIN_SIDE: u32 = 32;
/// Resampling filter for the downscale. Measured on the project's 2-core machine under load
/// (release, 4000×3000 → 1568×1176): Triangle 0.16 s, CatmullRom 0.18 s, Lanczos3 0.24 s.
/// CatmullRom keeps screenshot text nearly as sharp as Lanczos3 for little more than the
/// blurrier Triangle costs; a whole 12-megapixel encode stays around half a second.
const FILTER: FilterType = FilterType::CatmullRom;

/// The budget to use for a configured `vision.embed_target_bytes`: 0 means the default, and
/// anything else is clamped to 64 KiB ..= 4 MiB.
pub fn clamp_embed_target(configured: u64) -> u64 {
    if configured == 0 {
        DEFAULT_EMBED_TARGET_BYTES
    } else {
        configured.clamp(MIN_EMBED_TARGET_BYTES, MAX_EMBED_TARGET_BYTES)
    }
}

/// The payload for an image file: the original bytes when they fit the budget, the side
/// limit and a format every provider takes (PNG, JPEG, still GIF, WebP); else a re-encoded
/// copy. The file is always decoded first, so a corrupt image never reaches a provider (it
/// would fail every later request of the session). `target_bytes` is clamped.
pub fn encode_for_embed(path: &Path, target_bytes: u64) -> Result<ImagePayload, ImageError> {
    let target = clamp_embed_target(target_bytes);
    let bytes = read_image_file(path)?;
    let what = display_name(path);
    let kind = detect_kind(&bytes, &what)?;
    let image = decode_bytes(&bytes, &what)?;
    let fits = bytes.len() as u64 <= target && image.width().max(image.height()) <= MAX_EMBED_SIDE;
    let sendable = match kind {
        ImageKind::Png | ImageKind::Jpeg | ImageKind::WebP => true,
        // Some providers refuse animated GIFs; the first frame is what a model would see.
        ImageKind::Gif => !is_animated_gif(&bytes),
        // No provider takes BMP.
        ImageKind::Bmp => false,
    };
    if fits && sendable {
        return Ok(payload(kind.media_type(), &bytes));
    }
    encode_image_for_embed(&image, target)
}

/// The payload for decoded pixels: a PNG when it is within the side limit and a lossless
/// copy fits the budget, else a JPEG shrunk until it fits. `target_bytes` is clamped.
pub fn encode_image_for_embed(
    image: &DynamicImage,
    target_bytes: u64,
) -> Result<ImagePayload, ImageError> {
    let target = clamp_embed_target(target_bytes);
    let (width, height) = (image.width(), image.height());
    if width == 0 || height == 0 {
        return Err(ImageError::NoPixels {
            what: "the image".to_string(),
            width: u64::from(width),
            height: u64::from(height),
        });
    }
    if width.max(height) <= MAX_EMBED_SIDE {
        let png = encode_png(image)?;
        if png.len() as u64 <= target {
            return Ok(payload(ImageKind::Png.media_type(), &png));
        }
    }
    let base = fit_within(flatten_onto_white(image), MAX_EMBED_SIDE);
    let jpeg = jpeg_within(&base, target)?;
    Ok(payload(ImageKind::Jpeg.media_type(), &jpeg))
}

/// JPEG bytes of `base` (or a downscaled copy) no larger than `target`. Each size walks the
/// quality ladder, then the size shrinks by at least [`SHRINK_STEP`], by more when the lowest
/// quality was far over budget (JPEG size grows about with the pixel count). Encodes that
/// cannot succeed are skipped, so a typical fit takes two to six encodes, not dozens.
fn jpeg_within(base: &RgbImage, target: u64) -> Result<Vec<u8>, ImageError> {
    let base_side = base.width().max(base.height());
    let mut side = base_side;
    // Sizes measured at the previous side, to start the next ladder where it can succeed.
    let mut previous: Option<(u32, [Option<u64>; JPEG_QUALITIES.len()])> = None;
    loop {
        let scaled;
        let current = if side == base_side {
            base
        } else {
            scaled = fit_within_rgb(base, side);
            &scaled
        };
        let mut sizes = [None; JPEG_QUALITIES.len()];
        let mut index = previous.map_or(0, |(previous_side, measured)| {
            first_plausible_quality(&measured, previous_side, side, target)
        });
        let lowest = JPEG_QUALITIES.len() - 1;
        let mut smallest = u64::MAX;
        while index <= lowest {
            let jpeg = encode_jpeg(current, JPEG_QUALITIES[index])?;
            let len = jpeg.len() as u64;
            if len <= target {
                return Ok(jpeg);
            }
            sizes[index] = Some(len);
            smallest = len;
            // Four times over: the middle qualities cannot fit; measure the lowest instead.
            index = if index < lowest && len > target.saturating_mul(4) {
                lowest
            } else {
                index + 1
            };
        }
        let next = next_side(side, smallest, target);
        if next < MIN_SIDE {
            return Err(ImageError::Encode {
                format: "JPEG",
                detail: format!("no size down to {MIN_SIDE} pixels fits in {target} bytes"),
            });
        }
        previous = Some((side, sizes));
        side = next;
    }
}

/// The best quality whose size, measured at `previous_side` and scaled by the pixel count,
/// is predicted to fit at `side`; the lowest quality when none is.
fn first_plausible_quality(
    measured: &[Option<u64>],
    previous_side: u32,
    side: u32,
    target: u64,
) -> usize {
    let ratio = (f64::from(side) / f64::from(previous_side.max(1))).powi(2);
    // Precision is irrelevant for a size estimate.
    #[allow(clippy::cast_precision_loss)]
    let fits = |size: u64| size as f64 * ratio <= target as f64;
    measured
        .iter()
        .position(|size| size.is_some_and(fits))
        .unwrap_or(JPEG_QUALITIES.len() - 1)
}

/// The longest side to try after `side` gave `size` bytes at the lowest quality.
fn next_side(side: u32, size: u64, target: u64) -> u32 {
    // Precision is irrelevant for a size estimate.
    #[allow(clippy::cast_precision_loss)]
    let estimate = (target as f64 / size.max(1) as f64).sqrt() * 0.95;
    let factor = estimate.min(SHRINK_STEP);
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let next = (f64::from(side) * factor).floor() as u32;
    // Always strictly smaller, so the loop ends.
    next.min(side.saturating_sub(1))
}

fn encode_jpeg(image: &RgbImage, quality: u8) -> Result<Vec<u8>, ImageError> {
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality)
        .encode(
            image.as_raw(),
            image.width(),
            image.height(),
            image::ExtendedColorType::Rgb8,
        )
        .map_err(|e| ImageError::Encode {
            format: "JPEG",
            detail: e.to_string(),
        })?;
    Ok(bytes)
}

/// RGB pixels with any transparency composited onto white (JPEG has no alpha, and black
/// behind a transparent screenshot would hide dark text).
fn flatten_onto_white(image: &DynamicImage) -> RgbImage {
    if !image.color().has_alpha() {
        return image.to_rgb8();
    }
    let rgba = image.to_rgba8();
    let mut rgb = RgbImage::new(rgba.width(), rgba.height());
    for (out, pixel) in rgb.pixels_mut().zip(rgba.pixels()) {
        let [r, g, b, a] = pixel.0;
        let alpha = u16::from(a);
        let blend = |c: u8| {
            let value = (u16::from(c) * alpha + 255 * (255 - alpha) + 127) / 255;
            u8::try_from(value).unwrap_or(u8::MAX)
        };
        out.0 = [blend(r), blend(g), blend(b)];
    }
    rgb
}

/// `image` with its longest side at most `max_side`, aspect ratio kept.
fn fit_within(image: RgbImage, max_side: u32) -> RgbImage {
    if image.width().max(image.height()) <= max_side {
        return image;
    }
    fit_within_rgb(&image, max_side)
}

fn fit_within_rgb(image: &RgbImage, max_side: u32) -> RgbImage {
    let (width, height) = scaled_size(image.width(), image.height(), max_side);
    // Through `DynamicImage` so the resampler is the `image` crate's own compiled code, which
    // Cargo.toml optimises in debug builds too, not an unoptimised copy monomorphised here.
    DynamicImage::ImageRgb8(image.clone())
        .resize_exact(width, height, FILTER)
        .into_rgb8()
}

/// `(width, height)` scaled so the longer is `max_side` (never enlarged, never 0).
pub fn scaled_size(width: u32, height: u32, max_side: u32) -> (u32, u32) {
    let longest = width.max(height);
    if longest <= max_side {
        return (width, height);
    }
    let scale = |side: u32| {
        let scaled =
            (u64::from(side) * u64::from(max_side) + u64::from(longest) / 2) / u64::from(longest);
        u32::try_from(scaled).unwrap_or(max_side).clamp(1, max_side)
    };
    (scale(width), scale(height))
}

/// Whether a GIF has more than one frame (only the first two are decoded).
fn is_animated_gif(bytes: &[u8]) -> bool {
    use image::AnimationDecoder;
    image::codecs::gif::GifDecoder::new(std::io::Cursor::new(bytes))
        .map(|decoder| decoder.into_frames().take(2).count() > 1)
        .unwrap_or(false)
}

fn payload(media_type: &str, bytes: &[u8]) -> ImagePayload {
    ImagePayload {
        media_type: media_type.to_string(),
        base64: base64::engine::general_purpose::STANDARD.encode(bytes),
    }
}

#[cfg(test)]
#[path = "embed_tests.rs"]
mod tests;
