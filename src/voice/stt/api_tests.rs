use super::*;
use crate::test_server::{RecordedRequest, Response, ScriptedServer};

const KEY: &str = "gsk_test_secret_key_123456";

fn engine(base_url: &str, language: Option<&str>) -> ApiTranscriber {
    ApiTranscriber::new(ApiSettings {
        provider: SttProvider::Groq,
        base_url: format!("{base_url}/openai/v1/"),
        model: "whisper-large-v3-turbo".into(),
        language: language.map(str::to_string),
        api_key: KEY.into(),
    })
    .unwrap()
}

fn json_ok(text: &str) -> Response {
    Response::raw_http(
        200,
        "application/json",
        &[],
        serde_json::json!({ "text": text }).to_string().as_bytes(),
    )
}

/// The part named `name` of a multipart body: (its header lines, its content).
fn part(req: &RecordedRequest, name: &str) -> Option<(String, Vec<u8>)> {
    let ct = req.header("content-type").unwrap();
    let boundary = ct.split("boundary=").nth(1).unwrap();
    let delimiter = format!("--{boundary}");
    let body = &req.raw_body;
    let marker = format!("name=\"{name}\"");
    let mut starts: Vec<usize> = body
        .windows(delimiter.len())
        .enumerate()
        .filter(|(_, w)| *w == delimiter.as_bytes())
        .map(|(i, _)| i)
        .collect();
    starts.push(body.len());
    for pair in starts.windows(2) {
        let chunk = &body[pair[0] + delimiter.len()..pair[1]];
        let split = chunk.windows(4).position(|w| w == b"\r\n\r\n")?;
        let headers = String::from_utf8_lossy(&chunk[..split]).into_owned();
        if headers.contains(&marker) {
            let content = chunk[split + 4..chunk.len() - 2].to_vec(); // drop the trailing CRLF
            return Some((headers, content));
        }
    }
    None
}

#[tokio::test]
async fn uploads_a_multipart_wav_with_model_and_bearer_key() {
    let server = ScriptedServer::start_on_own_thread(vec![json_ok(" Open the settings file. ")]);
    let url = server.root_url();
    let samples: Vec<i16> = (0..1600).map(|i| (i % 100) as i16).collect();
    let text = engine(&url, Some("en")).transcribe(&samples).await.unwrap();
    assert_eq!(text, " Open the settings file. ");

    let reqs = server.requests();
    let req = &reqs[0];
    assert!(
        req.head
            .starts_with("POST /openai/v1/audio/transcriptions HTTP/1.1"),
        "{}",
        req.head
    );
    assert_eq!(
        req.header("authorization").unwrap(),
        format!("Bearer {KEY}")
    );
    assert!(
        req.header("content-type")
            .unwrap()
            .starts_with("multipart/form-data; boundary=")
    );
    assert_eq!(part(req, "model").unwrap().1, b"whisper-large-v3-turbo");
    assert_eq!(part(req, "response_format").unwrap().1, b"json");
    assert_eq!(part(req, "language").unwrap().1, b"en");
    let (headers, wav) = part(req, "file").unwrap();
    assert!(headers.contains("filename=\"audio.wav\""), "{headers}");
    assert!(headers.contains("Content-Type: audio/wav"), "{headers}");
    assert_eq!(&wav[..4], b"RIFF");
    assert_eq!(&wav[8..12], b"WAVE");
    assert_eq!(wav.len(), 44 + samples.len() * 2);
    assert_eq!(wav, crate::voice::stt::wav_bytes(&samples).unwrap());
}

#[tokio::test]
async fn no_language_part_when_the_language_is_detected() {
    let server = ScriptedServer::start_on_own_thread(vec![json_ok("hola")]);
    let url = server.root_url();
    engine(&url, None).transcribe(&[0; 160]).await.unwrap();
    let reqs = server.requests();
    assert!(part(&reqs[0], "language").is_none());
    assert!(part(&reqs[0], "model").is_some());
}

#[tokio::test]
async fn a_401_names_the_url_and_status_and_masks_an_echoed_key() {
    let body = format!(r#"{{"error":{{"message":"Invalid API Key {KEY}"}}}}"#);
    let server = ScriptedServer::start_on_own_thread(vec![Response::raw_http(
        401,
        "application/json",
        &[],
        body.as_bytes(),
    )]);
    let url = server.root_url();
    let err = engine(&url, None).transcribe(&[0; 160]).await.unwrap_err();
    let SttError::Http { status, .. } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(*status, 401);
    let text = err.to_string();
    assert!(text.contains("HTTP 401"), "{text}");
    assert!(text.contains("/openai/v1/audio/transcriptions"), "{text}");
    assert!(text.contains("Invalid API Key"), "{text}");
    assert!(!text.contains(KEY), "key leaked: {text}");
    assert!(!format!("{err:?}").contains(KEY));
}

#[tokio::test]
async fn garbage_json_is_a_bad_response_quoting_the_body() {
    let server = ScriptedServer::start_on_own_thread(vec![
        Response::raw_http(200, "application/json", &[], b"<html>gateway</html>"),
        Response::raw_http(200, "application/json", &[], br#"{"transcript":"x"}"#),
    ]);
    let url = server.root_url();
    let engine = engine(&url, None);
    let err = engine.transcribe(&[0; 160]).await.unwrap_err();
    assert!(matches!(err, SttError::BadResponse { .. }), "{err:?}");
    assert!(err.to_string().contains("<html>gateway</html>"), "{err}");
    let err = engine.transcribe(&[0; 160]).await.unwrap_err();
    assert!(err.to_string().contains("no \"text\" field"), "{err}");
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let engine = engine(&url, None).with_timeout(Duration::from_millis(300));
    let err = engine.transcribe(&[0; 160]).await.unwrap_err();
    drop(listener);
    assert!(matches!(err, SttError::Transport { .. }), "{err:?}");
    assert!(err.to_string().contains("no answer within"), "{err}");
}

#[tokio::test]
async fn a_closed_port_is_a_transport_error_naming_the_url() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let err = engine(&format!("http://127.0.0.1:{port}"), None)
        .transcribe(&[0; 160])
        .await
        .unwrap_err();
    assert!(matches!(err, SttError::Transport { .. }), "{err:?}");
    assert!(
        err.to_string().contains(&format!("127.0.0.1:{port}")),
        "{err}"
    );
}

#[test]
fn debug_output_has_no_key() {
    let engine = engine("http://127.0.0.1:9", None);
    let debug = format!("{engine:?}");
    assert!(!debug.contains(KEY), "{debug}");
    assert!(debug.contains("whisper-large-v3-turbo"));
    assert_eq!(
        engine.url(),
        "http://127.0.0.1:9/openai/v1/audio/transcriptions"
    );
}
