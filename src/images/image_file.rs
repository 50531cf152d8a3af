//! Image files in and out: reading a file or clipboard bytes into pixels, validating them,
//! and saving an attachment as a timestamped PNG.
//!
//! Not here: the clipboard itself, request encoding (`embed`), and deciding where images
//! live (the caller passes the directory). Invariants: the format comes from the magic
//! bytes, never the extension; only PNG, JPEG, GIF (first frame), WebP and BMP are read;
//! every decode is bounded before it starts (file size, each side, pixel count, decoder
//! memory); a saved PNG appears under its final name complete or not at all, and never
//! replaces an existing file. Error messages are for end users and name the file or source.

use std::io::Cursor;
use std::io::Read;
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;
use std::time::SystemTime;

use image::DynamicImage;
use image::ImageDecoder;
use image::ImageReader;
use image::Limits;

use crate::protocol::ImageAttachment;

/// Larger files are refused before reading them.
pub const MAX_IMAGE_FILE_BYTES: u64 = 50 * 1024 * 1024;
/// Neither side may be longer, checked from the header before decoding.
pub const MAX_IMAGE_SIDE: u32 = 16_384;
/// At most 100 megapixels, checked from the header before decoding.
pub const MAX_IMAGE_PIXELS: u64 = 100_000_000;
/// What a decoder may allocate, the output buffer included.
pub const MAX_DECODE_ALLOC_BYTES: u64 = 512 * 1024 * 1024;

const SUPPORTED: &str = "PNG, JPEG, GIF, WebP and BMP";

#[derive(Debug, thiserror::Error)]
pub enum ImageError {
    #[error("could not read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} does not exist", path.display())]
    Missing { path: PathBuf },
    #[error("{} is not a regular file", path.display())]
    NotAFile { path: PathBuf },
    #[error("{what} is too large to attach: {} (the limit is {})", mib(*bytes), mib(*cap))]
    FileTooLarge { what: String, bytes: u64, cap: u64 },
    #[error(
        "{what} is too large: {width}×{height} pixels (at most {MAX_IMAGE_SIDE} per side and \
         {} megapixels)",
        MAX_IMAGE_PIXELS / 1_000_000
    )]
    TooManyPixels {
        what: String,
        width: u64,
        height: u64,
    },
    #[error("{what} is empty ({width}×{height} pixels)")]
    NoPixels {
        what: String,
        width: u64,
        height: u64,
    },
    #[error(
        "{what} would need more than {} of memory to decode",
        mib(MAX_DECODE_ALLOC_BYTES)
    )]
    DecodeLimit { what: String },
    #[error("{what} is {detected}, not an image hermes can attach (supported: {SUPPORTED})")]
    Unsupported {
        what: String,
        /// What the magic bytes say it is: "a PDF document", "in an unknown format".
        detected: &'static str,
    },
    #[error("{what} uses a {format} feature hermes cannot read ({detail})")]
    UnsupportedVariant {
        what: String,
        format: &'static str,
        detail: String,
    },
    #[error("{what} is not a usable image: corrupt {format} data ({detail})")]
    Corrupt {
        what: String,
        format: &'static str,
        detail: String,
    },
    #[error(
        "{what} has inconsistent pixel data: {width}×{height} RGBA needs {expected} bytes, got \
         {actual}"
    )]
    BadPixelBuffer {
        what: String,
        width: usize,
        height: usize,
        expected: usize,
        actual: usize,
    },
    #[error("could not encode the image as {format}: {detail}")]
    Encode {
        format: &'static str,
        detail: String,
    },
    #[error("could not save the image to {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

fn mib(bytes: u64) -> String {
    // Display only: the precision loss of a float is irrelevant here.
    #[allow(clippy::cast_precision_loss)]
    let value = bytes as f64 / (1024.0 * 1024.0);
    format!("{value:.1} MiB")
}

/// The formats hermes reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageKind {
    Png,
    Jpeg,
    Gif,
    WebP,
    Bmp,
}

impl ImageKind {
    pub fn name(self) -> &'static str {
        self.describe().0
    }

    pub fn media_type(self) -> &'static str {
        self.describe().1
    }

    /// Name for messages, media type for requests, and the decoder to use.
    fn describe(self) -> (&'static str, &'static str, image::ImageFormat) {
        match self {
            Self::Png => ("PNG", "image/png", image::ImageFormat::Png),
            Self::Jpeg => ("JPEG", "image/jpeg", image::ImageFormat::Jpeg),
            Self::Gif => ("GIF", "image/gif", image::ImageFormat::Gif),
            Self::WebP => ("WebP", "image/webp", image::ImageFormat::WebP),
            Self::Bmp => ("BMP", "image/bmp", image::ImageFormat::Bmp),
        }
    }
}

