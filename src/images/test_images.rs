//! Test helpers shared by the clipboard, engine and tool tests: encode an image in a format
//! and write files.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Cursor;
use std::path::Path;
use std::path::PathBuf;

use image::DynamicImage;
use image::ImageFormat;

/// `image` encoded as `format` (JPEG and BMP get the RGB version: they carry no alpha).
pub fn encoded(image: &DynamicImage, format: ImageFormat) -> Vec<u8> {
    let mut bytes = Vec::new();
    let image = match format {
        ImageFormat::Jpeg | ImageFormat::Bmp => DynamicImage::ImageRgb8(image.to_rgb8()),
        _ => image.clone(),
    };
    image
        .write_to(&mut Cursor::new(&mut bytes), format)
        .unwrap();
    bytes
}

/// A `width`×`height` PNG whose pixels differ from their neighbours.
pub fn pattern_png(width: u32, height: u32) -> Vec<u8> {
    let image = image::RgbaImage::from_fn(width, height, |x, y| {
        image::Rgba([(x * 40 % 256) as u8, (y * 60 % 256) as u8, 200, 255])
    });
    encoded(&DynamicImage::ImageRgba8(image), ImageFormat::Png)
}

pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}
