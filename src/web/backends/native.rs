//! `native`: hermes's own, keyless extractor: `fetch` (the guarded GET) then `extract`
//! (main content to markdown, PDF, JSON, text) for each URL, at most
//! [`MAX_CONCURRENT`] at a time, results in input order. A URL that fails gets its reason and
//! the others go on.

use async_trait::async_trait;
use futures::StreamExt;
use futures::stream::FuturesOrdered;

use super::BackendName;
use super::ExtractBackend;
use super::ExtractProgress;
use crate::web::PageResult;
use crate::web::WebError;
use crate::web::extract;
use crate::web::fetch::FetchOptions;
use crate::web::fetch::Fetcher;

/// URLs fetched at once.
pub const MAX_CONCURRENT: usize = 5;

pub struct NativeExtract {
    fetcher: Fetcher,
}

impl NativeExtract {
    pub fn new(options: FetchOptions) -> Result<Self, WebError> {
        Ok(Self {
            fetcher: Fetcher::new(options)?,
        })
    }

    async fn tracked(&self, url: &str, progress: &dyn ExtractProgress) -> PageResult {
        progress.started(url);
        let result = self.extract_one(url).await;
        progress.finished(&result);
        result
    }

    /// One URL, fetched and extracted (the extraction off the async threads).
    pub async fn extract_one(&self, url: &str) -> PageResult {
        let page = match self.fetcher.fetch(url).await {
            Ok(page) => page,
            Err(e) => return PageResult::failed(url, e),
        };
        let final_url = page.final_url.to_string();
        let content_type = page.mime();
        let header = page.content_type.clone();
        let page_url = final_url.clone();
        let extracted = tokio::task::spawn_blocking(move || {
            extract::extract(&page.body, header.as_deref(), Some(&page_url))
        })
        .await
        .unwrap_or(Err(WebError::Empty));
        let final_url = (final_url != url).then_some(final_url);
        match extracted {
            Ok(e) => PageResult {
                url: url.to_string(),
                title: e.title,
                content: e.text,
                error: None,
                final_url,
                content_type,
            },
            Err(e) => PageResult {
                final_url,
                content_type,
                ..PageResult::failed(url, e)
            },
        }
    }
}

#[async_trait]
impl ExtractBackend for NativeExtract {
    fn name(&self) -> BackendName {
        BackendName::Native
    }

    async fn extract(&self, urls: &[String], progress: &dyn ExtractProgress) -> Vec<PageResult> {
        // A hand-fed ordered queue rather than `stream::buffered` over a closure: the closure
        // form trips the compiler's higher-ranked lifetime check inside `async_trait`.
        let mut pending = FuturesOrdered::new();
        let mut waiting = urls.iter();
        for url in waiting.by_ref().take(MAX_CONCURRENT) {
            pending.push_back(self.tracked(url, progress));
        }
        let mut results = Vec::with_capacity(urls.len());
        while let Some(result) = pending.next().await {
            results.push(result);
            if let Some(url) = waiting.next() {
                pending.push_back(self.tracked(url, progress));
            }
        }
        results
    }
}