/// The format by magic bytes; anything else is `Unsupported`, named when recognisable.
pub fn detect_kind(bytes: &[u8], what: &str) -> Result<ImageKind, ImageError> {
    let kind = match image::guess_format(bytes) {
        Ok(image::ImageFormat::Png) => Some(ImageKind::Png),
        Ok(image::ImageFormat::Jpeg) => Some(ImageKind::Jpeg),
        Ok(image::ImageFormat::Gif) => Some(ImageKind::Gif),
        Ok(image::ImageFormat::WebP) => Some(ImageKind::WebP),
        // `BM` alone is weak evidence; a real BMP header also carries the file size.
        Ok(image::ImageFormat::Bmp) if bytes.len() >= 14 => Some(ImageKind::Bmp),
        _ => None,
    };
    kind.ok_or_else(|| ImageError::Unsupported {
        what: what.to_string(),
        detected: unsupported_kind(bytes),
    })
}

/// Magic bytes (at an offset) of files people paste that hermes cannot read, so the
/// message can say what it got.
const UNSUPPORTED_MAGIC: [(usize, &[u8], &str); 16] = [
    (0, b"%PDF-", "a PDF document"),
    (0, b"II*\0", "a TIFF image"),
    (0, b"MM\0*", "a TIFF image"),
    (4, b"ftypheic", "a HEIC image"),
    (4, b"ftypheix", "a HEIC image"),
    (4, b"ftyphevc", "a HEIC image"),
    (4, b"ftypmif1", "a HEIC image"),
    (4, b"ftypmsf1", "a HEIC image"),
    (4, b"ftypavif", "an AVIF image"),
    (4, b"ftypavis", "an AVIF image"),
    (0, &[0xFF, 0x0A], "a JPEG XL image"),
    (0, b"\0\0\0\x0cJXL ", "a JPEG XL image"),
    (0, b"8BPS", "a Photoshop document"),
    (0, &[0, 0, 1, 0], "an icon file"),
    (0, b"PK\x03\x04", "a ZIP archive"),
    (0, b"<svg", "an SVG file"),
];

fn unsupported_kind(bytes: &[u8]) -> &'static str {
    let trimmed = bytes.trim_ascii_start();
    if trimmed.starts_with(b"<?xml") {
        return "an XML or SVG file";
    }
    UNSUPPORTED_MAGIC
        .iter()
        .find(|(offset, magic, _)| {
            let head = if *offset == 0 { trimmed } else { bytes };
            head.get(*offset..).is_some_and(|b| b.starts_with(magic))
        })
        .map_or("in an unknown format", |(_, _, name)| name)
}

/// How a file is named in messages: its file name, which is what the user recognises.
pub fn display_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}

/// The bytes of a regular file no larger than [`MAX_IMAGE_FILE_BYTES`].
pub fn read_image_file(path: &Path) -> Result<Vec<u8>, ImageError> {
    let path_buf = || path.to_path_buf();
    let read_error = |source| ImageError::Read {
        path: path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => ImageError::Missing { path: path_buf() },
        _ => read_error(e),
    })?;
    if !meta.is_file() {
        return Err(ImageError::NotAFile { path: path_buf() });
    }
    let file = std::fs::File::open(path).map_err(read_error)?;
    let mut bytes = Vec::new();
    // Never read past the cap, even when the file grows after the size check.
    if meta.len() <= MAX_IMAGE_FILE_BYTES {
        file.take(MAX_IMAGE_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(read_error)?;
    }
    check_size(bytes.len() as u64, meta.len(), &display_name(path))?;
    Ok(bytes)
}

fn check_size(read: u64, reported: u64, what: &str) -> Result<(), ImageError> {
    let bytes = read.max(reported);
    if bytes <= MAX_IMAGE_FILE_BYTES {
        return Ok(());
    }
    Err(ImageError::FileTooLarge {
        what: what.to_string(),
        bytes,
        cap: MAX_IMAGE_FILE_BYTES,
    })
}

/// Decodes an image file (first frame of an animation), EXIF orientation applied.
pub fn decode_file(path: &Path) -> Result<DynamicImage, ImageError> {
    let bytes = read_image_file(path)?;
    decode_bytes(&bytes, &display_name(path))
}

