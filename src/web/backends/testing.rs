//! Helpers for the backends' unit tests: a variable lookup from pairs, the service client,
//! and an `ExtractProgress` that records its calls.

use std::collections::HashMap;
use std::sync::Mutex;

use super::ExtractProgress;
use crate::web::PageResult;

/// A lookup holding exactly `pairs`.
pub(crate) fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
    let map: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |name: &str| map.get(name).cloned()
}

pub(crate) fn client() -> reqwest::Client {
    super::service_client().unwrap()
}

/// Records `started URL` / `finished URL` in call order.
#[derive(Default)]
pub(crate) struct Recorder {
    pub events: Mutex<Vec<String>>,
}

impl ExtractProgress for Recorder {
    fn started(&self, url: &str) {
        self.events.lock().unwrap().push(format!("started {url}"));
    }
    fn finished(&self, result: &PageResult) {
        self.events
            .lock()
            .unwrap()
            .push(format!("finished {}", result.url));
    }
}

impl Recorder {
    pub fn events(&self) -> Vec<String> {
        self.events.lock().unwrap().clone()
    }
}

/// The request body as JSON.
pub(crate) fn body_json(request: &super::fakes::RawRequest) -> serde_json::Value {
    serde_json::from_slice(&request.body).unwrap()
}
