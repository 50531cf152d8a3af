//! The approval corpus (`tests/fixtures/approval_corpus.tsv`): every command is classified
//! with a fixed `ShellContext` and must get its expected tier. All mismatches are reported
//! at once, with line numbers; the corpus must also keep its minimum size per tier.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use hermes::safety::classify::{ShellContext, Tier, classify};

const CORPUS: &str = include_str!("../fixtures/approval_corpus.tsv");

struct Case {
    line: usize,
    expected: Tier,
    command: String,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for (index, raw) in CORPUS.lines().enumerate() {
        let line = index + 1;
        if raw.trim().is_empty() || raw.starts_with('#') {
            continue;
        }
        let (expected, command) = raw
            .split_once('\t')
            .unwrap_or_else(|| panic!("line {line}: expected `tier<TAB>command`: {raw:?}"));
        let expected = match expected {
            "hardline" => Tier::Hardline,
            "dangerous" => Tier::Dangerous,
            "benign" => Tier::Benign,
            other => panic!("line {line}: unknown tier {other:?}"),
        };
        out.push(Case {
            line,
            expected,
            command: command.replace('⏎', "\n"),
        });
    }
    out
}

fn ctx() -> ShellContext {
    ShellContext {
        home: PathBuf::from("/home/dev"),
        hermes_home: PathBuf::from("/home/dev/.hermes"),
    }
}

#[test]
fn every_corpus_verdict_matches() {
    let ctx = ctx();
    let mut mismatches = Vec::new();
    for case in cases() {
        let got = classify(&case.command, &ctx);
        if got.tier() != case.expected {
            let findings: Vec<String> = got
                .findings
                .iter()
                .map(|f| format!("{:?} {} ({})", f.tier, f.key, f.reason))
                .collect();
            mismatches.push(format!(
                "line {}: expected {:?}, got {:?}: {:?}\n    findings: {}",
                case.line,
                case.expected,
                got.tier(),
                case.command,
                if findings.is_empty() {
                    "none".to_string()
                } else {
                    findings.join("; ")
                }
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} corpus mismatch(es):\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

#[test]
fn corpus_has_the_minimum_size() {
    let cases = cases();
    let count = |tier| cases.iter().filter(|c| c.expected == tier).count();
    assert!(cases.len() >= 300, "only {} commands", cases.len());
    assert!(
        count(Tier::Hardline) >= 60,
        "hardline: {}",
        count(Tier::Hardline)
    );
    assert!(
        count(Tier::Dangerous) >= 100,
        "dangerous: {}",
        count(Tier::Dangerous)
    );
    assert!(
        count(Tier::Benign) >= 120,
        "benign: {}",
        count(Tier::Benign)
    );
}

#[test]
fn corpus_commands_are_unique() {
    let cases = cases();
    let mut seen = std::collections::HashMap::new();
    let dups: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            seen.insert(c.command.clone(), c.line)
                .map(|first| format!("line {} repeats line {first}: {:?}", c.line, c.command))
        })
        .collect();
    assert!(dups.is_empty(), "{}", dups.join("\n"));
}