/// Decodes in-memory image data; `what` names the source in messages ("the clipboard image").
pub fn decode_bytes(bytes: &[u8], what: &str) -> Result<DynamicImage, ImageError> {
    check_size(bytes.len() as u64, 0, what)?;
    let kind = detect_kind(bytes, what)?;
    let mut decoder = checked_decoder(bytes, kind, what)?;
    let orientation = decoder.orientation().ok();
    let mut image = DynamicImage::from_decoder(decoder).map_err(|e| decode_error(e, kind, what))?;
    if let Some(orientation) = orientation {
        image.apply_orientation(orientation);
    }
    Ok(image)
}

/// A decoder that has read the header and passed every cap; decoding it is bounded.
fn checked_decoder<'a>(
    bytes: &'a [u8],
    kind: ImageKind,
    what: &str,
) -> Result<impl ImageDecoder + 'a, ImageError> {
    let mut limits = Limits::default();
    limits.max_alloc = Some(MAX_DECODE_ALLOC_BYTES);
    let mut reader = ImageReader::with_format(Cursor::new(bytes), kind.describe().2);
    reader.limits(limits.clone());
    let mut decoder = reader
        .into_decoder()
        .map_err(|e| decode_error(e, kind, what))?;
    let (width, height) = decoder.dimensions();
    check_pixels(u64::from(width), u64::from(height), what)?;
    if decoder.total_bytes() > MAX_DECODE_ALLOC_BYTES {
        return Err(ImageError::DecodeLimit {
            what: what.to_string(),
        });
    }
    // The sides are known to be within the caps; make them strict for the decode as well.
    limits.max_image_width = Some(MAX_IMAGE_SIDE);
    limits.max_image_height = Some(MAX_IMAGE_SIDE);
    decoder
        .set_limits(limits)
        .map_err(|e| decode_error(e, kind, what))?;
    Ok(decoder)
}

fn check_pixels(width: u64, height: u64, what: &str) -> Result<(), ImageError> {
    if width == 0 || height == 0 {
        return Err(ImageError::NoPixels {
            what: what.to_string(),
            width,
            height,
        });
    }
    let side = u64::from(MAX_IMAGE_SIDE);
    if width > side || height > side || width.saturating_mul(height) > MAX_IMAGE_PIXELS {
        return Err(ImageError::TooManyPixels {
            what: what.to_string(),
            width,
            height,
        });
    }
    Ok(())
}

fn decode_error(error: image::ImageError, kind: ImageKind, what: &str) -> ImageError {
    let (what, format) = (what.to_string(), kind.name());
    let detail = match error {
        image::ImageError::Limits(_) => return ImageError::DecodeLimit { what },
        image::ImageError::Unsupported(e) => {
            let detail = e.to_string();
            return ImageError::UnsupportedVariant {
                what,
                format,
                detail,
            };
        }
        image::ImageError::IoError(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            "the data ends early".to_string()
        }
        // The decoder's own error is more specific than the wrapper's "Format error decoding …".
        image::ImageError::Decoding(e) => {
            std::error::Error::source(&e).map_or_else(|| e.to_string(), ToString::to_string)
        }
        other => other.to_string(),
    };
    ImageError::Corrupt {
        what,
        format,
        detail,
    }
}

/// Pixels as `arboard::ImageData` carries them (RGBA8, row-major, no padding). Messages call
/// the source "the clipboard image", the only producer of such buffers.
pub fn from_rgba(width: usize, height: usize, rgba: &[u8]) -> Result<DynamicImage, ImageError> {
    const WHAT: &str = "the clipboard image";
    check_pixels(width as u64, height as u64, WHAT)?;
    // Within the pixel caps, so neither the product nor the sides overflow.
    let expected = width.saturating_mul(height).saturating_mul(4);
    let bad_buffer = || ImageError::BadPixelBuffer {
        what: WHAT.to_string(),
        width,
        height,
        expected,
        actual: rgba.len(),
    };
    if rgba.len() != expected {
        return Err(bad_buffer());
    }
    let w = u32::try_from(width).map_err(|_| bad_buffer())?;
    let h = u32::try_from(height).map_err(|_| bad_buffer())?;
    image::RgbaImage::from_raw(w, h, rgba.to_vec())
        .map(DynamicImage::ImageRgba8)
        .ok_or_else(bad_buffer)
}

