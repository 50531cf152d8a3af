//! Images end to end against the scripted provider: a real X11 clipboard (Xvfb, started by
//! scripts/test.sh) read by the attach service and sent to the model with the same pixels;
//! the embed budget on the wire; a text-only model getting the auxiliary vision model's
//! description instead of pixels; `vision_analyze` embedding an image and its per-image cap;
//! and `hermes -z --image` storing a file reference, not base64.
//!
//! The clipboard test needs `DISPLAY`: without it, it prints why it skips — except under
//! `CI=true`, where a missing X server is a failure (the suite must not hide it).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;
use crate::support::env::CleanEnv;

use std::io::Cursor;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use hermes::clipboard::service;
use hermes::clipboard::source;
use hermes::engine::images::Describer;
use hermes::protocol::AttachEvent;
use hermes::protocol::AttachRequest;
use hermes::protocol::Event;
use hermes::protocol::ImageAttachment;
use hermes::protocol::Notice;
use hermes::protocol::Op;
use hermes::protocol::TurnOutcome;
use serde_json::Value;
use support::Response;
use support::ScriptedCall;
use support::ScriptedServer;
use support::display::x_display;

/// A recognisable RGBA pattern: every pixel differs from its neighbours.
fn pattern(width: u32, height: u32) -> image::RgbaImage {
    image::RgbaImage::from_fn(width, height, |x, y| {
        image::Rgba([
            (x * 7 % 256) as u8,
            (y * 11 % 256) as u8,
            ((x + y) % 256) as u8,
            255,
        ])
    })
}

fn save(dir: &std::path::Path, image: &image::DynamicImage) -> ImageAttachment {
    hermes::images::image_file::save_png(dir, image, std::time::SystemTime::now()).unwrap()
}

/// The image parts (`image_url` data URLs) of an OpenAI request's messages, decoded.
fn sent_images(request: &support::server::RecordedRequest) -> Vec<(String, Vec<u8>)> {
    let mut found = Vec::new();
    for message in request.messages() {
        let Some(parts) = message["content"].as_array() else {
            continue;
        };
        for part in parts {
            if part["type"] == "image_url" {
                let url = part["image_url"]["url"].as_str().unwrap();
                let (header, data) = url.split_once(',').unwrap();
                let media = header
                    .trim_start_matches("data:")
                    .trim_end_matches(";base64")
                    .to_string();
                let bytes = base64::engine::general_purpose::STANDARD
                    .decode(data)
                    .unwrap();
                found.push((media, bytes));
            }
        }
    }
    found
}

