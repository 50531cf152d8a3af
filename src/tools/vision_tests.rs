#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Cursor;
use std::sync::Arc;
use std::sync::Mutex;

use tokio_util::sync::CancellationToken;

use super::*;
use crate::test_server::{Response, ScriptedServer};
use crate::tools::ToolOutcome;
use crate::tools::VisionHost;
use crate::tools::test_support::ctx;
use crate::web::guard::PrivateAddresses;

/// A session that sees images (or not) and counts embeds against `cap`.
struct FakeVision {
    sees: bool,
    cap: Option<u64>,
    embeds: Mutex<Vec<PathBuf>>,
    asked: Mutex<Vec<(PathBuf, String)>>,
}

impl FakeVision {
    fn new(sees: bool, cap: Option<u64>) -> Arc<Self> {
        Arc::new(Self {
            sees,
            cap,
            embeds: Mutex::new(Vec::new()),
            asked: Mutex::new(Vec::new()),
        })
    }
}

#[async_trait]
impl VisionHost for FakeVision {
    fn model_sees_images(&self) -> bool {
        self.sees
    }

    fn note_embed(&self, image: &Path) -> Result<(), u64> {
        let mut embeds = self.embeds.lock().unwrap();
        let times = embeds.iter().filter(|p| p.as_path() == image).count() as u64;
        if self.cap.is_some_and(|cap| times >= cap) {
            return Err(times);
        }
        embeds.push(image.to_path_buf());
        Ok(())
    }

    async fn describe(
        &self,
        image: &Path,
        question: &str,
        _cancel: &CancellationToken,
    ) -> Result<String, crate::tools::DescribeError> {
        self.asked
            .lock()
            .unwrap()
            .push((image.to_path_buf(), question.to_string()));
        Ok("a blue rectangle".to_string())
    }
}

fn png(width: u32, height: u32) -> Vec<u8> {
    let image = image::RgbaImage::from_pixel(width, height, image::Rgba([10, 20, 230, 255]));
    let mut out = Cursor::new(Vec::new());
    image::DynamicImage::ImageRgba8(image)
        .write_to(&mut out, image::ImageFormat::Png)
        .unwrap();
    out.into_inner()
}

struct Setup {
    dir: tempfile::TempDir,
    tool: VisionAnalyzeTool,
    ctx: ToolContext,
}

fn setup(vision: Arc<FakeVision>) -> Setup {
    setup_with(vision, PrivateAddresses::Allowed)
}

/// The scripted server is on 127.0.0.1, so most tests allow private addresses.
fn setup_with(vision: Arc<FakeVision>, private: PrivateAddresses) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let home = HermesHome::from_base(dir.path().join("home"), None).unwrap();
    let mut ctx = ctx(dir.path());
    ctx.vision = Some(vision);
    Setup {
        tool: VisionAnalyzeTool::new(home, private),
        ctx,
        dir,
    }
}

#[tokio::test]
async fn private_and_metadata_image_urls_are_refused_by_default() {
    let s = setup_with(FakeVision::new(true, None), PrivateAddresses::Refused);
    let server =
        ScriptedServer::start([Response::raw_http(200, "image/png", &[], png(7, 2))]).await;
    for url in [
        format!("{}/shot.png", server.root_url()),
        "http://169.254.169.254/latest/meta-data/x.png".to_string(),
        "http://[::ffff:127.0.0.1]/x.png".to_string(),
    ] {
        let out = s.tool.call(json!({ "image_url": url }), &s.ctx).await;
        assert_eq!(out.outcome, ToolOutcome::Error, "{url}: {}", out.content);
        assert!(out.content.contains("blocked"), "{url}: {}", out.content);
    }
    assert!(
        server.requests().is_empty(),
        "nothing reached the private server"
    );
}

#[tokio::test]
async fn a_vision_model_gets_the_saved_image_in_the_result() {
    let s = setup(FakeVision::new(true, None));
    std::fs::write(s.dir.path().join("chart.png"), png(6, 4)).unwrap();
    let out = s
        .tool
        .call(
            json!({"image_url": "chart.png", "question": "what trend?"}),
            &s.ctx,
        )
        .await;
    assert_eq!(out.outcome, ToolOutcome::Ok, "{}", out.content);
    assert!(out.content.contains("(6×4)"), "{}", out.content);
    assert!(out.content.ends_with("what trend?"), "{}", out.content);
    assert_eq!(out.images.len(), 1);
    assert!(out.images[0].starts_with(s.dir.path().join("home/images")));
    let saved = image::open(&out.images[0]).unwrap();
    assert_eq!((saved.width(), saved.height()), (6, 4));
}

