use std::sync::Mutex;

use super::*;
use crate::test_server::{Response, ScriptedServer};

const TEST_SPEC: ModelSpec = ModelSpec {
    name: "test",
    listed_bytes: 4096,
    sha1: "",
};

fn fake_model(len: usize) -> Vec<u8> {
    let mut bytes = GGML_MAGIC.to_vec();
    bytes.extend((0..len - 4).map(|i| (i % 251) as u8));
    bytes
}

/// A stand-in digest (sum of bytes) to exercise the checksum path without a hash crate.
struct ByteSum(u64);

impl Checksum for ByteSum {
    fn update(&mut self, bytes: &[u8]) {
        self.0 += bytes.iter().map(|&b| u64::from(b)).sum::<u64>();
    }
    fn finish_hex(self: Box<Self>) -> String {
        format!("{:x}", self.0)
    }
}

fn byte_sum_hex(bytes: &[u8]) -> String {
    let mut sum = Box::new(ByteSum(0));
    sum.update(bytes);
    sum.finish_hex()
}

fn dir_entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|it| {
            it.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

async fn run(
    base_url: &str,
    dir: &Path,
    checksum: Option<ChecksumCheck>,
) -> (Result<PathBuf, DownloadError>, Vec<(u64, Option<u64>)>) {
    let client = http_client().unwrap();
    let calls = Mutex::new(Vec::new());
    let mut progress = |got: u64, total: Option<u64>| calls.lock().unwrap().push((got, total));
    let job = Download {
        spec: &TEST_SPEC,
        base_url,
        dir,
        checksum,
    };
    let result = download(&client, job, &mut progress).await;
    (result, calls.into_inner().unwrap())
}

#[test]
fn the_standard_models_are_listed_with_urls_and_sha1() {
    let names: Vec<&str> = MODELS.iter().map(|m| m.name).collect();
    assert_eq!(
        names,
        [
            "tiny",
            "tiny.en",
            "base",
            "base.en",
            "small",
            "small.en",
            "medium",
            "medium.en",
            "large-v3",
            "large-v3-turbo"
        ]
    );
    for m in MODELS {
        assert_eq!(m.sha1.len(), 40, "{}", m.name);
        assert!(m.sha1.chars().all(|c| c.is_ascii_hexdigit()), "{}", m.name);
    }
    let base = find("base.en").unwrap();
    assert_eq!(
        base.url(DEFAULT_BASE_URL),
        "https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-base.en.bin"
    );
    assert_eq!(base.size_label(), "142 MiB");
    assert_eq!(find("medium").unwrap().size_label(), "1.5 GiB");
    assert!(base.english_only() && !find("base").unwrap().english_only());
    assert_eq!(find("turbo").unwrap().name, "large-v3-turbo");
    let err = lookup("huge").unwrap_err().to_string();
    assert!(
        err.contains("unknown whisper model `huge`") && err.contains("tiny.en"),
        "{err}"
    );
}

#[test]
fn list_shows_what_is_installed() {
    let dir = tempfile::tempdir().unwrap();
    let home = HermesHome::from_base(dir.path(), None).unwrap();
    std::fs::create_dir_all(models_dir(&home)).unwrap();
    std::fs::write(model_path(&home, "tiny.en"), b"lmgg1234").unwrap();
    let listed = list(&home);
    assert_eq!(listed.len(), MODELS.len());
    let tiny = listed.iter().find(|s| s.spec.name == "tiny.en").unwrap();
    assert_eq!(tiny.installed_bytes, Some(8));
    assert_eq!(tiny.path, home.root().join("models/ggml-tiny.en.bin"));
    assert!(
        listed
            .iter()
            .filter(|s| s.spec.name != "tiny.en")
            .all(|s| s.installed_bytes.is_none())
    );
}

#[tokio::test]
async fn downloads_with_progress_and_renames_into_place() {
    let body = fake_model(200_000);
    let server = ScriptedServer::start_on_own_thread(vec![Response::raw_http(
        200,
        "application/octet-stream",
        &[],
        &body,
    )]);
    let url = server.root_url();
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    let checksum = ChecksumCheck {
        digest: Box::new(ByteSum(0)),
        expected_hex: byte_sum_hex(&body),
    };
    let (result, calls) = run(&url, &models, Some(checksum)).await;
    let path = result.unwrap();
    assert_eq!(path, models.join("ggml-test.bin"));
    assert_eq!(std::fs::read(&path).unwrap(), body);
    assert_eq!(dir_entries(&models), ["ggml-test.bin"]);
    assert!(
        server.requests()[0]
            .head
            .starts_with("GET /ggml-test.bin HTTP/1.1")
    );

    let total = Some(body.len() as u64);
    assert_eq!(calls.first(), Some(&(0, total)));
    assert_eq!(calls.last(), Some(&(body.len() as u64, total)));
    assert!(calls.len() >= 3, "{calls:?}");
    assert!(calls.windows(2).all(|w| w[0].0 <= w[1].0), "{calls:?}");
}

#[tokio::test]
async fn a_checksum_mismatch_leaves_nothing_and_keeps_the_old_model() {
    let body = fake_model(50_000);
    let server = ScriptedServer::start_on_own_thread(vec![Response::raw_http(
        200,
        "application/octet-stream",
        &[],
        &body,
    )]);
    let url = server.root_url();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ggml-test.bin"), b"old model").unwrap();
    let checksum = ChecksumCheck {
        digest: Box::new(ByteSum(0)),
        expected_hex: "deadbeef".into(),
    };
    let (result, _) = run(&url, dir.path(), Some(checksum)).await;
    let err = result.unwrap_err();
    assert!(
        matches!(err, DownloadError::ChecksumMismatch { .. }),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(
        text.contains("ggml-test.bin checksum mismatch: expected deadbeef, got"),
        "{text}"
    );
    assert_eq!(dir_entries(dir.path()), ["ggml-test.bin"]);
    assert_eq!(
        std::fs::read(dir.path().join("ggml-test.bin")).unwrap(),
        b"old model"
    );
}

#[tokio::test]
async fn an_error_page_is_not_saved_as_a_model() {
    let page = vec![b'<'; 10_000];
    let server =
        ScriptedServer::start_on_own_thread(vec![Response::raw_http(200, "text/html", &[], &page)]);
    let url = server.root_url();
    let dir = tempfile::tempdir().unwrap();
    let (result, _) = run(&url, dir.path(), None).await;
    let err = result.unwrap_err();
    assert!(matches!(err, DownloadError::NotGgml { .. }), "{err:?}");
    assert!(dir_entries(dir.path()).is_empty());
}

#[tokio::test]
async fn a_too_small_file_is_rejected() {
    let server = ScriptedServer::start_on_own_thread(vec![Response::raw_http(
        200,
        "application/octet-stream",
        &[],
        fake_model(100),
    )]);
    let url = server.root_url();
    let dir = tempfile::tempdir().unwrap();
    let (result, _) = run(&url, dir.path(), None).await;
    let err = result.unwrap_err();
    assert!(
        matches!(err, DownloadError::TooSmall { got: 100, .. }),
        "{err:?}"
    );
    assert!(dir_entries(dir.path()).is_empty());
}

#[tokio::test]
async fn a_cut_connection_leaves_no_partial_file() {
    let body = fake_model(50_000);
    let mut raw = format!(
        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len() * 2
    )
    .into_bytes();
    raw.extend_from_slice(&body);
    let server = ScriptedServer::start_on_own_thread(vec![Response::raw(raw)]);
    let url = server.root_url();
    let dir = tempfile::tempdir().unwrap();
    let (result, calls) = run(&url, dir.path(), None).await;
    let err = result.unwrap_err();
    assert!(
        matches!(
            err,
            DownloadError::Transport { .. } | DownloadError::Truncated { .. }
        ),
        "{err:?}"
    );
    assert!(!calls.is_empty());
    assert!(
        dir_entries(dir.path()).is_empty(),
        "{:?}",
        dir_entries(dir.path())
    );
}

#[tokio::test]
async fn a_404_names_the_url_and_status() {
    let server = ScriptedServer::start_on_own_thread(vec![Response::raw_http(
        404,
        "text/plain",
        &[],
        b"Entry not found",
    )]);
    let url = server.root_url();
    let dir = tempfile::tempdir().unwrap();
    let (result, _) = run(&format!("{url}/"), dir.path(), None).await;
    let err = result.unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("{url}/ggml-test.bin answered HTTP 404")
    );
    assert!(dir_entries(dir.path()).is_empty());
}

#[test]
fn sha1_digests_match_known_values() {
    // `printf abc | sha1sum`
    let mut digest: Box<dyn Checksum> = Box::new(Sha1Digest::default());
    digest.update(b"a");
    digest.update(b"bc");
    assert_eq!(
        digest.finish_hex(),
        "a9993e364706816aba3e25717850c26c9cd0d89d"
    );
    let spec = lookup("tiny.en").unwrap();
    let check = ChecksumCheck::published_sha1(spec);
    assert_eq!(check.expected_hex, spec.sha1);
    assert_eq!(check.expected_hex.len(), 40);
}
