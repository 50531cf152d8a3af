#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::images::test_images::encoded;
use crate::images::test_images::write;
use image::GenericImageView;
use image::ImageFormat;
use image::Rgba;
use image::RgbaImage;

fn sample(width: u32, height: u32) -> DynamicImage {
    DynamicImage::ImageRgba8(RgbaImage::from_fn(width, height, |x, y| {
        Rgba([(x * 7 % 256) as u8, (y * 13 % 256) as u8, 90, 255])
    }))
}

/// CRC-32 as PNG chunks use it, to forge headers.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = u32::MAX;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A small real PNG whose IHDR claims other dimensions (and bit depth / colour type); the
/// pixel data is far too short for them, so only a header check can give the right error.
fn forged_png(width: u32, height: u32, depth: u8, color: u8) -> Vec<u8> {
    let mut png = encoded(&sample(4, 4), ImageFormat::Png);
    png[16..20].copy_from_slice(&width.to_be_bytes());
    png[20..24].copy_from_slice(&height.to_be_bytes());
    png[24] = depth;
    png[25] = color;
    let crc = crc32(&png[12..29]);
    png[29..33].copy_from_slice(&crc.to_be_bytes());
    png
}

#[test]
fn every_supported_format_decodes_to_the_same_size() {
    let dir = tempfile::tempdir().unwrap();
    let image = sample(40, 30);
    for (format, name) in [
        (ImageFormat::Png, "a.png"),
        (ImageFormat::Jpeg, "a.jpg"),
        (ImageFormat::Gif, "a.gif"),
        (ImageFormat::WebP, "a.webp"),
        (ImageFormat::Bmp, "a.bmp"),
    ] {
        let path = write(dir.path(), name, &encoded(&image, format));
        let decoded = decode_file(&path).unwrap();
        assert_eq!(decoded.dimensions(), (40, 30), "{name}");
    }
}

#[test]
fn lossless_formats_keep_the_pixels() {
    let image = sample(17, 9);
    for format in [ImageFormat::Png, ImageFormat::Bmp, ImageFormat::WebP] {
        let decoded = decode_bytes(&encoded(&image, format), "x").unwrap();
        assert_eq!(decoded.to_rgb8(), image.to_rgb8(), "{format:?}");
    }
}

#[test]
fn format_comes_from_the_magic_bytes_not_the_extension() {
    let dir = tempfile::tempdir().unwrap();
    let png_named_jpg = write(
        dir.path(),
        "a.jpg",
        &encoded(&sample(5, 6), ImageFormat::Png),
    );
    assert_eq!(decode_file(&png_named_jpg).unwrap().dimensions(), (5, 6));
    let jpg = encoded(&sample(8, 3), ImageFormat::Jpeg);
    assert_eq!(detect_kind(&jpg, "x").unwrap(), ImageKind::Jpeg);
    let jpg_named_png = write(dir.path(), "b.png", &jpg);
    assert_eq!(decode_file(&jpg_named_png).unwrap().dimensions(), (8, 3));
}

#[test]
fn an_animated_gif_decodes_its_first_frame() {
    use image::codecs::gif::GifEncoder;
    let frame = |value: u8| {
        image::Frame::new(RgbaImage::from_pixel(
            6,
            4,
            Rgba([value, value, value, 255]),
        ))
    };
    let mut bytes = Vec::new();
    {
        let mut encoder = GifEncoder::new(&mut bytes);
        encoder.encode_frames([frame(200), frame(10)]).unwrap();
    }
    let decoded = decode_bytes(&bytes, "anim.gif").unwrap();
    assert_eq!(decoded.dimensions(), (6, 4));
    assert_eq!(decoded.to_rgba8().get_pixel(0, 0).0[0], 200);
}

#[test]
fn missing_files_and_directories_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("gone.png");
    let err = decode_file(&missing).unwrap_err();
    assert!(matches!(err, ImageError::Missing { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        format!("{} does not exist", missing.display())
    );

    let sub = dir.path().join("folder.png");
    std::fs::create_dir(&sub).unwrap();
    let err = decode_file(&sub).unwrap_err();
    assert!(matches!(err, ImageError::NotAFile { .. }), "{err:?}");
    assert!(err.to_string().contains("folder.png is not a regular file"));
}

#[test]
fn oversized_files_are_refused_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.png");
    let file = std::fs::File::create(&path).unwrap();
    // Sparse: no 50 MiB is written.
    file.set_len(MAX_IMAGE_FILE_BYTES + 1).unwrap();
    let err = decode_file(&path).unwrap_err();
    assert!(
        matches!(err, ImageError::FileTooLarge { bytes, .. } if bytes == MAX_IMAGE_FILE_BYTES + 1)
    );
    assert_eq!(
        err.to_string(),
        "huge.png is too large to attach: 50.0 MiB (the limit is 50.0 MiB)"
    );
}

