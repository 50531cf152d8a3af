#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Streaming text-to-speech end to end (spec-002c §3.6, §4): a simulated streamed reply goes
//! through the `Speaker` to a recording sink, against (a) a scripted OpenAI-compatible
//! `/audio/speech` server on 127.0.0.1 that streams raw PCM slowly (and an ElevenLabs-style
//! one), and (b) the espeak-ng command provider. Speech must start before the reply has
//! finished streaming. Also: stop mid-speech, the command timeout kill, and the
//! `max_text_length` fallbacks. Run with `--nocapture` to see the measured latencies.

use std::collections::BTreeMap;
use std::io::BufRead;
use std::io::BufReader;
use std::io::Read;
use std::io::Write;
use std::net::TcpListener;
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;
use std::time::Instant;

use hermes::config::EnvLookup;
use hermes::config::TtsConfig;
use hermes::voice::audio::AudioError;
use hermes::voice::audio::AudioSink;
use hermes::voice::audio::Clip;
use hermes::voice::tts::Speaker;
use hermes::voice::tts::SpeakerOptions;
use hermes::voice::tts::SpeechEvent;
use hermes::voice::tts::SynthError;
use hermes::voice::tts::Synthesizer;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

// ---------------------------------------------------------------- scripted speech server

/// One request the server received.
#[derive(Debug, Clone)]
struct Recorded {
    path: String,
    headers: BTreeMap<String, String>,
    body: serde_json::Value,
}

/// A speech endpoint on 127.0.0.1: every POST is answered with `chunks` × `chunk_bytes` of
/// 16-bit PCM (a 440 Hz tone), chunked, one chunk every `gap`.
struct SpeechServer {
    url: String,
    requests: Arc<Mutex<Vec<Recorded>>>,
    /// When each answer's last byte was written.
    finished: Arc<Mutex<Vec<Instant>>>,
}

impl SpeechServer {
    fn start(chunks: usize, chunk_bytes: usize, gap: Duration) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let finished = Arc::new(Mutex::new(Vec::new()));
        let (reqs, fins) = (Arc::clone(&requests), Arc::clone(&finished));
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { break };
                let (reqs, fins) = (Arc::clone(&reqs), Arc::clone(&fins));
                std::thread::spawn(move || serve(stream, &reqs, &fins, chunks, chunk_bytes, gap));
            }
        });
        Self {
            url,
            requests,
            finished,
        }
    }

    fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().unwrap().clone()
    }
}

fn serve(
    stream: TcpStream,
    requests: &Mutex<Vec<Recorded>>,
    finished: &Mutex<Vec<Instant>>,
    chunks: usize,
    chunk_bytes: usize,
    gap: Duration,
) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
    let mut headers = BTreeMap::new();
    loop {
        let mut h = String::new();
        reader.read_line(&mut h).unwrap();
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
        }
    }
    let len: usize = headers
        .get("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; len];
    reader.read_exact(&mut body).unwrap();
    requests.lock().unwrap().push(Recorded {
        path,
        headers,
        body: serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null),
    });
    let mut out = stream;
    let head = "HTTP/1.1 200 OK\r\nContent-Type: audio/pcm\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
    if out.write_all(head.as_bytes()).is_err() {
        return;
    }
    let mut n = 0usize;
    for _ in 0..chunks {
        let mut data = Vec::with_capacity(chunk_bytes);
        while data.len() + 1 < chunk_bytes {
            let v = ((n as f32 * 440.0 * std::f32::consts::TAU / 24_000.0).sin() * 8000.0) as i16;
            data.extend_from_slice(&v.to_le_bytes());
            n += 1;
        }
        let frame = [format!("{:x}\r\n", data.len()).as_bytes(), &data, b"\r\n"].concat();
        if out.write_all(&frame).and_then(|()| out.flush()).is_err() {
            return; // The client hung up (stopped).
        }
        std::thread::sleep(gap);
    }
    let _ = out.write_all(b"0\r\n\r\n");
    finished.lock().unwrap().push(Instant::now());
}

// ---------------------------------------------------------------- recording sink

