#![allow(clippy::unwrap_used, clippy::expect_used)]

use image::ImageFormat;
use image::Rgb;
use image::Rgba;
use image::RgbaImage;

use super::*;
use crate::images::test_images::encoded;
use crate::images::test_images::write;

fn raw(payload: &ImagePayload) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(&payload.base64)
        .unwrap()
}

fn decoded(payload: &ImagePayload) -> DynamicImage {
    image::load_from_memory(&raw(payload)).unwrap()
}

fn average(image: &RgbImage) -> [f64; 3] {
    let mut sum = [0.0; 3];
    for pixel in image.pixels() {
        for (s, c) in sum.iter_mut().zip(pixel.0) {
            *s += f64::from(c);
        }
    }
    let n = f64::from(image.width() * image.height());
    sum.map(|s| s / n)
}

/// Uniform noise of ±60 around a colour: barely compressible, by PNG or JPEG.
fn noisy(width: u32, height: u32, seed: u64) -> RgbImage {
    let mut rng = fastrand::Rng::with_seed(seed);
    RgbImage::from_fn(width, height, |_, _| {
        let mut channel = |centre: u8| centre - 60 + rng.u8(0..=120);
        Rgb([channel(190), channel(110), channel(70)])
    })
}

#[test]
fn targets_are_clamped() {
    assert_eq!(clamp_embed_target(0), DEFAULT_EMBED_TARGET_BYTES);
    assert_eq!(clamp_embed_target(1), 65_536);
    assert_eq!(clamp_embed_target(10 * 1024 * 1024 * 1024), 4_194_304);
    assert_eq!(clamp_embed_target(1_048_576), 1_048_576);
}

#[test]
fn a_noisy_photo_becomes_a_jpeg_within_budget_and_size() {
    let dir = tempfile::tempdir().unwrap();
    let original = noisy(3000, 2000, 7);
    let path = write(
        dir.path(),
        "noise.png",
        &encoded(&DynamicImage::ImageRgb8(original.clone()), ImageFormat::Png),
    );
    let target = DEFAULT_EMBED_TARGET_BYTES;
    let payload = encode_for_embed(&path, target).unwrap();
    assert_eq!(payload.media_type, "image/jpeg");
    assert!(
        raw(&payload).len() as u64 <= target,
        "{}",
        raw(&payload).len()
    );
    let image = decoded(&payload);
    assert!(image.width().max(image.height()) <= MAX_EMBED_SIDE);
    // Aspect ratio kept (3:2, within rounding).
    let ratio = f64::from(image.width()) / f64::from(image.height());
    assert!((ratio - 1.5).abs() < 0.01, "{ratio}");
    let (before, after) = (average(&original), average(&image.to_rgb8()));
    for (b, a) in before.iter().zip(after) {
        assert!(
            (b - a).abs() < 4.0,
            "average colour {before:?} became {after:?}"
        );
    }
}

#[test]
fn the_smallest_budget_is_still_met() {
    let image = DynamicImage::ImageRgb8(noisy(1500, 1500, 3));
    let payload = encode_image_for_embed(&image, MIN_EMBED_TARGET_BYTES).unwrap();
    assert_eq!(payload.media_type, "image/jpeg");
    assert!(raw(&payload).len() as u64 <= MIN_EMBED_TARGET_BYTES);
    let small = decoded(&payload);
    assert!(
        small.width() < 1500 && small.width() >= MIN_SIDE,
        "{}",
        small.width()
    );
}

#[test]
fn a_small_png_passes_through_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let image = DynamicImage::ImageRgba8(RgbaImage::from_fn(200, 120, |x, y| {
        Rgba([x as u8, y as u8, 50, 255])
    }));
    let bytes = encoded(&image, ImageFormat::Png);
    let path = write(dir.path(), "small.png", &bytes);
    let payload = encode_for_embed(&path, 0).unwrap();
    assert_eq!(payload.media_type, "image/png");
    assert_eq!(raw(&payload), bytes);
    assert_eq!(
        payload.data_url(),
        format!("data:image/png;base64,{}", payload.base64)
    );

    let jpeg = encoded(&DynamicImage::ImageRgb8(image.to_rgb8()), ImageFormat::Jpeg);
    let path = write(dir.path(), "small.jpeg", &jpeg);
    let payload = encode_for_embed(&path, 0).unwrap();
    assert_eq!(payload.media_type, "image/jpeg");
    assert_eq!(raw(&payload), jpeg);
}

#[test]
fn a_wide_small_file_is_still_downscaled() {
    let dir = tempfile::tempdir().unwrap();
    let image = DynamicImage::ImageRgb8(RgbImage::from_pixel(2000, 100, Rgb([20, 200, 90])));
    let bytes = encoded(&image, ImageFormat::Png);
    assert!(bytes.len() < 10_000);
    let path = write(dir.path(), "wide.png", &bytes);
    let payload = encode_for_embed(&path, 0).unwrap();
    assert_eq!(payload.media_type, "image/jpeg");
    let small = decoded(&payload);
    assert_eq!((small.width(), small.height()), (1568, 78));
    let pixel = small.to_rgb8().get_pixel(700, 40).0;
    assert!(
        pixel
            .iter()
            .zip([20, 200, 90])
            .all(|(&a, b)| a.abs_diff(b) < 8),
        "{pixel:?}"
    );
}

