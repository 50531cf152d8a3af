//! PDF text with `pdf-extract` (chosen over `lopdf`'s own text extraction for its handling of
//! Type 1 and CFF fonts with custom encodings, as LaTeX papers have; see
//! `docs/web-extraction.md`). A PDF whose pages have no text is reported as such, not as an
//! empty page. The reader is known to panic on some malformed files: the panic is caught
//! and reported as an unreadable PDF.

use super::Extracted;
use crate::web::WebError;

pub(super) fn extract(body: &[u8]) -> Result<Extracted, WebError> {
    // `expected_panic::catch`: the TUI's panic hook must not treat this as a crash.
    let result = crate::util::expected_panic::catch(|| pdf_extract::extract_text_from_mem(body));
    let text = match result {
        Ok(Ok(text)) => text,
        Ok(Err(e)) => {
            return Err(WebError::BadPdf {
                detail: e.to_string(),
            });
        }
        Err(_) => {
            return Err(WebError::BadPdf {
                detail: "the PDF reader failed on this file".into(),
            });
        }
    };
    if text.trim().is_empty() {
        return Err(WebError::PdfNoText);
    }
    // The first line of a paper or report is its title far more often than not.
    let title = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(|l| l.chars().take(200).collect())
        .unwrap_or_default();
    Ok(Extracted { title, text })
}
