//! Time to turn a ~1 MB HTML article into markdown with `web::extract` (the native
//! `web_extract` minus the network): run `cargo bench --bench web_extract` (release).
//! The page is `tests/fixtures/web/article.html` with its story grown to 1 MB of sections,
//! paragraphs with links, lists, a table and code blocks, inside the same nav, ads,
//! comments and footer. Budget: p50 ≤ 50 ms. Also times the whole-body fallback (a page
//! Readability rejects) and the five small fixture pages.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;
use std::time::Instant;

use hermes::web::extract::extract;

const TARGET_BYTES: usize = 1024 * 1024;
const RUNS: usize = 40;

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/web/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

/// The article fixture with the story repeated, section by section, to `TARGET_BYTES`.
fn big_article() -> String {
    let page = fixture("article.html");
    let start = page.find("<h2>Working at night").unwrap();
    let end = page.find("<p class=\"read-more\">").unwrap();
    let (head, tail) = (&page[..start], &page[end..]);
    let mut story = String::new();
    let mut n = 0;
    while head.len() + story.len() + tail.len() < TARGET_BYTES {
        n += 1;
        story.push_str(&page[start..end].replace("<h2>", &format!("<h2>{n}. ")));
        story.push_str(&format!(
            "<p>Section {n} notes, with <a href=\"/notes/{n}\">a link to the records</a> and \
             <em>emphasis</em>.</p><table><tr><th>Night</th><th>Wind km/h</th></tr>\
             <tr><td>{n}</td><td>{}</td></tr></table>\
             <pre><code class=\"language-python\">gauge.read(point={n})\n</code></pre>",
            20 + n % 30
        ));
    }
    format!("{head}{story}{tail}")
}

fn time(html: &str) -> Vec<Duration> {
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let started = Instant::now();
            let out = extract(
                html.as_bytes(),
                Some("text/html"),
                Some("https://example.com/a"),
            );
            let elapsed = started.elapsed();
            assert!(out.is_ok_and(|e| !e.text.is_empty()));
            elapsed
        })
        .collect();
    times.sort();
    times
}

fn pct(times: &[Duration], p: usize) -> f64 {
    let i = (times.len() * p / 100).min(times.len() - 1);
    times[i].as_secs_f64() * 1000.0
}

fn row(name: &str, html: &str) -> f64 {
    let times = time(html);
    let (p50, p95) = (pct(&times, 50), pct(&times, 95));
    println!("{name:<28} {:>9} {p50:>9.1} {p95:>9.1}", html.len());
    p50
}

fn main() {
    println!(
        "{:<28} {:>9} {:>9} {:>9}",
        "page", "bytes", "p50 ms", "p95 ms"
    );
    let big = big_article();
    let p50 = row("article, 1 MB", &big);
    // The same bulk with no article structure: Readability gives up, the fallback runs.
    let flat = big
        .replace("<article class=\"story\">", "<div>")
        .replace("</article>", "</div>");
    row("1 MB, no <article>", &flat);
    for name in [
        "article.html",
        "docs.html",
        "hub.html",
        "zh.html",
        "ar.html",
    ] {
        row(name, &fixture(name));
    }
    let verdict = if p50 <= 50.0 { "within" } else { "OVER" };
    println!("\n1 MB article p50 {p50:.1} ms: {verdict} the 50 ms budget");
}
