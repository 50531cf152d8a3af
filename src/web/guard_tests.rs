use super::*;

fn ip(s: &str) -> IpAddr {
    s.parse().unwrap()
}

fn mapped(v4: &str) -> IpAddr {
    let v4: Ipv4Addr = v4.parse().unwrap();
    IpAddr::V6(v4.to_ipv6_mapped())
}

/// One address of every class, with its IPv4-mapped IPv6 form where it is IPv4.
const V4_CASES: &[(&str, AddrClass)] = &[
    ("8.8.8.8", AddrClass::Public),
    ("93.184.216.34", AddrClass::Public),
    ("169.254.169.254", AddrClass::Metadata),
    ("169.254.170.2", AddrClass::Metadata),
    ("169.254.169.253", AddrClass::Metadata),
    ("100.100.100.200", AddrClass::Metadata),
    ("169.254.1.1", AddrClass::LinkLocalV4),
    ("127.0.0.1", AddrClass::Loopback),
    ("127.255.255.254", AddrClass::Loopback),
    ("10.0.0.1", AddrClass::Private),
    ("172.16.0.1", AddrClass::Private),
    ("172.31.255.255", AddrClass::Private),
    ("192.168.1.1", AddrClass::Private),
    ("100.64.0.1", AddrClass::Cgnat),
    ("100.127.255.254", AddrClass::Cgnat),
    ("224.0.0.1", AddrClass::Multicast),
    ("239.255.255.250", AddrClass::Multicast),
    ("0.0.0.0", AddrClass::Unspecified),
    ("0.1.2.3", AddrClass::Reserved),
    ("192.0.0.8", AddrClass::Reserved),
    ("240.0.0.1", AddrClass::Reserved),
    ("255.255.255.255", AddrClass::Broadcast),
    ("198.18.0.1", AddrClass::Benchmark),
    ("198.19.255.255", AddrClass::Benchmark),
    ("192.0.2.1", AddrClass::Documentation),
    ("198.51.100.1", AddrClass::Documentation),
    ("203.0.113.1", AddrClass::Documentation),
    // Just outside the ranges.
    ("172.32.0.1", AddrClass::Public),
    ("100.128.0.1", AddrClass::Public),
    ("198.20.0.1", AddrClass::Public),
    ("11.0.0.1", AddrClass::Public),
];

#[test]
fn every_ipv4_range_and_its_mapped_form_is_classified() {
    for (addr, class) in V4_CASES {
        assert_eq!(classify(ip(addr)), *class, "{addr}");
        assert_eq!(classify(mapped(addr)), *class, "::ffff:{addr}");
    }
}

#[test]
fn ipv6_ranges_are_classified() {
    let cases = [
        ("2606:4700:4700::1111", AddrClass::Public),
        ("::1", AddrClass::Loopback),
        ("::", AddrClass::Unspecified),
        ("fd00:ec2::254", AddrClass::Metadata),
        ("fd12:3456::1", AddrClass::Private),
        ("fc00::1", AddrClass::Private),
        ("fec0::1", AddrClass::Private),
        ("fe80::1", AddrClass::LinkLocalV6),
        ("ff02::1", AddrClass::Multicast),
        ("2001:db8::1", AddrClass::Documentation),
        ("2001::1", AddrClass::Reserved),
        ("100::1", AddrClass::Reserved),
        ("64:ff9b:1::1", AddrClass::Private),
        // NAT64, 6to4 and the compatible form are judged by the IPv4 address they carry.
        ("64:ff9b::7f00:1", AddrClass::Loopback),
        ("64:ff9b::a9fe:a9fe", AddrClass::Metadata),
        ("2002:a00:1::1", AddrClass::Private),
        ("2002:7f00:1::", AddrClass::Loopback),
        ("::a9fe:a9fe", AddrClass::Metadata),
        ("::7f00:1", AddrClass::Loopback),
        // A NAT64 address of a public host is still outside global unicast.
        ("64:ff9b::808:808", AddrClass::Reserved),
        ("2002:808:808::1", AddrClass::Public),
    ];
    for (addr, class) in cases {
        assert_eq!(classify(ip(addr)), class, "{addr}");
    }
}

#[test]
fn non_public_addresses_are_refused_unless_allowed() {
    for (addr, class) in V4_CASES {
        for form in [ip(addr), mapped(addr)] {
            let refused = check_addr("example.com", form, PrivateAddresses::Refused);
            assert_eq!(refused.is_err(), *class != AddrClass::Public, "{form}");
            let allowed = check_addr("example.com", form, PrivateAddresses::Allowed);
            let always = matches!(class, AddrClass::Metadata | AddrClass::LinkLocalV4);
            assert_eq!(allowed.is_err(), always, "{form} with private allowed");
        }
    }
    for v6 in ["::1", "fd12::1", "fe80::1", "ff02::1"] {
        assert!(
            check_addr("h", ip(v6), PrivateAddresses::Refused).is_err(),
            "{v6}"
        );
        assert!(
            check_addr("h", ip(v6), PrivateAddresses::Allowed).is_ok(),
            "{v6}"
        );
    }
    assert!(check_addr("h", ip("fd00:ec2::254"), PrivateAddresses::Allowed).is_err());
}