#[tokio::test]
async fn the_embed_cap_refuses_a_second_load_of_the_same_file() {
    let s = setup(FakeVision::new(true, Some(1)));
    std::fs::write(s.dir.path().join("a.png"), png(2, 2)).unwrap();
    let first = s.tool.call(json!({"image_url": "a.png"}), &s.ctx).await;
    assert_eq!(first.outcome, ToolOutcome::Ok);
    let path = s.dir.path().join("a.png").display().to_string();
    let second = s.tool.call(json!({ "image_url": path }), &s.ctx).await;
    assert_eq!(second.outcome, ToolOutcome::Error);
    assert!(
        second.content.starts_with(
            "vision_analyze refused: this image has already been loaded into context 1 time(s)"
        ),
        "{}",
        second.content
    );
    assert!(second.images.is_empty());
}

#[tokio::test]
async fn a_text_only_model_gets_the_auxiliary_description() {
    let vision = FakeVision::new(false, None);
    let s = setup(Arc::clone(&vision));
    std::fs::write(s.dir.path().join("a.bmp"), {
        let mut out = Cursor::new(Vec::new());
        image::DynamicImage::ImageRgb8(image::RgbImage::new(3, 3))
            .write_to(&mut out, image::ImageFormat::Bmp)
            .unwrap();
        out.into_inner()
    })
    .unwrap();
    let out = s.tool.call(json!({"image_url": "a.bmp"}), &s.ctx).await;
    assert_eq!(out.outcome, ToolOutcome::Ok, "{}", out.content);
    assert!(
        out.content.starts_with("Analysis of image_"),
        "{}",
        out.content
    );
    assert!(out.content.ends_with("a blue rectangle"), "{}", out.content);
    assert!(out.images.is_empty());
    let asked = vision.asked.lock().unwrap();
    assert_eq!(asked[0].1, "Describe this image in detail.");
    assert_eq!(asked[0].0.extension().unwrap(), "png");
}

#[tokio::test]
async fn data_urls_are_decoded() {
    use base64::Engine;
    let s = setup(FakeVision::new(true, None));
    let url = format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(png(5, 1))
    );
    let out = s.tool.call(json!({ "image_url": url }), &s.ctx).await;
    assert!(out.content.contains("(5×1)"), "{}", out.content);
    let bad = s
        .tool
        .call(json!({"image_url": "data:image/png;base64,@@@"}), &s.ctx)
        .await;
    assert_eq!(bad.outcome, ToolOutcome::Error);
    assert!(bad.content.contains("malformed base64"), "{}", bad.content);
}

#[tokio::test]
async fn http_urls_are_downloaded_and_http_errors_reported() {
    let s = setup(FakeVision::new(true, None));
    let server = ScriptedServer::start([
        Response::raw_http(200, "image/png", &[], png(7, 2)),
        Response::raw_http(404, "image/png", &[], b""),
    ])
    .await;
    let url = format!("{}/shot.png", server.root_url());
    let out = s.tool.call(json!({ "image_url": url }), &s.ctx).await;
    assert_eq!(out.outcome, ToolOutcome::Ok, "{}", out.content);
    assert!(out.content.contains("(7×2)"), "{}", out.content);
    let missing = format!("{}/shot.png", server.root_url());
    let out = s.tool.call(json!({ "image_url": missing }), &s.ctx).await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert!(out.content.contains("HTTP 404"), "{}", out.content);
}

#[tokio::test]
async fn missing_and_corrupt_files_are_errors_naming_the_file() {
    let s = setup(FakeVision::new(true, None));
    let out = s.tool.call(json!({"image_url": "nope.png"}), &s.ctx).await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert!(out.content.contains("nope.png"), "{}", out.content);
    std::fs::write(s.dir.path().join("text.png"), "just text").unwrap();
    let out = s.tool.call(json!({"image_url": "text.png"}), &s.ctx).await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert!(out.content.contains("text.png"), "{}", out.content);
}

#[tokio::test]
async fn without_a_session_the_tool_says_it_is_unavailable() {
    let dir = tempfile::tempdir().unwrap();
    let tool = VisionAnalyzeTool::new(
        HermesHome::from_base(dir.path(), None).unwrap(),
        PrivateAddresses::Refused,
    );
    let out = tool
        .call(json!({"image_url": "a.png"}), &ctx(dir.path()))
        .await;
    assert_eq!(out.content, "vision_analyze is not available here");
}
