//! The whisper hallucination filter (spec-002c §3.7): whisper invents text on silence and noise
//! ("Thank you for watching", subtitle credits, "[BLANK_AUDIO]", a word looping forever). A
//! transcript is checked before it reaches the agent.
//!
//! Rules, in order: bracketed annotations (`[BLANK_AUDIO]`, `[Music]`) and music notes are
//! removed; runs of the same word or phrase repeated [`RUN_MIN`] or more times in a row are
//! collapsed to one copy; then the transcript is a hallucination when nothing is left, when it
//! consists only of known phrases (any number of them, "Thank you. Thank you."), when it is
//! nothing but one collapsed run ("the the the the"), or when it is a short subtitle credit
//! ("… Amara.org …"). Comparison ignores case, punctuation and spacing.
//!
//! Not filtered: real sentences that merely contain a known phrase ("thank you for the help"
//! survives). A lone "Thank you." or "you" is dropped, as in Hermes: whisper says those on
//! silence far more often than people say them to an agent.

/// A transcript after the filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Filtered {
    /// Something was said; repeated runs are already collapsed.
    Speech(String),
    /// Silence, noise or a known whisper hallucination: send nothing.
    Hallucination,
}

/// A word or phrase repeated this many times in a row is a run.
pub const RUN_MIN: usize = 4;
/// The longest phrase (in words) a run may repeat.
const RUN_MAX_UNIT: usize = 8;
/// A subtitle credit is a hallucination only in a transcript this short (in words).
const CREDIT_MAX_WORDS: usize = 16;

/// Things whisper says on silence, in several languages (compared normalised).
pub const KNOWN_HALLUCINATIONS: &[&str] = &[
    "Thank you.",
    "Thank you very much.",
    "Thanks.",
    "Thank you for watching!",
    "Thanks for watching!",
    "Thank you so much for watching.",
    "Subscribe",
    "Please subscribe.",
    "Like and subscribe.",
    "Subscribe to my channel.",
    "Don't forget to like and subscribe.",
    "you",
    "Bye.",
    "The end.",
    "Subtitles by the Amara.org community",
    "Продолжение следует...",
    "Спасибо за просмотр!",
    "Sous-titres réalisés para la communauté d'Amara.org",
    "Merci d'avoir regardé cette vidéo !",
    "Untertitel im Auftrag des ZDF",
    "Vielen Dank fürs Zuschauen!",
    "Sottotitoli creati dalla comunità Amara.org",
    "¡Gracias por ver el video!",
    "ご視聴ありがとうございました",
    "字幕由Amara.org社区提供",
    "감사합니다",
];

/// Fragments that mark a subtitle credit whatever surrounds them.
const CREDIT_MARKERS: &[&str] = &[
    "amara org",
    "untertitel im auftrag",
    "untertitel der amara",
    "subtitles by",
    "sous titres réalisés",
];

/// Checks one transcript.
pub fn filter(text: &str) -> Filtered {
    let cleaned = strip_annotations(text);
    let words: Vec<Word<'_>> = cleaned
        .split_whitespace()
        .map(|raw| Word {
            raw,
            norm: normalise(raw),
        })
        .filter(|w| !w.norm.is_empty())
        .collect();
    if words.is_empty() {
        return Filtered::Hallucination;
    }
    let (kept, whole_run) = collapse_runs(&words);
    if whole_run {
        return Filtered::Hallucination;
    }
    let tokens: Vec<&str> = kept.iter().flat_map(|w| w.norm.split(' ')).collect();
    if only_known_phrases(&tokens) || is_credit(&tokens) {
        return Filtered::Hallucination;
    }
    if kept.len() == words.len() {
        return Filtered::Speech(cleaned.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    Filtered::Speech(kept.iter().map(|w| w.raw).collect::<Vec<_>>().join(" "))
}

/// Lowercase letters and digits of any script, every other character a word break
/// ("Amara.org" → "amara org", "d'Amara" → "d amara").
pub fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with(' ') && !out.is_empty() {
            out.push(' ');
        }
    }
    out.trim_end().to_string()
}

struct Word<'a> {
    raw: &'a str,
    norm: String,
}

/// Removes `[…]` annotations and music notes; a `(…)` group too when it is all there is.
fn strip_annotations(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '[' => depth += 1,
            ']' if depth > 0 => depth -= 1,
            '♪' | '♫' | '♬' | '♩' => out.push(' '),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    let trimmed = out.trim();
    if is_all_parenthesised(trimmed) {
        return String::new();
    }
    out
}

/// `(music)`, `(upbeat music) (applause)`: only parenthesised groups and spaces.
fn is_all_parenthesised(text: &str) -> bool {
    if !text.starts_with('(') {
        return false;
    }
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            ')' => return false,
            c if depth == 0 && !c.is_whitespace() => return false,
            _ => {}
        }
    }
    depth == 0
}

/// Collapses every run of a unit (1..=8 words) repeated [`RUN_MIN`]+ times to one copy.
/// The flag says the whole transcript was a single run.
fn collapse_runs<'w, 'a>(words: &'w [Word<'a>]) -> (Vec<&'w Word<'a>>, bool) {
    let mut kept = Vec::with_capacity(words.len());
    let mut i = 0;
    let mut whole_run = false;
    while i < words.len() {
        match longest_run_at(words, i) {
            Some((unit, copies)) => {
                if i == 0 && unit * copies == words.len() {
                    whole_run = true;
                }
                kept.extend(&words[i..i + unit]);
                i += unit * copies;
            }
            None => {
                kept.push(&words[i]);
                i += 1;
            }
        }
    }
    (kept, whole_run)
}

/// The unit length and copy count of the run starting at `start` that covers most words.
fn longest_run_at(words: &[Word<'_>], start: usize) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize)> = None;
    for unit in 1..=RUN_MAX_UNIT {
        if start + unit * RUN_MIN > words.len() {
            break;
        }
        let same = |a: usize, b: usize| words[a].norm == words[b].norm;
        let mut copies = 1;
        while start + unit * (copies + 1) <= words.len()
            && (0..unit).all(|k| same(start + k, start + unit * copies + k))
        {
            copies += 1;
        }
        let covers = unit * copies;
        if copies >= RUN_MIN && best.is_none_or(|(u, c)| covers > u * c) {
            best = Some((unit, copies));
        }
    }
    best
}

/// The words split entirely into known phrases ("thank you thank you", "bye bye").
fn only_known_phrases(words: &[&str]) -> bool {
    let phrases: Vec<Vec<String>> = KNOWN_HALLUCINATIONS
        .iter()
        .map(|p| normalise(p).split(' ').map(str::to_string).collect())
        .collect();
    // reachable[i]: words[..i] splits into known phrases.
    let mut reachable = vec![false; words.len() + 1];
    reachable[0] = true;
    for i in 0..words.len() {
        if !reachable[i] {
            continue;
        }
        for phrase in &phrases {
            let end = i + phrase.len();
            if end <= words.len() && phrase.iter().zip(&words[i..end]).all(|(p, w)| p == w) {
                reachable[end] = true;
            }
        }
    }
    reachable[words.len()]
}

/// A short transcript carrying a subtitle credit.
fn is_credit(words: &[&str]) -> bool {
    if words.len() > CREDIT_MAX_WORDS {
        return false;
    }
    let joined = format!(" {} ", words.join(" "));
    CREDIT_MARKERS
        .iter()
        .any(|marker| joined.contains(&format!(" {marker} ")))
}

#[cfg(test)]
#[path = "filter_tests.rs"]
mod tests;