#[test]
fn refusals_say_what_the_address_is_and_how_to_allow_it() {
    let err = check_addr("localhost", ip("127.0.0.1"), PrivateAddresses::Refused).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("localhost resolves to 127.0.0.1, a loopback address"),
        "{text}"
    );
    assert!(text.contains("web.allow_private_urls"), "{text}");
    let err = check_addr(
        "169.254.169.254",
        ip("169.254.169.254"),
        PrivateAddresses::Allowed,
    )
    .unwrap_err()
    .to_string();
    assert_eq!(err, "blocked: 169.254.169.254 is a cloud metadata endpoint");
}

#[test]
fn metadata_host_names_are_refused() {
    for url in [
        "http://metadata.google.internal/computeMetadata/v1/",
        "http://METADATA.GOOGLE.INTERNAL./x",
        "https://metadata.goog/",
    ] {
        let err = check_url(url).unwrap_err();
        assert!(err.to_string().contains("cloud metadata"), "{url}: {err}");
    }
    assert!(check_url("https://metadata.google.com/").is_ok());
}

#[test]
fn only_http_and_https() {
    for url in [
        "file:///etc/passwd",
        "ftp://example.com/x",
        "gopher://x/",
        "data:text/plain,hi",
    ] {
        assert!(
            matches!(
                check_url(url),
                Err(WebError::Blocked { .. } | WebError::BadUrl { .. })
            ),
            "{url}"
        );
    }
    assert!(check_url("HTTPS://Example.COM/a").is_ok());
    assert!(matches!(
        check_url("not a url"),
        Err(WebError::BadUrl { .. })
    ));
}

#[test]
fn secrets_in_urls_are_refused() {
    let refused = [
        "https://evil.example/collect?d=sk-ant-api03-abcdefghijklmnop",
        "https://evil.example/sk-proj-abcdefghijklmnopqrstuvwx/page",
        // Percent-encoded `sk-`: Hermes decodes before matching.
        "https://evil.example/?q=%73k-ant-api03-abcdefghijklmnop",
        "https://evil.example/?q=ghp_abcdefghijklmnopqrstuvwxyz0123",
        "https://evil.example/?t=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig",
        "https://user:hunter2@example.com/",
        "https://user@example.com/",
        "https://example.com/?access_token=opaque123",
        "https://example.com/?API_KEY=x",
        "https://example.com/?X-Amz-Signature=abc",
        "https://example.com/?token=abc&page=2",
    ];
    for url in refused {
        let err = check_url(url).expect_err(url);
        assert!(matches!(err, WebError::Blocked { .. }), "{url}: {err}");
        assert!(!err.to_string().contains("hunter2"), "{err}");
    }
}

#[test]
fn ordinary_query_parameters_pass() {
    for url in [
        "https://example.com/search?q=rust+ssrf&page=2",
        "https://example.com/?key=value",
        "https://example.com/?code=SUMMER&session=3",
        "https://example.com/?token=",
        "https://en.wikipedia.org/wiki/Sk-8",
        "https://example.com/task-list-for-you",
    ] {
        assert!(check_url(url).is_ok(), "{url}: {:?}", check_url(url));
    }
}

#[test]
fn urls_are_normalised_as_hermes_does() {
    let url = check_url("  https:// docs.example.com/guide ").unwrap();
    assert_eq!(url.as_str(), "https://docs.example.com/guide");
    let url = check_url("https://wttr.in/Köln?q=naïve").unwrap();
    assert_eq!(url.as_str(), "https://wttr.in/K%C3%B6ln?q=na%C3%AFve");
    let url = check_url("https://bücher.example/").unwrap();
    assert_eq!(url.host_str(), Some("xn--bcher-kva.example"));
    // Odd IPv4 spellings parse to the address they mean, which `fetch` then checks.
    let url = check_url("http://2130706433/").unwrap();
    assert_eq!(url.host_str(), Some("127.0.0.1"));
    let url = check_url("http://0x7f.1/").unwrap();
    assert_eq!(url.host_str(), Some("127.0.0.1"));
}

#[test]
fn private_addresses_setting_reads_the_config_flag() {
    assert_eq!(PrivateAddresses::from(true), PrivateAddresses::Allowed);
    assert_eq!(PrivateAddresses::from(false), PrivateAddresses::Refused);
    assert_eq!(PrivateAddresses::default(), PrivateAddresses::Refused);
}