#[derive(Default)]
struct RecordingSink {
    plays: Mutex<Vec<(Instant, Clip)>>,
    stops: Mutex<Vec<Instant>>,
}

impl AudioSink for RecordingSink {
    fn play(&self, clip: Clip) -> Result<(), AudioError> {
        self.plays.lock().unwrap().push((Instant::now(), clip));
        Ok(())
    }
    fn stop(&self) {
        self.stops.lock().unwrap().push(Instant::now());
    }
    fn is_idle(&self) -> bool {
        true
    }
}

impl RecordingSink {
    fn first_play(&self) -> Option<Instant> {
        self.plays.lock().unwrap().first().map(|(at, _)| *at)
    }
    fn play_count(&self) -> usize {
        self.plays.lock().unwrap().len()
    }
}

// ---------------------------------------------------------------- helpers

const REPLY: &str = "Hello, this is the first sentence of the reply. The model keeps writing a \
second sentence while the first one is spoken. A third sentence arrives after that. And the \
fourth sentence closes the streamed reply.";

fn env(pairs: &[(&str, &str)]) -> EnvLookup {
    let map = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    EnvLookup::from_maps(map, BTreeMap::new())
}

fn tts_config(yaml: &str) -> TtsConfig {
    let text = format!("tts:\n{yaml}");
    let loaded = hermes::config::load::parse(&text, std::path::Path::new("config.yaml"));
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    loaded.config.tts
}

fn openai_config(url: &str) -> TtsConfig {
    tts_config(&format!(
        "  provider: openai\n  openai:\n    model: tts-test-model\n    voice: nova\n    base_url: {url}/v1\n    speed: 1.25\n"
    ))
}

/// Pushes `REPLY` word by word over about `total`, then finishes; returns when the last delta
/// was pushed.
async fn stream_reply(speaker: &mut Speaker, total: Duration) -> Instant {
    let words: Vec<&str> = REPLY.split_inclusive(' ').collect();
    let gap = total / words.len() as u32;
    let mut last = Instant::now();
    for word in words {
        speaker.push_delta(word);
        last = Instant::now();
        tokio::time::sleep(gap).await;
    }
    last
}

fn first_sentence_latency(events: &[SpeechEvent]) -> Duration {
    let ready = events.iter().find_map(|e| match e {
        SpeechEvent::Sentence { index: 0, at, .. } => Some(*at),
        _ => None,
    });
    let audio = events.iter().find_map(|e| match e {
        SpeechEvent::FirstAudio { index: 0, at, .. } => Some(*at),
        _ => None,
    });
    audio.unwrap().duration_since(ready.unwrap())
}

fn drain(rx: &mut mpsc::UnboundedReceiver<SpeechEvent>) -> Vec<SpeechEvent> {
    let mut out = Vec::new();
    while let Ok(e) = rx.try_recv() {
        out.push(e);
    }
    out
}

fn options(tx: mpsc::UnboundedSender<SpeechEvent>) -> SpeakerOptions {
    SpeakerOptions {
        events: Some(tx),
        ..SpeakerOptions::default()
    }
}

