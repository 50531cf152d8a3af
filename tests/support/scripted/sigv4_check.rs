//! The scripted server's check of a Bedrock request's `Authorization`: either a Bedrock API
//! key (`Bearer …`) or a well-formed SigV4 header — `AWS4-HMAC-SHA256 Credential=<key id>/
//! <yyyymmdd>/<region>/bedrock/aws4_request, SignedHeaders=<sorted, ;-separated>,
//! Signature=<64 hex>` — whose signed headers include `host` and `x-amz-date`, with an
//! `x-amz-date` header of the same day. The signature itself is not verified (the server does
//! not know the secret); its shape is.

use std::collections::BTreeMap;

/// The parts of a SigV4 `Authorization` header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SigV4 {
    pub access_key_id: String,
    pub date: String,
    pub region: String,
    pub service: String,
    pub signed_headers: Vec<String>,
    pub signature: String,
}

/// Parses `value` as a SigV4 `Authorization` header.
pub fn parse(value: &str) -> Result<SigV4, String> {
    let rest = value
        .strip_prefix("AWS4-HMAC-SHA256 ")
        .ok_or("the Authorization header is not AWS4-HMAC-SHA256")?;
    let mut fields = BTreeMap::new();
    for part in rest.split(',') {
        let (key, val) = part
            .trim()
            .split_once('=')
            .ok_or_else(|| format!("malformed Authorization component `{}`", part.trim()))?;
        fields.insert(key.to_string(), val.to_string());
    }
    let field = |name: &str| {
        fields
            .get(name)
            .cloned()
            .ok_or_else(|| format!("the Authorization header has no {name}"))
    };
    let credential = field("Credential")?;
    let scope: Vec<&str> = credential.split('/').collect();
    let [key, date, region, service, terminator] = scope.as_slice() else {
        return Err(format!("malformed credential scope `{credential}`"));
    };
    if key.is_empty()
        || date.len() != 8
        || !date.bytes().all(|b| b.is_ascii_digit())
        || region.is_empty()
        || *terminator != "aws4_request"
    {
        return Err(format!("malformed credential scope `{credential}`"));
    }
    let signed_headers: Vec<String> = field("SignedHeaders")?
        .split(';')
        .map(str::to_string)
        .collect();
    let mut sorted = signed_headers.clone();
    sorted.sort();
    if sorted != signed_headers || signed_headers.iter().any(String::is_empty) {
        return Err("SignedHeaders must be sorted, lowercase and non-empty".into());
    }
    let signature = field("Signature")?;
    if signature.len() != 64 || !signature.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err("the Signature is not 64 hex digits".into());
    }
    Ok(SigV4 {
        access_key_id: key.to_string(),
        date: date.to_string(),
        region: region.to_string(),
        service: service.to_string(),
        signed_headers,
        signature,
    })
}

/// `Ok` for a Bedrock API key or a well-formed SigV4 signature (see the module doc).
pub fn check(headers: &BTreeMap<String, String>) -> Result<(), String> {
    let auth = headers
        .get("authorization")
        .ok_or("Missing Authentication Token")?;
    if let Some(token) = auth.strip_prefix("Bearer ") {
        return if token.trim().is_empty() {
            Err("empty bearer token".into())
        } else {
            Ok(())
        };
    }
    let sig = parse(auth)?;
    if sig.service != "bedrock" {
        return Err(format!(
            "credential scope is for `{}`, not bedrock",
            sig.service
        ));
    }
    for required in ["host", "x-amz-date"] {
        if !sig.signed_headers.iter().any(|h| h == required) {
            return Err(format!("SignedHeaders does not include {required}"));
        }
    }
    let amz_date = headers.get("x-amz-date").ok_or("no x-amz-date header")?;
    if !amz_date.starts_with(&sig.date) || amz_date.len() != 16 {
        return Err(format!(
            "x-amz-date `{amz_date}` does not match the credential date {}",
            sig.date
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20240102/us-east-1/bedrock/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7";

    fn headers(auth: &str, date: &str) -> BTreeMap<String, String> {
        BTreeMap::from([
            ("authorization".to_string(), auth.to_string()),
            ("x-amz-date".to_string(), date.to_string()),
        ])
    }

    #[test]
    fn accepts_sigv4_and_bearer() {
        assert_eq!(check(&headers(GOOD, "20240102T030405Z")), Ok(()));
        assert_eq!(check(&headers("Bearer abc", "")), Ok(()));
        let parsed = parse(GOOD).unwrap();
        assert_eq!(parsed.region, "us-east-1");
        assert_eq!(
            parsed.signed_headers,
            ["content-type", "host", "x-amz-date"]
        );
    }

    #[test]
    fn rejects_missing_and_malformed_signatures() {
        assert!(check(&BTreeMap::new()).is_err());
        assert!(
            check(&headers(GOOD, "20240103T030405Z")).is_err(),
            "other day"
        );
        let no_host = GOOD.replace("content-type;host;x-amz-date", "content-type;x-amz-date");
        assert!(check(&headers(&no_host, "20240102T030405Z")).is_err());
        let short = GOOD.replace("Signature=5d67", "Signature=");
        assert!(check(&headers(&short, "20240102T030405Z")).is_err());
        let s3 = GOOD.replace("/bedrock/", "/s3/");
        assert!(check(&headers(&s3, "20240102T030405Z")).is_err());
    }
}
