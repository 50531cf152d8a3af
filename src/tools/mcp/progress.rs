//! Progress of a running MCP call: the SDK puts a progress token on each request, and the
//! server's `notifications/progress` for that token become live lines in the call's tool cell
//! (`ToolHost::progress`), e.g. `2/5 — Downloading`.
//!
//! Invariants: a token is routed only while its call runs (the guard unregisters it, also when
//! the call is interrupted), and notifications for unknown tokens are dropped.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::PoisonError;

use rmcp::model::NumberOrString;
use rmcp::model::ProgressNotificationParam;
use rmcp::model::ProgressToken;

use crate::tools::ToolHost;

/// Where a token's notifications go.
struct Route {
    host: Arc<dyn ToolHost>,
    call_id: String,
}

/// The running calls of one server, by progress token.
#[derive(Clone, Default)]
pub struct ProgressRoutes {
    routes: Arc<Mutex<HashMap<String, Route>>>,
}

/// Unregisters its token when the call ends.
pub struct ProgressGuard {
    routes: ProgressRoutes,
    key: String,
}

impl Drop for ProgressGuard {
    fn drop(&mut self) {
        self.routes
            .routes
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.key);
    }
}

impl ProgressRoutes {
    /// Route `token` (the one the SDK put on the call's request) to `host` as progress of
    /// the call `call_id`, until the guard drops.
    pub fn register(
        &self,
        token: &ProgressToken,
        host: Arc<dyn ToolHost>,
        call_id: &str,
    ) -> ProgressGuard {
        let key = token_key(token);
        self.routes
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(
                key.clone(),
                Route {
                    host,
                    call_id: call_id.to_string(),
                },
            );
        ProgressGuard {
            routes: self.clone(),
            key,
        }
    }

    /// A server's progress notification, shown on its call's cell.
    pub fn deliver(&self, params: &ProgressNotificationParam) {
        let key = token_key(&params.progress_token);
        let routes = self.routes.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(route) = routes.get(&key) {
            route.host.progress(&route.call_id, &progress_line(params));
        }
    }
}

fn token_key(token: &ProgressToken) -> String {
    match &token.0 {
        NumberOrString::String(key) => format!("s:{key}"),
        NumberOrString::Number(n) => format!("n:{n}"),
    }
}

/// `2/5 — message`, `40% — message` (a total of 1 or 100 reads as a percentage), or just the
/// count.
pub fn progress_line(params: &ProgressNotificationParam) -> String {
    let count = match params.total {
        Some(100.0) => format!("{}%", number(params.progress)),
        Some(1.0) => format!("{}%", number(params.progress * 100.0)),
        Some(total) => format!("{}/{}", number(params.progress), number(total)),
        None => number(params.progress),
    };
    match params
        .message
        .as_deref()
        .map(str::trim)
        .filter(|m| !m.is_empty())
    {
        Some(message) => format!("{count} — {}", super::clip(message, 200)),
        None => count,
    }
}

/// Whole numbers without `.0`; others with one decimal.
fn number(value: f64) -> String {
    match value.fract() == 0.0 && value.abs() < 1e15 {
        true => format!("{}", value as i64),
        false => format!("{value:.1}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Lines(Mutex<Vec<(String, String)>>);

    #[async_trait::async_trait]
    impl ToolHost for Lines {
        fn progress(&self, call_id: &str, text: &str) {
            self.0.lock().unwrap().push((call_id.into(), text.into()));
        }
        async fn clarify(&self, _q: &str, _c: &[String]) -> crate::protocol::ClarifyAnswer {
            crate::protocol::ClarifyAnswer::Declined
        }
    }

    fn note(
        token: &ProgressToken,
        progress: f64,
        total: Option<f64>,
        message: &str,
    ) -> ProgressNotificationParam {
        let mut value = serde_json::json!({
            "progressToken": token,
            "progress": progress,
            "message": message,
        });
        if let Some(total) = total {
            value["total"] = total.into();
        }
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn a_calls_notifications_reach_its_cell_until_it_ends() {
        let routes = ProgressRoutes::default();
        let lines = Arc::new(Lines(Mutex::new(Vec::new())));
        let token = ProgressToken(NumberOrString::Number(7));
        let other = ProgressToken(NumberOrString::String("7".into()));
        let guard = routes.register(&token, Arc::clone(&lines) as _, "call_7");
        let _other_guard = routes.register(&other, Arc::clone(&lines) as _, "call_8");
        routes.deliver(&note(&token, 2.0, Some(5.0), "Downloading"));
        routes.deliver(&note(&other, 1.0, None, ""));
        drop(guard);
        routes.deliver(&note(&token, 3.0, Some(5.0), "too late"));
        assert_eq!(
            lines.0.lock().unwrap().as_slice(),
            [
                ("call_7".to_string(), "2/5 — Downloading".to_string()),
                ("call_8".to_string(), "1".to_string()),
            ]
        );
    }

    #[test]
    fn lines_read_as_counts_or_percentages() {
        let token = ProgressToken(NumberOrString::Number(1));
        assert_eq!(progress_line(&note(&token, 40.0, Some(100.0), "")), "40%");
        assert_eq!(
            progress_line(&note(&token, 0.25, Some(1.0), "x")),
            "25% — x"
        );
        assert_eq!(progress_line(&note(&token, 1.5, None, "")), "1.5");
    }
}
