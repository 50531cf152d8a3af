//! `Secret`: a credential string (API key, OAuth access or refresh token) that must never be
//! printed. `Debug` shows `***`, there is no `Display`, and it is not `Serialize`: the only way
//! to the value is [`Secret::expose`], which callers use for a request header or for writing
//! the credential store, nowhere else.
//!
//! It lives in `util` so the config layer (the auth store) and the providers share one type.

use std::fmt;

/// A credential. `Debug` never shows it and there is no `Display`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The credential itself, for the request header or the credential store only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_the_value() {
        let secret = Secret::new("sk-very-secret");
        assert_eq!(format!("{secret:?}"), "***");
        assert_eq!(format!("{:?}", Some(secret.clone())), "Some(***)");
        assert_eq!(secret.expose(), "sk-very-secret");
    }
}