/// PNG bytes for `image`. An opaque RGBA image loses its alpha channel first: screenshots
/// usually are, and the file gets a quarter smaller.
pub fn encode_png(image: &DynamicImage) -> Result<Vec<u8>, ImageError> {
    let opaque;
    let image = match image {
        DynamicImage::ImageRgba8(rgba) if rgba.pixels().all(|p| p.0[3] == u8::MAX) => {
            opaque = DynamicImage::ImageRgb8(image.to_rgb8());
            &opaque
        }
        _ => image,
    };
    let mut bytes = Vec::new();
    let encoder = image::codecs::png::PngEncoder::new_with_quality(
        &mut bytes,
        image::codecs::png::CompressionType::Fast,
        image::codecs::png::FilterType::Adaptive,
    );
    image
        .write_with_encoder(encoder)
        .map_err(|e| ImageError::Encode {
            format: "PNG",
            detail: e.to_string(),
        })?;
    Ok(bytes)
}

/// Saves `image` as `dir/image_YYYYMMDD_HHMMSS_mmm.png` (UTC `now`; `_2`, `_3`, … when the
/// name is taken) and describes the result.
///
/// The PNG is written and synced under a temporary name, then linked to a final name that
/// did not exist, so a reader never sees a partial file and two writers never share a name.
pub fn save_png(
    dir: &Path,
    image: &DynamicImage,
    now: SystemTime,
) -> Result<ImageAttachment, ImageError> {
    let write_error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ImageError::Write { path, source }
    };
    let png = encode_png(image)?;
    std::fs::create_dir_all(dir).map_err(write_error(dir))?;
    let tmp = dir.join(format!(
        ".image-{}-{:08x}.png.tmp",
        std::process::id(),
        fastrand::u32(..)
    ));
    let result = write_synced(&tmp, &png)
        .map_err(write_error(&tmp))
        .and_then(|()| publish(&tmp, dir, &file_stem(now)));
    // The temporary name is gone after a rename; after a link or a failure it is removed here.
    let _ = std::fs::remove_file(&tmp);
    Ok(ImageAttachment {
        path: result?,
        width: image.width(),
        height: image.height(),
        bytes: png.len() as u64,
    })
}

/// `image_YYYYMMDD_HHMMSS_mmm` in UTC.
pub fn file_stem(now: SystemTime) -> String {
    let since_epoch = now
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    let secs = i64::try_from(since_epoch.as_secs()).unwrap_or(i64::MAX);
    let (year, month, day) = crate::util::time::civil_from_days(secs.div_euclid(86_400));
    let of_day = secs.rem_euclid(86_400);
    format!(
        "image_{year:04}{month:02}{day:02}_{:02}{:02}{:02}_{:03}",
        of_day / 3600,
        (of_day % 3600) / 60,
        of_day % 60,
        since_epoch.subsec_millis()
    )
}

fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Gives the finished temp file the first free name `stem.png`, `stem_2.png`, ….
fn publish(tmp: &Path, dir: &Path, stem: &str) -> Result<PathBuf, ImageError> {
    const MAX_SUFFIX: u32 = 10_000;
    let mut last_error = None;
    for n in 1..=MAX_SUFFIX {
        let candidate = match n {
            1 => dir.join(format!("{stem}.png")),
            _ => dir.join(format!("{stem}_{n}.png")),
        };
        match publish_as(tmp, &candidate) {
            Ok(()) => return Ok(candidate),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last_error = Some(e),
            Err(source) => {
                return Err(ImageError::Write {
                    path: candidate,
                    source,
                });
            }
        }
    }
    Err(ImageError::Write {
        path: dir.join(format!("{stem}.png")),
        source: last_error.unwrap_or_else(|| std::io::ErrorKind::AlreadyExists.into()),
    })
}

/// Publishes `tmp` as `target` unless `target` exists (`AlreadyExists`). A hard link never
/// replaces a file, so it claims the name and publishes at once. Without hard links (FAT,
/// some network filesystems) an empty file claims the name and a rename fills it.
fn publish_as(tmp: &Path, target: &Path) -> std::io::Result<()> {
    match std::fs::hard_link(tmp, target) {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
            let mut claim = std::fs::OpenOptions::new();
            claim.write(true).create_new(true).open(target)?;
            std::fs::rename(tmp, target).inspect_err(|_| {
                let _ = std::fs::remove_file(target);
            })
        }
        result => result,
    }
}

#[cfg(test)]
#[path = "image_file_tests.rs"]
mod tests;
