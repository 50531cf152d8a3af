use super::*;

fn html(body: &str) -> Extracted {
    extract(
        body.as_bytes(),
        Some("text/html"),
        Some("https://example.com/post"),
    )
    .unwrap()
}

fn paragraphs(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "<p>Paragraph {i} of the story, long enough to count as prose for the \
                 readability scorer, with commas, clauses, and a full stop at the end.</p>"
            )
        })
        .collect()
}

#[test]
fn base64_images_become_placeholders_as_hermes_does() {
    let text = "See ![A chart](data:image/png;base64,iVBORw0KGgo=) and ![ ](data:image/gif;base64,R0lG) \
                and (data:image/jpeg;base64,/9j/4AAQ) and data:image/webp;base64,UklGR end. \
                ![kept](https://example.com/a.png)";
    assert_eq!(
        replace_base64_images(text),
        "See [IMAGE: A chart] and [IMAGE] and [IMAGE] and [IMAGE] end. \
         ![kept](https://example.com/a.png)"
    );
}

#[test]
fn inline_images_in_a_page_do_not_reach_the_text() {
    let page = format!(
        "<html><body><article><h1>Charts</h1>{}<p><img alt=\"Sales by month\" \
         src=\"data:image/png;base64,{}\"></p></article></body></html>",
        paragraphs(6),
        "A".repeat(4000)
    );
    let out = html(&page);
    assert!(out.text.contains("[IMAGE: Sales by month]"), "{}", out.text);
    assert!(!out.text.contains("AAAA"), "{}", out.text);
}

#[test]
fn code_blocks_keep_their_language_and_tables_their_cells() {
    let page = format!(
        "<html><head><title>Guide</title></head><body><article>{}\
         <pre><code class=\"language-python\">print('hi')\n</code></pre>\
         <table><thead><tr><th>Name</th><th>Size</th></tr></thead>\
         <tbody><tr><td>a.txt</td><td>12</td></tr></tbody></table>{}</article></body></html>",
        paragraphs(3),
        paragraphs(3)
    );
    let out = html(&page);
    assert!(out.text.contains("```python\nprint('hi')"), "{}", out.text);
    assert!(out.text.contains("| Name | Size |"), "{}", out.text);
    assert!(out.text.contains("| a.txt | 12 |"), "{}", out.text);
}

#[test]
fn title_falls_back_to_the_first_heading() {
    let page = format!(
        "<html><body><article><h1>Only a heading</h1>{}</article></body></html>",
        paragraphs(5)
    );
    assert_eq!(html(&page).title, "Only a heading");
    let page = format!(
        "<html><head><meta property=\"og:title\" content=\"From OG\"><title>Site | From title</title></head>\
         <body><article>{}</article></body></html>",
        paragraphs(5)
    );
    assert_eq!(html(&page).title, "From OG");
}

#[test]
fn kinds_come_from_the_type_or_the_bytes() {
    assert_eq!(
        kind(b"%PDF-1.7\n", Some("application/octet-stream")),
        Ok(DocKind::Pdf)
    );
    assert_eq!(kind(b"%PDF-1.7\n", None), Ok(DocKind::Pdf));
    assert_eq!(kind(b"\n<!DOCTYPE html><html>", None), Ok(DocKind::Html));
    assert_eq!(
        kind(b"{\"a\": 1}", Some("application/octet-stream")),
        Ok(DocKind::Json)
    );
    assert_eq!(kind(b"{}", Some("application/ld+json")), Ok(DocKind::Json));
    assert_eq!(kind(b"plain words", None), Ok(DocKind::Text));
    assert_eq!(
        kind(b"<rss/>", Some("application/rss+xml")),
        Ok(DocKind::Text)
    );
    assert_eq!(
        kind(b"\x00\x01\x02binary", Some("application/octet-stream")),
        Err(WebError::NotText {
            content_type: "application/octet-stream".into()
        })
    );
}

#[test]
fn json_is_pretty_printed_and_text_kept() {
    let out = extract(
        b"{\"a\":[1,2],\"b\":\"\xc3\xa9\"}",
        Some("application/json"),
        None,
    )
    .unwrap();
    assert_eq!(
        out.text,
        "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": \"é\"\n}"
    );
    let out = extract(b"line one\n\n\n\nline two  \n", Some("text/plain"), None).unwrap();
    assert_eq!(out.text, "line one\n\nline two");
}

#[test]
fn an_empty_document_is_an_error() {
    assert_eq!(
        extract(b"   \n", Some("text/plain"), None),
        Err(WebError::Empty)
    );
    assert_eq!(
        extract(
            b"<html><body><nav>Home</nav></body></html>",
            Some("text/html"),
            None
        ),
        Err(WebError::Empty)
    );
}

#[test]
fn a_damaged_pdf_is_reported_not_panicked_on() {
    let err = extract(
        b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog",
        Some("application/pdf"),
        None,
    );
    assert!(matches!(err, Err(WebError::BadPdf { .. })), "{err:?}");
}