// ---------------------------------------------------------------- (a) OpenAI-compatible

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openai_speech_starts_before_the_reply_has_finished_streaming() {
    // Each sentence: 5 chunks of 100 ms of audio, 80 ms apart.
    let server = SpeechServer::start(5, 4800, Duration::from_millis(80));
    let keys = env(&[
        ("VOICE_TOOLS_OPENAI_KEY", "sk-voice"),
        ("OPENAI_API_KEY", "sk-other"),
    ]);
    let synth = Arc::new(Synthesizer::from_config(&openai_config(&server.url), &keys).unwrap());
    let sink = Arc::new(RecordingSink::default());
    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut speaker = Speaker::start(synth, Arc::clone(&sink) as _, options(tx));
    let last_delta = stream_reply(&mut speaker, Duration::from_secs(2)).await;
    speaker.wait().await;

    let first_play = sink.first_play().expect("audio reached the sink");
    assert!(
        first_play < last_delta,
        "speech started {:?} after the last delta",
        first_play.duration_since(last_delta)
    );
    // Streamed: the first audio was queued before the server had sent the first answer's end.
    let first_answer_done = *server.finished.lock().unwrap().iter().min().unwrap();
    assert!(
        first_play < first_answer_done,
        "the first sentence's audio was not streamed"
    );

    let requests = server.requests();
    assert_eq!(requests.len(), 4, "one request per sentence");
    let r = &requests[0];
    assert_eq!(r.path, "/v1/audio/speech");
    assert_eq!(r.headers["authorization"], "Bearer sk-voice");
    assert_eq!(r.body["model"], "tts-test-model");
    assert_eq!(r.body["voice"], "nova");
    assert_eq!(r.body["response_format"], "pcm");
    assert_eq!(r.body["speed"], 1.25);
    assert_eq!(
        r.body["input"],
        "Hello, this is the first sentence of the reply."
    );
    let inputs: Vec<&str> = requests
        .iter()
        .map(|r| r.body["input"].as_str().unwrap())
        .collect();
    assert!(
        inputs[3].starts_with("And the fourth sentence"),
        "{inputs:?}"
    );

    // Every byte arrived, in order, at 24 kHz.
    let plays = sink.plays.lock().unwrap();
    assert!(plays.iter().all(|(_, c)| c.rate == 24_000));
    let samples: usize = plays.iter().map(|(_, c)| c.samples.len()).sum();
    assert_eq!(samples, 4 * 5 * 2400);
    drop(plays);

    let events = drain(&mut rx);
    assert_eq!(events.last(), Some(&SpeechEvent::Done { stopped: false }));
    let latency = first_sentence_latency(&events);
    println!(
        "openai (scripted 127.0.0.1 server): first complete sentence → first audio queued: {latency:?}"
    );
    assert!(latency < Duration::from_secs(1), "{latency:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_mid_speech_cancels_requests_and_silences_the_sink() {
    // Slow answers: each sentence takes 1.5 s to download.
    let server = SpeechServer::start(15, 4800, Duration::from_millis(100));
    let keys = env(&[("OPENAI_API_KEY", "sk-only")]);
    let synth = Arc::new(Synthesizer::from_config(&openai_config(&server.url), &keys).unwrap());
    let sink = Arc::new(RecordingSink::default());
    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut speaker = Speaker::start(synth, Arc::clone(&sink) as _, options(tx));
    for i in 0..8 {
        speaker.push_delta(&format!("This is sentence number {i} of a long reply. "));
    }
    let mut before_stop = Vec::new();
    loop {
        let event = rx.recv().await.unwrap();
        let first = matches!(event, SpeechEvent::FirstAudio { index: 0, .. });
        before_stop.push(event);
        if first {
            break;
        }
    }
    let stop_handle = speaker.stop_handle();
    stop_handle.stop();
    let stopped_at = Instant::now();
    let plays_at_stop = sink.play_count();
    before_stop.extend(drain(&mut rx));
    speaker.push_delta("More text after the stop is ignored entirely. ");
    speaker.wait().await;
    tokio::time::sleep(Duration::from_millis(800)).await;

    assert_eq!(
        sink.stops.lock().unwrap().len(),
        1,
        "sink.stop() was called"
    );
    assert_eq!(
        sink.play_count(),
        plays_at_stop,
        "nothing reached the sink after stop()"
    );
    let started = before_stop
        .iter()
        .filter(|e| matches!(e, SpeechEvent::SynthStarted { .. }))
        .count();
    assert!(
        started <= 2,
        "only the playing sentence and one lookahead: {started}"
    );
    let requests = server.requests().len();
    assert!(
        requests <= started,
        "{requests} requests, {started} started before stop"
    );
    assert!(requests < 8);
    // The in-flight downloads were dropped: no answer ran to its end.
    assert!(server.finished.lock().unwrap().is_empty());
    // `Done` may already have come with the events drained right after stop().
    let events = drain(&mut rx);
    let done = SpeechEvent::Done { stopped: true };
    assert!(
        events.contains(&done) || before_stop.contains(&done),
        "{before_stop:?} {events:?}"
    );
    assert!(stopped_at.elapsed() < Duration::from_secs(5));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn elevenlabs_streams_pcm_from_its_stream_endpoint() {
    let server = SpeechServer::start(3, 4800, Duration::from_millis(50));
    let config = tts_config(&format!(
        "  provider: elevenlabs\n  elevenlabs:\n    voice_id: voice123\n    model_id: eleven_flash_v2_5\n    base_url: {}\n",
        server.url
    ));
    let synth = Arc::new(
        Synthesizer::from_config(&config, &env(&[("ELEVENLABS_API_KEY", "xi-secret")])).unwrap(),
    );
    let sink = Arc::new(RecordingSink::default());
    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut speaker = Speaker::start(synth, Arc::clone(&sink) as _, options(tx));
    let last_delta = stream_reply(&mut speaker, Duration::from_secs(2)).await;
    speaker.wait().await;
    assert!(sink.first_play().unwrap() < last_delta);
    let requests = server.requests();
    assert_eq!(requests.len(), 4);
    let r = &requests[0];
    assert_eq!(
        r.path,
        "/v1/text-to-speech/voice123/stream?output_format=pcm_24000"
    );
    assert_eq!(r.headers["xi-api-key"], "xi-secret");
    assert!(!r.headers.contains_key("authorization"));
    assert_eq!(r.body["model_id"], "eleven_flash_v2_5");
    assert_eq!(
        r.body["text"],
        "Hello, this is the first sentence of the reply."
    );
    let latency = first_sentence_latency(&drain(&mut rx));
    println!(
        "elevenlabs (scripted 127.0.0.1 server): first complete sentence → first audio queued: {latency:?}"
    );
}

#[tokio::test]
async fn http_errors_name_the_provider_url_and_status_without_the_key() {
    // A server that refuses every request with 401.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut len = 0;
            loop {
                let mut h = String::new();
                reader.read_line(&mut h).unwrap();
                if let Some(v) = h.to_ascii_lowercase().strip_prefix("content-length:") {
                    len = v.trim().parse().unwrap();
                }
                if h.trim().is_empty() {
                    break;
                }
            }
            let mut body = vec![0; len];
            reader.read_exact(&mut body).unwrap();
            let answer = "{\"error\":\"invalid key\"}";
            let mut out = stream;
            let _ = write!(
                out,
                "HTTP/1.1 401 Unauthorized\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
                answer.len()
            );
        }
    });
    let synth =
        Synthesizer::from_config(&openai_config(&url), &env(&[("OPENAI_API_KEY", "sk-leak")]))
            .unwrap();
    let err = synth
        .synthesize("Hello there.", &CancellationToken::new())
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(
        matches!(err, SynthError::Status { status: 401, .. }),
        "{err:?}"
    );
    assert!(
        text.contains("openai") && text.contains("/v1/audio/speech"),
        "{text}"
    );
    assert!(text.contains("invalid key"), "{text}");
    assert!(!text.contains("sk-leak"), "{text}");

    // Nothing listening: a connection error naming the URL.
    let closed = TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let synth =
        Synthesizer::from_config(&openai_config(&dead), &env(&[("OPENAI_API_KEY", "k")])).unwrap();
    let err = synth
        .synthesize("Hello there.", &CancellationToken::new())
        .await
        .unwrap_err();
    assert!(matches!(err, SynthError::Connect { .. }), "{err:?}");
    assert!(err.to_string().contains(&dead), "{err}");
}