fn text_of(message: &Value) -> String {
    match &message["content"] {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_clipboard_image_reaches_the_model_with_its_pixels() {
    if x_display().is_none() {
        return;
    }
    let original = pattern(64, 48);
    let mut owner = arboard::Clipboard::new().expect("open the X clipboard");
    owner
        .set_image(arboard::ImageData {
            width: 64,
            height: 48,
            bytes: std::borrow::Cow::Borrowed(original.as_raw()),
        })
        .expect("set the clipboard image");

    let dir = tempfile::tempdir().unwrap();
    let env = source::ClipboardEnv::from_process();
    let mut attach = service::spawn(service::AttachSettings {
        images_dir: dir.path().join("images"),
        cwd: dir.path().to_path_buf(),
        home_dir: None,
        env: env.clone(),
        reader: Box::new(source::SystemClipboard::new(env)),
    });
    attach.requests.send(AttachRequest::ClipboardImage).unwrap();
    let event = tokio::time::timeout(Duration::from_secs(15), attach.events.recv())
        .await
        .expect("the attach service answered")
        .unwrap();
    let image = match event {
        AttachEvent::Attached { image, origin } => {
            assert_eq!(origin, "clipboard");
            image
        }
        other => panic!("expected the clipboard image, got {other:?}"),
    };
    assert_eq!((image.width, image.height), (64, 48));

    let server = ScriptedServer::start([Response::text(["A colourful test pattern."])]).await;
    let mut session = support::engine::start(&server, |_| {});
    session.send(Op::UserInput {
        text: "what is in this image?".into(),
        images: vec![image],
    });
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);
    let requests = server.completion_requests();
    let user = requests[0].messages().last().unwrap().clone();
    assert_eq!(text_of(&user), "what is in this image?");
    let images = sent_images(&requests[0]);
    assert_eq!(images.len(), 1);
    assert_eq!(images[0].0, "image/png");
    let decoded = image::load_from_memory(&images[0].1).unwrap().to_rgba8();
    assert_eq!(decoded.dimensions(), (64, 48));
    assert_eq!(
        decoded.as_raw(),
        original.as_raw(),
        "pixels changed on the way"
    );
    drop(owner);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_large_image_is_downscaled_to_a_jpeg_within_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = fastrand::Rng::with_seed(7);
    let noisy = image::RgbImage::from_fn(3000, 2000, |_, _| {
        image::Rgb([rng.u8(..), rng.u8(..), rng.u8(..)])
    });
    let attached = save(dir.path(), &image::DynamicImage::ImageRgb8(noisy));
    assert!(attached.bytes > 262_144);
    let server = ScriptedServer::start([Response::text(["Noise."])]).await;
    let mut session = support::engine::start(&server, |_| {});
    session.send(Op::UserInput {
        text: "describe".into(),
        images: vec![attached],
    });
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);
    let images = sent_images(&server.completion_requests()[0]);
    assert_eq!(images[0].0, "image/jpeg");
    assert!(images[0].1.len() <= 262_144, "{} bytes", images[0].1.len());
    let decoded = image::load_from_memory(&images[0].1).unwrap();
    // Pure noise does not fit 256 KiB at 1568 px, so it shrank further, keeping 3:2.
    assert!(decoded.width() <= 1568, "{}", decoded.width());
    let ratio = f64::from(decoded.width()) / f64::from(decoded.height());
    assert!((ratio - 1.5).abs() < 0.01, "{ratio}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_text_only_model_gets_the_auxiliary_description_and_the_user_is_told() {
    let dir = tempfile::tempdir().unwrap();
    let attached = save(
        dir.path(),
        &image::DynamicImage::ImageRgba8(pattern(20, 10)),
    );
    let aux = ScriptedServer::start([Response::text(["A gradient with the word HELLO."])]).await;
    let main = ScriptedServer::start([Response::text(["It says HELLO."])]).await;
    let aux_provider = {
        let resolved = hermes::providers::registry::resolve(
            &hermes::config::ModelConfig {
                provider: "custom".into(),
                base_url: aux.base_url(),
                default: "vision-aux".into(),
                ..Default::default()
            },
            &hermes::config::ProviderConfig::default(),
            &|_: &str| None,
        )
        .unwrap();
        hermes::providers::build(&resolved, hermes::util::http::build_client().unwrap())
    };
    let mut session = support::engine::start(&main, |spec| {
        spec.endpoint.supports_vision = false;
        spec.endpoint.model = "text-only-model".into();
        spec.vision.describer = Some(Describer {
            provider: aux_provider,
            model: "vision-aux".into(),
        });
    });
    session.send(Op::UserInput {
        text: "what does it say?".into(),
        images: vec![attached],
    });
    let told = session
        .until(|e| matches!(e, Event::Notice(Notice { text, .. }) if text.contains("described by")))
        .await;
    let Event::Notice(Notice { text, .. }) = told else {
        unreachable!()
    };
    assert_eq!(
        text,
        "🔍 Image #1 described by vision-aux (6 words) and sent as text."
    );
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);
    // The describer saw the pixels and the user's question.
    let aux_request = &aux.completion_requests()[0];
    assert_eq!(sent_images(aux_request).len(), 1);
    assert!(text_of(aux_request.messages().last().unwrap()).contains("what does it say?"));
    // The main model saw no pixels, only the description.
    let main_request = &main.completion_requests()[0];
    assert!(sent_images(main_request).is_empty());
    let user = text_of(main_request.messages().last().unwrap());
    assert!(user.starts_with("what does it say?"), "{user}");
    assert!(
        user.contains("described by vision-aux because text-only-model cannot see images:\nA gradient with the word HELLO."),
        "{user}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn without_a_describer_a_text_only_model_gets_a_placeholder_and_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let attached = save(dir.path(), &image::DynamicImage::ImageRgba8(pattern(4, 4)));
    let name = attached
        .path
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let main = ScriptedServer::start([Response::text(["I cannot see it."])]).await;
    let mut session = support::engine::start(&main, |spec| {
        spec.endpoint.supports_vision = false;
        spec.endpoint.model = "text-only-model".into();
    });
    session.send(Op::UserInput {
        text: "look".into(),
        images: vec![attached],
    });
    let warned = session
        .until(|e| matches!(e, Event::Notice(Notice { text, .. }) if text.contains("cannot see images")))
        .await;
    let Event::Notice(Notice { text, .. }) = warned else {
        unreachable!()
    };
    assert!(text.contains("no auxiliary.vision model is set"), "{text}");
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);
    let request = &main.completion_requests()[0];
    assert!(sent_images(request).is_empty());
    let user = text_of(request.messages().last().unwrap());
    assert_eq!(
        user,
        format!("look\n\n[Image #1 attached ({name}), but it could not be shown or described.]")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn vision_analyze_embeds_the_image_then_refuses_past_the_cap() {
    let server = ScriptedServer::start([
        Response::tool_calls([ScriptedCall::new(
            "call_1",
            "vision_analyze",
            r#"{"image_url":"chart.png","question":"what trend?"}"#,
        )]),
        Response::tool_calls([ScriptedCall::new(
            "call_2",
            "vision_analyze",
            r#"{"image_url":"./chart.png"}"#,
        )]),
        Response::text(["Upward."]),
    ])
    .await;
    let home = tempfile::tempdir().unwrap();
    let hermes_home = hermes::config::HermesHome::from_base(home.path(), None).unwrap();
    let mut session = support::engine::start(&server, |spec| {
        let mut tools = hermes::tools::registry::ToolRegistry::core();
        tools
            .register(Arc::new(hermes::tools::vision::VisionAnalyzeTool::new(
                hermes_home,
                hermes::web::guard::PrivateAddresses::Refused,
            )))
            .unwrap();
        spec.tools = Arc::new(tools);
        spec.vision.max_embeds_per_image = Some(1);
    });
    pattern(30, 20)
        .save(session.dir.path().join("chart.png"))
        .unwrap();
    session.send(Op::user("analyse chart.png"));
    assert_eq!(session.turn_outcome().await, TurnOutcome::Completed);
    let requests = server.completion_requests();
    // After the first call: the tool result, then the image in a user message.
    let second = requests[1].messages();
    let tool = second.iter().find(|m| m["role"] == "tool").unwrap();
    assert!(text_of(tool).starts_with("Image loaded: image_"), "{tool}");
    assert_eq!(second.last().unwrap()["role"], "user");
    let images = sent_images(&requests[1]);
    assert_eq!(images.len(), 1);
    let decoded = image::load_from_memory(&images[0].1).unwrap().to_rgba8();
    assert_eq!(decoded.as_raw(), pattern(30, 20).as_raw());
    // The same file again (spelled differently) is refused.
    let third = requests[2].messages();
    let refused = third
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(text_of)
        .next_back()
        .unwrap();
    assert!(
        refused.starts_with(
            "vision_analyze refused: this image has already been loaded into context 1 time(s)"
        ),
        "{refused}"
    );
}

#[test]
fn one_shot_with_an_image_sends_it_and_stores_only_the_file_reference() {
    let server = ScriptedServer::start_on_own_thread([Response::text(["A test pattern."])]);
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("config.yaml"), server.config_yaml()).unwrap();
    let shot = dir.path().join("shot.jpg");
    let mut jpeg = Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(image::RgbImage::from_pixel(
        40,
        30,
        image::Rgb([200, 40, 40]),
    ))
    .write_to(&mut jpeg, image::ImageFormat::Jpeg)
    .unwrap();
    std::fs::write(&shot, jpeg.into_inner()).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hermes"))
        .clean_env()
        .args(["-z", "what is in this image?", "--image"])
        .arg(&shot)
        .env("HERMES_HOME", &home)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "A test pattern."
    );
    let request = &server.completion_requests()[0];
    let images = sent_images(request);
    assert_eq!(images.len(), 1);
    let decoded = image::load_from_memory(&images[0].1).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (40, 30));
    // The image was saved as a PNG under HERMES_HOME/images; the store refers to it.
    let saved: Vec<_> = std::fs::read_dir(home.join("images"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(saved.len(), 1);
    assert_eq!(saved[0].extension().unwrap(), "png");
    let db = rusqlite::Connection::open(home.join("state.db")).unwrap();
    let (content, images): (String, String) = db
        .query_row(
            "SELECT content, images FROM messages WHERE role = 'user'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(content, "what is in this image?");
    let paths: Vec<String> = serde_json::from_str(&images).unwrap();
    assert_eq!(paths, vec![saved[0].display().to_string()]);
    drop(db);
    for file in ["state.db", "state.db-wal"] {
        let bytes = std::fs::read(home.join(file)).unwrap_or_default();
        assert!(
            !String::from_utf8_lossy(&bytes).contains(";base64,"),
            "{file} must not hold image data"
        );
    }
}

#[test]
fn one_shot_with_a_broken_image_says_which_file_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("broken.png");
    std::fs::write(&bad, b"\x89PNG\r\n\x1a\n garbage").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hermes"))
        .clean_env()
        .args(["-z", "look", "--image"])
        .arg(&bad)
        .env("HERMES_HOME", dir.path().join("home"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("broken.png"), "{err}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_provider_refusing_images_gets_a_hint_to_route_them_through_the_describer() {
    let dir = tempfile::tempdir().unwrap();
    let attached = save(dir.path(), &image::DynamicImage::ImageRgba8(pattern(4, 4)));
    let server = ScriptedServer::start([Response::status(400)
        .with_message("Invalid content type. image_url is only supported by certain models.")])
    .await;
    let mut session = support::engine::start(&server, |spec| {
        spec.endpoint.model = "some-text-model".into();
    });
    session.send(Op::UserInput {
        text: "look".into(),
        images: vec![attached],
    });
    let hint = session
        .until(|e| matches!(e, Event::Notice(Notice { text, .. }) if text.contains("model.vision")))
        .await;
    let Event::Notice(Notice { text, .. }) = hint else {
        unreachable!()
    };
    assert!(
        text.starts_with("some-text-model seems not to accept images. Set model.vision: false"),
        "{text}"
    );
    assert!(matches!(
        session.turn_outcome().await,
        TurnOutcome::Failed { .. }
    ));
}