#[test]
fn bmp_is_always_re_encoded() {
    let dir = tempfile::tempdir().unwrap();
    let image = DynamicImage::ImageRgb8(RgbImage::from_fn(64, 48, |x, y| {
        Rgb([(x * 4) as u8, (y * 5) as u8, 7])
    }));
    let path = write(dir.path(), "wslg.bmp", &encoded(&image, ImageFormat::Bmp));
    let payload = encode_for_embed(&path, 0).unwrap();
    // Small enough to stay lossless.
    assert_eq!(payload.media_type, "image/png");
    assert_eq!(decoded(&payload).to_rgb8(), image.to_rgb8());
}

#[test]
fn an_animated_gif_sends_its_first_frame_and_a_still_gif_passes() {
    use image::codecs::gif::GifEncoder;
    let frame =
        |value: u8| image::Frame::new(RgbaImage::from_pixel(8, 8, Rgba([value, 0, 0, 255])));
    let mut animated = Vec::new();
    GifEncoder::new(&mut animated)
        .encode_frames([frame(250), frame(5)])
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "anim.gif", &animated);
    let payload = encode_for_embed(&path, 0).unwrap();
    assert_eq!(payload.media_type, "image/png");
    assert!(decoded(&payload).to_rgb8().get_pixel(3, 3).0[0] > 240);

    let mut still = Vec::new();
    GifEncoder::new(&mut still)
        .encode_frames([frame(9)])
        .unwrap();
    let path = write(dir.path(), "still.gif", &still);
    let payload = encode_for_embed(&path, 0).unwrap();
    assert_eq!(payload.media_type, "image/gif");
    assert_eq!(raw(&payload), still);
}

#[test]
fn transparency_is_flattened_onto_white() {
    // Too wide to pass as PNG, so it becomes a JPEG.
    let mut image = RgbaImage::from_pixel(2000, 1000, Rgba([0, 0, 0, 0]));
    for x in 0..1000 {
        for y in 0..1000 {
            image.put_pixel(x, y, Rgba([0, 0, 0, 255]));
        }
    }
    let payload = encode_image_for_embed(&DynamicImage::ImageRgba8(image), 0).unwrap();
    assert_eq!(payload.media_type, "image/jpeg");
    let flat = decoded(&payload).to_rgb8();
    assert_eq!((flat.width(), flat.height()), (1568, 784));
    assert!(flat.get_pixel(1400, 400).0.iter().all(|&c| c > 245));
    assert!(flat.get_pixel(200, 400).0.iter().all(|&c| c < 10));
}

#[test]
fn a_small_lossless_image_in_memory_is_sent_as_png() {
    let image = DynamicImage::ImageRgb8(RgbImage::from_pixel(300, 200, Rgb([1, 2, 3])));
    let payload = encode_image_for_embed(&image, 0).unwrap();
    assert_eq!(payload.media_type, "image/png");
    assert_eq!(decoded(&payload).to_rgb8(), image.to_rgb8());
}

#[test]
fn corrupt_and_unsupported_files_are_errors_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut png = encoded(&DynamicImage::ImageRgb8(noisy(64, 64, 1)), ImageFormat::Png);
    png.truncate(png.len() / 3);
    let path = write(dir.path(), "broken.png", &png);
    let err = encode_for_embed(&path, 0).unwrap_err();
    assert!(matches!(err, ImageError::Corrupt { .. }), "{err:?}");
    assert!(
        err.to_string()
            .starts_with("broken.png is not a usable image"),
        "{err}"
    );

    let path = write(dir.path(), "report.png", b"%PDF-1.4 not really");
    let err = encode_for_embed(&path, 0).unwrap_err();
    assert!(
        err.to_string().starts_with("report.png is a PDF document"),
        "{err}"
    );
}

#[test]
fn shrinking_always_makes_progress() {
    assert_eq!(next_side(1568, 300_000, 262_144), 1176);
    // Far over budget: jump by the estimate, not by a quarter.
    assert!(next_side(1568, 4_000_000, 65_536) < 300);
    let mut side = 1568;
    let mut steps = 0;
    while side >= MIN_SIDE {
        side = next_side(side, 262_145, 262_144);
        steps += 1;
    }
    assert!(steps < 20, "{steps}");
    assert_eq!(next_side(1, 10, 5), 0);
}

#[test]
fn scaled_sizes_keep_the_aspect_and_never_vanish() {
    assert_eq!(scaled_size(4000, 3000, 1568), (1568, 1176));
    assert_eq!(scaled_size(100, 2000, 1568), (78, 1568));
    assert_eq!(scaled_size(16_384, 1, 1568), (1568, 1));
    assert_eq!(scaled_size(800, 600, 1568), (800, 600));
}