// ---------------------------------------------------------------- (b) espeak-ng command

fn espeak_config(extra: &str) -> TtsConfig {
    tts_config(&format!(
        "  provider: espeak\n  providers:\n    espeak:\n      type: command\n      command: \"espeak-ng -w {{output_path}} -f {{input_path}}\"\n      output_format: wav\n{extra}"
    ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn espeak_speech_starts_before_the_reply_has_finished_streaming() {
    let synth = Arc::new(Synthesizer::from_config(&espeak_config(""), &env(&[])).unwrap());
    let sink = Arc::new(RecordingSink::default());
    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut speaker = Speaker::start(synth, Arc::clone(&sink) as _, options(tx));
    let last_delta = stream_reply(&mut speaker, Duration::from_secs(2)).await;
    speaker.wait().await;
    let first_play = sink.first_play().expect("espeak-ng audio reached the sink");
    assert!(
        first_play < last_delta,
        "speech started {:?} after the last delta",
        first_play.duration_since(last_delta)
    );
    let plays = sink.plays.lock().unwrap();
    assert_eq!(plays.len(), 4, "one clip per sentence");
    assert!(
        plays
            .iter()
            .all(|(_, c)| c.rate == 22_050 && c.duration() > Duration::from_millis(500))
    );
    drop(plays);
    let events = drain(&mut rx);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, SpeechEvent::Failed { .. })),
        "{events:?}"
    );
    let latency = first_sentence_latency(&events);
    println!(
        "espeak-ng (command provider): first complete sentence → first audio queued: {latency:?}"
    );
}

