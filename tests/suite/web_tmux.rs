//! The web tools in the TUI, in tmux with the real binary: a `web_extract` cell shows each
//! page's title and size and a failed URL's reason instead of the JSON the model got, and a
//! `web_search` cell shows the result count and titles.

use std::time::Duration;

use serde_json::json;

use crate::support;
use support::Response;
use support::ScriptedCall;
use support::ScriptedServer;
use support::tmux::Tmux;
use support::tmux_app::TmuxApp as App;
use support::web_fakes::FakeService;
use support::web_fakes::Kind;
use support::web_site::WebSite;

const WAIT: Duration = Duration::from_secs(20);

#[tokio::test(flavor = "multi_thread")]
async fn web_cells_show_titles_sizes_and_reasons() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let site = WebSite::start().await;
    let ddg = FakeService::start(Kind::Ddgs).await;
    let extract = json!({"urls": [site.url("/article"), site.url("/forbidden")]}).to_string();
    let search = json!({"query": "rust async runtime", "limit": 2}).to_string();
    let server = ScriptedServer::start_on_own_thread([
        Response::tool_calls([ScriptedCall::new("w1", "web_extract", &extract)]),
        Response::text(["Read ", "them."]),
        Response::tool_calls([ScriptedCall::new("w2", "web_search", &search)]),
        Response::text(["Found ", "some."]),
    ]);
    let app = App::new(&server, "");
    let config = app.home().join("config.yaml");
    let mut yaml = std::fs::read_to_string(&config).unwrap();
    yaml.push_str("web:\n  allow_private_urls: true\n");
    std::fs::write(&config, yaml).unwrap();
    let tmux = app.start_with("", &[("DDGS_BASE_URL", ddg.base_url())]);

    tmux.type_text("read these pages");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_text("Read them.", WAIT);
    assert!(
        screen.contains("chars — How the Harbour Bridge"),
        "{screen}"
    );
    assert!(screen.contains("✓ 127.0.0.1:"), "{screen}");
    assert!(screen.contains("✗ 127.0.0.1:"), "{screen}");
    assert!(screen.contains("HTTP 403"), "{screen}");
    assert!(
        !screen.contains("\"results\""),
        "no raw JSON in the cell: {screen}"
    );

    tmux.type_text("search for it");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_text("Found some.", WAIT);
    assert!(
        screen.contains("rust async runtime"),
        "the query heads the cell: {screen}"
    );
    assert!(screen.contains("2 results"), "{screen}");
    assert!(
        screen.contains("1. Tokio - An asynchronous Rust runtime — tokio.rs"),
        "{screen}"
    );

    tmux.keys(&["C-c"]);
    tmux.keys(&["C-c"]);
    tmux.wait_for_text("[exited 0]", WAIT);
}