#[test]
fn pixel_caps_are_checked_from_the_header() {
    let too_wide = forged_png(MAX_IMAGE_SIDE + 1, 10, 8, 6);
    let err = decode_bytes(&too_wide, "wide.png").unwrap_err();
    assert!(
        matches!(
            err,
            ImageError::TooManyPixels {
                width: 16_385,
                height: 10,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .starts_with("wide.png is too large: 16385×10 pixels")
    );

    // Both sides allowed, but 144 megapixels in total.
    let too_many = forged_png(12_000, 12_000, 8, 2);
    let err = decode_bytes(&too_many, "big.png").unwrap_err();
    assert!(matches!(err, ImageError::TooManyPixels { .. }), "{err:?}");
    assert!(checked_decoder(&too_many, ImageKind::Png, "big.png").is_err());

    // 100 megapixels of 16-bit RGBA would be 800 MB: the decoder memory cap says no.
    let bomb = forged_png(10_000, 10_000, 16, 6);
    let err = decode_bytes(&bomb, "bomb.png").unwrap_err();
    assert!(matches!(err, ImageError::DecodeLimit { .. }), "{err:?}");
    assert!(err.to_string().contains("512.0 MiB"));

    // Within every cap: the header is fine, the missing pixel data is corruption.
    let ok_header = forged_png(300, 200, 8, 6);
    let decoder = checked_decoder(&ok_header, ImageKind::Png, "x").unwrap();
    assert_eq!(decoder.dimensions(), (300, 200));
    assert!(matches!(
        decode_bytes(&ok_header, "x").unwrap_err(),
        ImageError::Corrupt { format: "PNG", .. }
    ));
}

#[test]
fn unsupported_formats_are_named_when_recognisable() {
    for (bytes, expected) in [
        (&b"%PDF-1.7\n%\xe2\xe3"[..], "doc is a PDF document"),
        (b"II*\0\x08\0\0\0\0\0\0\0", "doc is a TIFF image"),
        (b"\0\0\0\x18ftypheic\0\0\0\0mif1heic", "doc is a HEIC image"),
        (b"\0\0\0\x1cftypavif\0\0\0\0", "doc is an AVIF image"),
        (
            b"  <svg xmlns='http://www.w3.org/2000/svg'/>",
            "doc is an SVG file",
        ),
        (b"<?xml version='1.0'?><svg/>", "doc is an XML or SVG file"),
        (b"PK\x03\x04zip", "doc is a ZIP archive"),
        (b"BM", "doc is in an unknown format"),
        (b"hello, world", "doc is in an unknown format"),
        (b"", "doc is in an unknown format"),
    ] {
        let err = decode_bytes(bytes, "doc").unwrap_err();
        assert!(matches!(err, ImageError::Unsupported { .. }), "{err:?}");
        let message = err.to_string();
        assert!(message.starts_with(expected), "{message}");
        assert!(
            message.ends_with("(supported: PNG, JPEG, GIF, WebP and BMP)"),
            "{message}"
        );
    }
}

#[test]
fn corrupt_data_names_the_file_and_the_format() {
    let dir = tempfile::tempdir().unwrap();
    let mut png = encoded(&sample(64, 64), ImageFormat::Png);
    png.truncate(png.len() / 2);
    let path = write(dir.path(), "screenshot.png", &png);
    let err = decode_file(&path).unwrap_err();
    let message = err.to_string();
    assert!(
        message.starts_with("screenshot.png is not a usable image: corrupt PNG data ("),
        "{message}"
    );

    let mut jpeg = encoded(&sample(64, 64), ImageFormat::Jpeg);
    // Past the magic bytes, into the tables.
    for byte in jpeg.iter_mut().skip(20).take(60) {
        *byte = 0xAB;
    }
    let err = decode_bytes(&jpeg, "the clipboard image").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("the clipboard image is not a usable image: corrupt JPEG data"),
        "{err}"
    );
}

#[test]
fn rgba_buffers_are_validated() {
    let rgba = [1, 2, 3, 4, 5, 6, 7, 8];
    let image = from_rgba(2, 1, &rgba).unwrap();
    assert_eq!(image.to_rgba8().into_raw(), rgba);

    let err = from_rgba(2, 2, &rgba).unwrap_err();
    assert!(
        matches!(
            err,
            ImageError::BadPixelBuffer {
                expected: 16,
                actual: 8,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "the clipboard image has inconsistent pixel data: 2×2 RGBA needs 16 bytes, got 8"
    );
    assert!(matches!(
        from_rgba(0, 5, &[]).unwrap_err(),
        ImageError::NoPixels { .. }
    ));
    // Refused on the sides alone: no 4 GB buffer is needed to find out.
    assert!(matches!(
        from_rgba(20_000, 20_000, &rgba).unwrap_err(),
        ImageError::TooManyPixels { .. }
    ));
    assert!(matches!(
        from_rgba(usize::MAX, 2, &rgba).unwrap_err(),
        ImageError::TooManyPixels { .. }
    ));
}

fn at(year: i64, month: i64, day: i64, secs_of_day: u64, millis: u64) -> SystemTime {
    let days = crate::util::time::days_from_civil(year, month, day);
    SystemTime::UNIX_EPOCH
        + std::time::Duration::from_secs(days as u64 * 86_400 + secs_of_day)
        + std::time::Duration::from_millis(millis)
}

#[test]
fn file_stems_are_utc_timestamps_with_milliseconds() {
    let now = at(2026, 11, 30, 10 * 3600 + 4 * 60 + 5, 7);
    assert_eq!(file_stem(now), "image_20261130_100405_007");
    assert_eq!(
        file_stem(SystemTime::UNIX_EPOCH),
        "image_19700101_000000_000"
    );
}

#[test]
fn saves_numbered_pngs_without_leftovers() {
    let dir = tempfile::tempdir().unwrap();
    let images = dir.path().join("nested").join("images");
    let now = at(2026, 11, 30, 36_000, 123);
    let image = sample(30, 20);

    let first = save_png(&images, &image, now).unwrap();
    assert_eq!(first.path, images.join("image_20261130_100000_123.png"));
    assert_eq!((first.width, first.height), (30, 20));
    assert_eq!(first.bytes, std::fs::metadata(&first.path).unwrap().len());
    let decoded = decode_file(&first.path).unwrap();
    assert_eq!(decoded.to_rgba8(), image.to_rgba8());
    // Opaque RGBA is stored as RGB.
    assert_eq!(decoded.color(), image::ColorType::Rgb8);

    let second = save_png(&images, &image, now).unwrap();
    let third = save_png(&images, &image, now).unwrap();
    assert_eq!(second.path, images.join("image_20261130_100000_123_2.png"));
    assert_eq!(third.path, images.join("image_20261130_100000_123_3.png"));

    let mut names: Vec<_> = std::fs::read_dir(&images)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "image_20261130_100000_123.png",
            "image_20261130_100000_123_2.png",
            "image_20261130_100000_123_3.png"
        ]
    );
}

#[test]
fn transparency_survives_saving() {
    let dir = tempfile::tempdir().unwrap();
    let mut image = RgbaImage::from_pixel(4, 4, Rgba([10, 20, 30, 255]));
    image.put_pixel(1, 2, Rgba([0, 0, 0, 0]));
    let saved = save_png(
        dir.path(),
        &DynamicImage::ImageRgba8(image.clone()),
        SystemTime::now(),
    )
    .unwrap();
    assert_eq!(decode_file(&saved.path).unwrap().to_rgba8(), image);
}

#[test]
fn concurrent_saves_never_share_a_name() {
    let dir = tempfile::tempdir().unwrap();
    let now = at(2026, 1, 2, 3, 4);
    let paths: Vec<PathBuf> = std::thread::scope(|scope| {
        #[allow(clippy::needless_collect)] // spawn all before joining any, so they race
        let handles: Vec<_> = (0..8)
            .map(|_| scope.spawn(|| save_png(dir.path(), &sample(8, 8), now).unwrap().path))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let unique: std::collections::BTreeSet<_> = paths.iter().collect();
    assert_eq!(unique.len(), 8);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 8);
}

#[test]
fn write_failures_name_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = write(dir.path(), "not-a-dir", b"x");
    let err = save_png(&blocker, &sample(2, 2), SystemTime::now()).unwrap_err();
    assert!(matches!(err, ImageError::Write { .. }), "{err:?}");
    assert!(
        err.to_string().starts_with(&format!(
            "could not save the image to {}",
            blocker.display()
        )),
        "{err}"
    );
}
