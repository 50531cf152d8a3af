use std::collections::BTreeSet;

use serde_norway::Value;

use super::*;
use crate::config::used_keys::is_used;

const HERMES_DEFAULT: &str = include_str!("../../tests/fixtures/hermes-0.19-default-config.yaml");

#[test]
fn every_line_of_the_table_parses_once() {
    let bad: Vec<&str> = data_lines()
        .filter(|line| parse_line(line).is_err())
        .collect();
    assert!(bad.is_empty(), "malformed lines: {bad:#?}");
    let mut seen = BTreeSet::new();
    let twice: Vec<&str> = hermes_keys()
        .iter()
        .map(|k| k.key)
        .filter(|k| !seen.insert(*k))
        .collect();
    assert!(twice.is_empty(), "listed twice: {twice:?}");
}

#[test]
fn honoured_exactly_when_hermes_reads_the_key() {
    let wrong: Vec<String> = hermes_keys()
        .iter()
        .filter_map(|row| {
            let honoured = matches!(row.support, Support::Honoured(_));
            (honoured != is_used(row.key)).then(|| {
                format!(
                    "{}: table says {}, code {}",
                    row.key,
                    if honoured { "honoured" } else { "not yet" },
                    if is_used(row.key) {
                        "reads it"
                    } else {
                        "does not"
                    }
                )
            })
        })
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn every_key_of_hermes_default_file_has_a_row() {
    let doc: Value = serde_norway::from_str(HERMES_DEFAULT).unwrap();
    let Value::Mapping(top) = doc else {
        panic!("not a mapping")
    };
    let mut missing = Vec::new();
    for (name, value) in &top {
        let name = name.as_str().unwrap();
        if hermes_key(name).is_none() {
            missing.push(name.to_string());
        }
        // Inside a section hermes uses, every key needs its own row.
        if let (true, Value::Mapping(section)) = (is_used(name), value) {
            for key in section.keys().filter_map(Value::as_str) {
                let dotted = format!("{name}.{key}");
                if hermes_key(&dotted).is_none() {
                    missing.push(dotted);
                }
            }
        }
    }
    assert!(missing.is_empty(), "no row for: {missing:#?}");
    assert!(top.len() > 70, "the fixture is Hermes's full file");
}

#[test]
fn docs_configuration_has_the_table() {
    let docs = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/configuration.md"
    ))
    .unwrap();
    let table = markdown_table();
    assert!(
        docs.contains(&table),
        "docs/configuration.md must contain this table (generated from \
         src/config/hermes_keys.tsv):\n\n{table}"
    );
}