#[tokio::test]
async fn a_hanging_command_is_killed_at_its_timeout() {
    let config = tts_config(
        "  provider: slow\n  providers:\n    slow:\n      type: command\n      command: \"sleep 30\"\n      output_format: wav\n      timeout: 1\n",
    );
    let synth = Synthesizer::from_config(&config, &env(&[])).unwrap();
    let started = Instant::now();
    let err = synth
        .synthesize("Never spoken.", &CancellationToken::new())
        .await
        .unwrap_err();
    let took = started.elapsed();
    assert!(
        matches!(err, SynthError::Timeout { secs: 1, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("sleep 30"), "{err}");
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_secs(4),
        "{took:?}"
    );
}

// ---------------------------------------------------------------- (c) max_text_length

#[test]
fn max_text_length_falls_back_to_the_provider_default_for_bad_values() {
    let keys = env(&[("OPENAI_API_KEY", "k"), ("ELEVENLABS_API_KEY", "k")]);
    let openai = |value: &str| {
        let c = tts_config(&format!(
            "  provider: openai\n  openai:\n    max_text_length: {value}\n"
        ));
        Synthesizer::from_config(&c, &keys)
            .unwrap()
            .max_text_length()
    };
    assert_eq!(openai("8192"), 8192);
    for bad in ["0", "-1", "abc", "true", "2.5", "\"100\"", "null"] {
        assert_eq!(openai(bad), 4096, "openai max_text_length: {bad}");
    }
    let eleven = |model: &str, value: &str| {
        let c = tts_config(&format!(
            "  provider: elevenlabs\n  elevenlabs:\n    model_id: {model}\n    max_text_length: {value}\n"
        ));
        Synthesizer::from_config(&c, &keys)
            .unwrap()
            .max_text_length()
    };
    assert_eq!(eleven("eleven_flash_v2_5", "0"), 40_000);
    assert_eq!(eleven("eleven_flash_v2", "false"), 30_000);
    assert_eq!(eleven("eleven_multilingual_v2", "-7"), 10_000);
    assert_eq!(eleven("eleven_v3", "x"), 5000);
    assert_eq!(eleven("eleven_v3", "1200"), 1200);
    assert_eq!(eleven("future_model", "null"), 10_000);
    let command = |value: &str| {
        let c = espeak_config(&format!("      max_text_length: {value}\n"));
        Synthesizer::from_config(&c, &keys)
            .unwrap()
            .max_text_length()
    };
    assert_eq!(command("1024"), 1024);
    assert_eq!(command("0"), 5000);
    assert_eq!(command("yes"), 5000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cap_is_applied_before_the_request() {
    let server = SpeechServer::start(1, 480, Duration::from_millis(1));
    let mut config = openai_config(&server.url);
    config.openai.max_text_length = serde_norway::Value::Number(10.into());
    let synth = Synthesizer::from_config(&config, &env(&[("OPENAI_API_KEY", "k")])).unwrap();
    let clip = synth
        .synthesize(
            "0123456789 and everything after the cap",
            &CancellationToken::new(),
        )
        .await
        .unwrap();
    assert_eq!(clip.samples.len(), 240);
    assert_eq!(server.requests()[0].body["input"], "0123456789");
}

// ---------------------------------------------------------------- fake Edge read-aloud server

/// What the fake Edge server saw: the upgrade request's query and headers, and the two text
/// messages (speech.config, ssml).
#[derive(Debug, Default, Clone)]
struct EdgeSeen {
    query: String,
    origin: String,
    user_agent: String,
    messages: Vec<String>,
}

/// A silent MPEG-2 Layer III frame: 24 kHz, 48 kbit/s, mono, no CRC (144 bytes, 576 samples).
/// All-zero side information decodes to silence.
fn silent_mp3_frame() -> Vec<u8> {
    let mut frame = vec![0xFF, 0xF3, 0x64, 0xC0];
    frame.resize(144, 0);
    frame
}

fn edge_audio_message(mp3: &[u8]) -> Vec<u8> {
    let head = b"X-RequestId:abc\r\nContent-Type:audio/mpeg\r\nX-StreamId:1\r\nPath:audio\r\n";
    let mut data = u16::try_from(head.len()).unwrap().to_be_bytes().to_vec();
    data.extend_from_slice(head);
    data.extend_from_slice(mp3);
    data
}

/// Serve one Edge session on 127.0.0.1: record the request, answer with `frames` MP3 frames
/// in two audio messages, then `Path:turn.end`.
#[allow(clippy::result_large_err)] // tungstenite's handshake callback type
async fn fake_edge(frames: usize) -> (String, tokio::task::JoinHandle<EdgeSeen>) {
    use futures::SinkExt;
    use futures::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    use tokio_tungstenite::tungstenite::handshake::server::Request;
    use tokio_tungstenite::tungstenite::handshake::server::Response;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}/edge/v1", listener.local_addr().unwrap());
    let handle = tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let seen = Arc::new(Mutex::new(EdgeSeen::default()));
        let record = Arc::clone(&seen);
        let callback = move |req: &Request, resp: Response| {
            let header = |name: &str| {
                req.headers()
                    .get(name)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default()
                    .to_string()
            };
            let mut seen = record.lock().unwrap();
            seen.query = req.uri().query().unwrap_or_default().to_string();
            seen.origin = header("origin");
            seen.user_agent = header("user-agent");
            Ok(resp)
        };
        let mut ws = tokio_tungstenite::accept_hdr_async(tcp, callback)
            .await
            .unwrap();
        for _ in 0..2 {
            match ws.next().await.unwrap().unwrap() {
                Message::Text(text) => seen.lock().unwrap().messages.push(text.to_string()),
                other => panic!("expected a text message, got {other:?}"),
            }
        }
        let turn = |path: &str| format!("X-RequestId:abc\r\nPath:{path}\r\n\r\n{{}}");
        ws.send(Message::text(turn("turn.start"))).await.unwrap();
        let mp3: Vec<u8> = (0..frames).flat_map(|_| silent_mp3_frame()).collect();
        let (first, second) = mp3.split_at(mp3.len() / 2);
        for part in [first, second] {
            ws.send(Message::binary(edge_audio_message(part)))
                .await
                .unwrap();
        }
        ws.send(Message::text(turn("turn.end"))).await.unwrap();
        let _ = ws.next().await;
        seen.lock().unwrap().clone()
    });
    (url, handle)
}

