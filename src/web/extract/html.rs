//! HTML to markdown: the main content by `dom_smoothie` (a port of Mozilla's Readability,
//! the algorithm behind Firefox's reader view), written as markdown by `dom_query`'s
//! serializer (headings, links, lists, tables, code blocks with their `language-*`), in one
//! parse. When Readability finds no article (docs hubs, index and search pages), the whole
//! body is used instead, less its navigation, header, footer, sidebars, forms and scripts.
//!
//! Title: the page's metadata title (`og:title`, `twitter:title`, `<title>`, …, as
//! Readability picks it), else the first `<h1>`.

use dom_query::Document;
use dom_smoothie::Config;
use dom_smoothie::Readability;
use dom_smoothie::TextMode;

use super::Extracted;

/// Below this many characters a Readability result is taken as a miss (its own
/// `readable_min_content_length` default).
const MIN_ARTICLE_CHARS: usize = 140;

/// Elements that are page furniture, not content, for the whole-body fallback.
const BOILERPLATE: &str = "nav, header, footer, aside, script, style, noscript, template, form, \
                           iframe, svg, button, dialog, [role=navigation], [role=banner], \
                           [role=contentinfo], [role=complementary], [aria-hidden=true], [hidden]";

pub(super) fn extract(html: &str, url: Option<&str>) -> Extracted {
    let config = Config {
        text_mode: TextMode::Markdown,
        // Readability strips classes by default, and with them `language-rust` on code.
        keep_classes: true,
        ..Config::default()
    };
    // A URL Readability rejects (not absolute) only costs link absolutisation.
    let readability = Readability::new(html, url, Some(config.clone()))
        .or_else(|_| Readability::new(html, None, Some(config)));
    let article = readability.ok().and_then(|mut r| {
        if r.is_probably_readable() {
            r.parse().ok()
        } else {
            None
        }
    });
    match article {
        Some(a) if a.text_content.trim().chars().count() >= MIN_ARTICLE_CHARS => {
            // Readability lifts the byline out of the content; who wrote it is content.
            let text = match a.byline.and_then(non_empty) {
                Some(byline) => format!("{byline}\n\n{}", a.text_content),
                None => a.text_content.to_string(),
            };
            Extracted {
                title: non_empty(a.title).unwrap_or_else(|| first_h1(&Document::from(html))),
                text,
            }
        }
        other => {
            // Readability changed its copy of the tree; the fallback starts from the source.
            let document = Document::from(html);
            let title = other
                .and_then(|a| non_empty(a.title))
                .or_else(|| page_title(&document))
                .unwrap_or_else(|| first_h1(&document));
            Extracted {
                title,
                text: whole_body(&document),
            }
        }
    }
}

/// The body as markdown without page furniture; `<main>` (or the one `<article>`) when the
/// page marks its content.
fn whole_body(document: &Document) -> String {
    document.select(BOILERPLATE).remove();
    for candidate in ["main", "[role=main]", "article"] {
        let found = document.select(candidate);
        if found.length() == 1
            && found.text().trim().chars().count() >= MIN_ARTICLE_CHARS
            && let Some(node) = found.nodes().first()
        {
            return node.md(None).to_string();
        }
    }
    match document.select("body").nodes().first() {
        Some(body) => body.md(None).to_string(),
        None => document.md(None).to_string(),
    }
}

fn page_title(document: &Document) -> Option<String> {
    let og = document
        .select(r#"meta[property="og:title"]"#)
        .attr("content")
        .map(|t| t.to_string());
    og.and_then(non_empty)
        .or_else(|| non_empty(document.select("head title").text().to_string()))
}

fn first_h1(document: &Document) -> String {
    document.select("h1").first().text().trim().to_string()
}

fn non_empty(text: String) -> Option<String> {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!text.is_empty()).then_some(text)
}
