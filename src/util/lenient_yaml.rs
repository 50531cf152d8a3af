//! YAML read the way PyYAML's `safe_load` treats repeated keys: a key that appears twice in
//! one mapping keeps its **last** value (in the first occurrence's position) instead of
//! failing the whole document, and every repeat is reported by its key path so the caller
//! can warn. Hermes Agent's own files rely on this (its skin template repeats a colour key).
//!
//! Not here: the YAML 1.1 scalar rules PyYAML also applies (`yes`/`no` booleans, sexagesimal
//! numbers, `<<` merge keys) — scalars are serde_norway's; nor line numbers (the caller finds
//! the key in its own text).
//!
//! Invariant: a document without repeated keys gives exactly the `Value` that
//! `serde_norway::from_str::<Value>` gives, and the same errors (with their locations).

use std::cell::RefCell;
use std::fmt;

use serde::de::DeserializeSeed;
use serde::de::EnumAccess;
use serde::de::MapAccess;
use serde::de::SeqAccess;
use serde::de::VariantAccess;
use serde::de::Visitor;
use serde_norway::Mapping;
use serde_norway::Value;
use serde_norway::value::Tag;
use serde_norway::value::TaggedValue;

/// A parsed document and the keys that were repeated in it.
#[derive(Debug, Clone, PartialEq)]
pub struct Lenient {
    pub value: Value,
    /// Each repeat, as the path of keys from the document root (`["colors", "ui_ok"]`);
    /// sequence items appear as their index. A key repeated three times appears twice.
    pub repeated: Vec<Vec<String>>,
}

/// Parse one YAML document, keeping the last value of a repeated key.
pub fn from_str(text: &str) -> Result<Lenient, serde_norway::Error> {
    let repeated = RefCell::new(Vec::new());
    let seed = ValueSeed {
        path: Vec::new(),
        repeated: &repeated,
    };
    let value = seed.deserialize(serde_norway::Deserializer::from_str(text))?;
    Ok(Lenient {
        value,
        repeated: repeated.into_inner(),
    })
}

/// How a mapping key is named in a repeat's path.
pub fn key_text(key: &Value) -> String {
    match key {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".to_string(),
        other => serde_norway::to_string(other)
            .map(|s| s.trim().to_string())
            .unwrap_or_default(),
    }
}

struct ValueSeed<'a> {
    path: Vec<String>,
    repeated: &'a RefCell<Vec<Vec<String>>>,
}

impl ValueSeed<'_> {
    fn child(&self, key: String) -> Self {
        let mut path = self.path.clone();
        path.push(key);
        ValueSeed {
            path,
            repeated: self.repeated,
        }
    }
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Value, E> {
        Ok(Value::Number(i.into()))
    }

    fn visit_u64<E>(self, u: u64) -> Result<Value, E> {
        Ok(Value::Number(u.into()))
    }

    fn visit_f64<E>(self, f: f64) -> Result<Value, E> {
        Ok(Value::Number(f.into()))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self.child(items.len().to_string()))? {
            items.push(item);
        }
        Ok(Value::Sequence(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut mapping = Mapping::new();
        while let Some(key) = map.next_key_seed(self.child(String::new()))? {
            let name = key_text(&key);
            let value = map.next_value_seed(self.child(name.clone()))?;
            if mapping.contains_key(&key) {
                let mut path = self.path.clone();
                path.push(name);
                self.repeated.borrow_mut().push(path);
            }
            // `insert` replaces the value and keeps the first key's position, as a Python
            // dict does.
            mapping.insert(key, value);
        }
        Ok(Value::Mapping(mapping))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        let (tag, contents): (String, _) = data.variant()?;
        let value = contents.newtype_variant_seed(ValueSeed {
            path: self.path.clone(),
            repeated: self.repeated,
        })?;
        if tag.is_empty() {
            return Ok(value);
        }
        Ok(Value::Tagged(Box::new(TaggedValue {
            tag: Tag::new(tag),
            value,
        })))
    }
}

#[cfg(test)]
#[path = "lenient_yaml_tests.rs"]
mod tests;