#[tokio::test]
async fn edge_speaks_through_the_websocket_protocol() {
    let (url, server) = fake_edge(40).await;
    let config =
        tts_config("  provider: edge\n  edge:\n    voice: en-GB-SoniaNeural\n    speed: 1.25\n");
    let synth = Synthesizer::from_config(&config, &env(&[("HERMES_EDGE_TTS_URL", &url)])).unwrap();
    let clip = synth
        .synthesize("Fish & chips <now>, \"please\".", &CancellationToken::new())
        .await
        .unwrap();
    let seen = server.await.unwrap();

    assert_eq!(clip.rate, 24_000);
    assert!(
        !clip.samples.is_empty() && clip.samples.len() <= 40 * 576,
        "{} samples",
        clip.samples.len()
    );
    assert!(
        clip.samples.iter().all(|&s| s.abs() < 8),
        "silence decodes to silence"
    );

    let query: BTreeMap<&str, &str> = seen
        .query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .collect();
    assert_eq!(
        query["TrustedClientToken"],
        "6A5AA1D4EAFF4E9FB37E23D68491D6F4"
    );
    let gec = query["Sec-MS-GEC"];
    assert_eq!(gec.len(), 64, "{gec}");
    assert!(
        gec.chars()
            .all(|c| c.is_ascii_digit() || ('A'..='F').contains(&c)),
        "{gec}"
    );
    assert_eq!(query["Sec-MS-GEC-Version"], "1-143.0.3650.75");
    assert_eq!(query["ConnectionId"].len(), 32);
    assert_eq!(
        seen.origin,
        "chrome-extension://jdiccldimpdaibmpdkjnbmckianbfold"
    );
    assert!(seen.user_agent.contains("Edg/143"), "{}", seen.user_agent);

    let config_message = &seen.messages[0];
    assert!(
        config_message.contains("Path:speech.config\r\n"),
        "{config_message}"
    );
    assert!(
        config_message.contains("\"outputFormat\":\"audio-24khz-48kbitrate-mono-mp3\""),
        "{config_message}"
    );
    let ssml = &seen.messages[1];
    assert!(ssml.contains("Path:ssml\r\n\r\n<speak "), "{ssml}");
    assert!(ssml.contains("Content-Type:application/ssml+xml"), "{ssml}");
    assert!(ssml.contains("<voice name='en-GB-SoniaNeural'>"), "{ssml}");
    assert!(ssml.contains("rate='+25%'"), "{ssml}");
    assert!(
        ssml.contains("Fish &amp; chips &lt;now&gt;, &quot;please&quot;."),
        "{ssml}"
    );
}

