//! Command-provider templates (spec-002c §4.8): `{name}` placeholders filled with values
//! shell-escaped for where they stand — bare, inside `'…'`, or inside `"…"` — so a path or text
//! with spaces, quotes or `$` stays one literal word. `{{` and `}}` are literal braces; an
//! unknown `{name}` is left as written. The template itself is trusted (the user wrote it).

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quote {
    Bare,
    Single,
    Double,
}

/// `template` with each `{name}` from `values` replaced, escaped for its quoting context.
pub(super) fn render(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut quote = Quote::Bare;
    let mut rest = template;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("{{") || rest.starts_with("}}") {
            out.push(c);
            rest = &rest[2..];
            continue;
        }
        if c == '{'
            && let Some((value, len)) = placeholder(rest, values)
        {
            out.push_str(&escape(value, quote));
            rest = &rest[len..];
            continue;
        }
        let mut len = c.len_utf8();
        match (quote, c) {
            (Quote::Bare, '\'') => quote = Quote::Single,
            (Quote::Bare, '"') => quote = Quote::Double,
            (Quote::Single, '\'') | (Quote::Double, '"') => quote = Quote::Bare,
            (Quote::Bare | Quote::Double, '\\') => {
                // The escaped character is copied as is and changes no state.
                len += rest[1..].chars().next().map_or(0, char::len_utf8);
            }
            _ => {}
        }
        out.push_str(&rest[..len]);
        rest = &rest[len..];
    }
    out
}

/// The value of the `{name}` at the start of `text`, and the placeholder's length.
fn placeholder<'a>(text: &str, values: &[(&str, &'a str)]) -> Option<(&'a str, usize)> {
    let close = text.find('}')?;
    let name = &text[1..close];
    values
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| (*v, close + 1))
}

fn escape(value: &str, quote: Quote) -> String {
    match quote {
        Quote::Bare => {
            let safe = !value.is_empty()
                && value
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-./:=+,@%".contains(c));
            if safe {
                value.to_string()
            } else {
                format!("'{}'", value.replace('\'', r"'\''"))
            }
        }
        Quote::Single => value.replace('\'', r"'\''"),
        Quote::Double => {
            let mut out = String::with_capacity(value.len());
            for c in value.chars() {
                if matches!(c, '\\' | '"' | '$' | '`') {
                    out.push('\\');
                }
                out.push(c);
            }
            out
        }
    }
}

#[cfg(test)]
#[path = "template_tests.rs"]
mod tests;