/// A server that refuses the websocket upgrade with `status`.
fn refusing_server(status: &'static str) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("ws://{}/edge/v1", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        if let Ok((mut stream, _)) = listener.accept() {
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
                line.clear();
            }
            let _ = write!(
                stream,
                "HTTP/1.1 {status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
        }
    });
    url
}

#[tokio::test]
async fn edge_403_says_the_token_or_version_needs_updating() {
    let url = refusing_server("403 Forbidden");
    let config = tts_config("  provider: edge\n");
    let synth = Synthesizer::from_config(&config, &env(&[("HERMES_EDGE_TTS_URL", &url)])).unwrap();
    let err = synth
        .synthesize("Hello.", &CancellationToken::new())
        .await
        .unwrap_err();
    assert!(
        matches!(err, SynthError::Status { status: 403, .. }),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(text.starts_with("edge:"), "{text}");
    assert!(text.contains("Microsoft Edge"), "{text}");
    assert!(text.contains("need"), "{text}");
    assert!(text.contains("updating"), "{text}");
    assert!(!text.contains("Sec-MS-GEC="), "no query in errors: {text}");
    assert!(!text.contains("6A5AA1D4"), "no token in errors: {text}");
}

#[tokio::test]
async fn edge_failing_falls_back_to_espeak_when_installed() {
    if !std::path::Path::new("/usr/bin/espeak-ng").is_file() {
        eprintln!("espeak-ng not installed; skipping");
        return;
    }
    let url = refusing_server("403 Forbidden");
    let config = tts_config("  provider: edge\n");
    let env = env(&[("HERMES_EDGE_TTS_URL", &url), ("PATH", "/usr/bin:/bin")]);
    let (synth, _) = hermes::voice::tts::fallback::configured_or_offline(&config, &env).unwrap();
    assert_eq!(synth.provider(), "edge");
    let stream = synth
        .stream("Hello there.", &CancellationToken::new())
        .await
        .unwrap();
    assert!(
        !stream.is_cacheable(),
        "stand-in audio is not cached as Edge's"
    );
    let clip = stream.collect().await.unwrap();
    assert!(!clip.samples.is_empty());
}
