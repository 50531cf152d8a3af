use super::*;

const FULL: &str = "---
name: gif-search
description: Find GIFs on Tenor
version: 1.0
author: someone
platforms: [macos, Linux]
metadata:
  hermes:
    tags: [media, fun]
    category: media
    fallback_for_toolsets: [web]
    requires_tools: [terminal]
    config:
      - key: gif.dir
        description: Where to save
        default: ~/gifs
        prompt: Save directory
required_environment_variables:
  - name: TENOR_API_KEY
    prompt: Tenor API key
    help: Get a key from https://developers.google.com/tenor
    required_for: full functionality
  - EXTRA_TOKEN
---

# GIF Search

Use the API.
";

#[test]
fn parses_every_field() {
    let (meta, body) = parse_frontmatter(FULL).unwrap();
    assert_eq!(meta.name.as_deref(), Some("gif-search"));
    assert_eq!(meta.description.as_deref(), Some("Find GIFs on Tenor"));
    assert_eq!(meta.version.as_deref(), Some("1.0"));
    assert_eq!(meta.author.as_deref(), Some("someone"));
    assert_eq!(meta.platforms, vec!["macos", "linux"]);
    assert_eq!(meta.tags, vec!["media", "fun"]);
    assert_eq!(meta.category.as_deref(), Some("media"));
    assert_eq!(meta.conditions.fallback_for_toolsets, vec!["web"]);
    assert_eq!(meta.conditions.requires_tools, vec!["terminal"]);
    assert!(meta.conditions.requires_toolsets.is_empty());
    assert_eq!(
        meta.config,
        vec![ConfigSetting {
            key: "gif.dir".into(),
            description: Some("Where to save".into()),
            default: Some("~/gifs".into()),
            prompt: Some("Save directory".into()),
        }]
    );
    assert_eq!(meta.required_env.len(), 2);
    assert_eq!(meta.required_env[0].name, "TENOR_API_KEY");
    assert_eq!(
        meta.required_env[0].prompt.as_deref(),
        Some("Tenor API key")
    );
    assert_eq!(
        meta.required_env[0].required_for.as_deref(),
        Some("full functionality")
    );
    assert_eq!(meta.required_env[1].name, "EXTRA_TOKEN");
    assert_eq!(meta.required_env[1].prompt, None);
    assert!(body.starts_with("\n# GIF Search"));
    assert!(meta.supports(Platform::Linux));
    assert!(meta.supports(Platform::Macos));
    assert!(!meta.supports(Platform::Windows));
}

#[test]
fn scalar_platform_and_crlf_are_accepted() {
    let text = "---\r\nname: a\r\nplatforms: windows\r\n---\r\nbody\r\n";
    let (meta, body) = parse_frontmatter(text).unwrap();
    assert_eq!(meta.platforms, vec!["windows"]);
    assert!(meta.supports(Platform::Windows));
    assert!(!meta.supports(Platform::Linux));
    assert_eq!(body, "body\r\n");
}

#[test]
fn no_platforms_means_everywhere() {
    let (meta, _) = parse_frontmatter("---\nname: a\n---\nx").unwrap();
    for p in [
        Platform::Linux,
        Platform::Macos,
        Platform::Windows,
        Platform::Other,
    ] {
        assert!(meta.supports(p));
    }
}

#[test]
fn file_without_frontmatter_is_all_body() {
    let (meta, body) = parse_frontmatter("# Title\n\nText").unwrap();
    assert_eq!(meta, SkillMeta::default());
    assert_eq!(body, "# Title\n\nText");
}

#[test]
fn invalid_yaml_reports_the_file_line() {
    // Line 3 of the file: an unquoted colon inside the description.
    let text = "---\nname: x\ndescription: a: b\n---\nbody\n";
    let err = parse_frontmatter(text).unwrap_err();
    assert_eq!(err.line, 3, "{err:?}");
    assert!(err.message.contains("invalid YAML"), "{err:?}");
}

#[test]
fn unclosed_frontmatter_is_an_error_at_line_one() {
    let err = parse_frontmatter("---\nname: x\n\nbody without fence\n").unwrap_err();
    assert_eq!(err.line, 1);
    assert!(err.message.contains("not closed"));
}

#[test]
fn wrong_shapes_hermes_ignores_are_ignored_and_a_list_name_is_an_error() {
    // Hermes treats a mapping of platforms as no restriction; so do we, silently.
    let text = "---\nname: x\ndescription: d\nplatforms:\n  a: b\n---\nbody\n";
    let (meta, _) = parse_frontmatter(text).unwrap();
    assert!(meta.platforms.is_empty());

    let text = "---\nname: [a, b]\n---\nbody\n";
    let err = parse_frontmatter(text).unwrap_err();
    assert_eq!(err.line, 2);
    assert!(err.message.contains("'name'"));
}

#[test]
fn non_mapping_frontmatter_is_an_error() {
    let err = parse_frontmatter("---\n- a\n- b\n---\nbody").unwrap_err();
    assert!(err.message.contains("mapping"));
}

#[test]
fn validate_requires_name_description_and_body() {
    assert!(validate_skill_md("---\nname: ok-1\ndescription: d\n---\n\nDo it.\n").is_ok());
    let cases = [
        ("", "empty"),
        ("just text\n", "frontmatter"),
        ("---\ndescription: d\n---\nbody\n", "'name'"),
        ("---\nname: ok\n---\nbody\n", "'description'"),
        ("---\nname: ok\ndescription: d\n---\n  \n", "instructions"),
        (
            "---\nname: Bad Name\ndescription: d\n---\nbody\n",
            "invalid name",
        ),
    ];
    for (text, expected) in cases {
        let err = validate_skill_md(text).unwrap_err();
        assert!(err.message.contains(expected), "{text:?}: {err:?}");
    }
    let long = format!(
        "---\nname: ok\ndescription: {}\n---\nbody\n",
        "x".repeat(1025)
    );
    let err = validate_skill_md(&long).unwrap_err();
    assert_eq!(err.line, 3);
}

#[test]
fn names_and_slugs() {
    assert!(is_valid_name("git-commit"));
    assert!(is_valid_name("a.b_c-1"));
    assert!(is_valid_name("9lives"));
    for bad in ["", "-x", "Upper", "a b", "a/b", "..", &"x".repeat(65)] {
        assert!(!is_valid_name(bad), "{bad:?}");
    }
    assert_eq!(slugify("Backend Dev"), "backend-dev");
    assert_eq!(slugify("  Hello,  World! "), "hello-world");
    assert_eq!(slugify("a+b/c"), "abc");
    assert_eq!(slugify("git_helper"), "git_helper");
    assert_eq!(slugify("--x--"), "x");
}

#[test]
fn conditions_fallback_any_requires_all() {
    let c = Conditions {
        fallback_for_toolsets: vec!["web".into(), "browser".into()],
        ..Conditions::default()
    };
    assert!(c.allows(&Availability::new(&["terminal"], &["terminal"])));
    assert!(!c.allows(&Availability::new(&[], &["web"])));
    assert!(
        !c.allows(&Availability::new(&[], &["browser"])),
        "any listed toolset hides it"
    );

    let r = Conditions {
        requires_toolsets: vec!["terminal".into(), "file".into()],
        ..Conditions::default()
    };
    assert!(r.allows(&Availability::new(&[], &["terminal", "file"])));
    assert!(
        !r.allows(&Availability::new(&[], &["terminal"])),
        "all listed are required"
    );

    let t = Conditions {
        fallback_for_tools: vec!["web_search".into()],
        requires_tools: vec!["terminal".into()],
        ..Conditions::default()
    };
    assert!(t.allows(&Availability::new(&["terminal"], &[])));
    assert!(!t.allows(&Availability::new(&["terminal", "web_search"], &[])));
    assert!(!t.allows(&Availability::new(&[], &[])));
    // Without availability information nothing is filtered.
    assert!(t.allows(&Availability::unknown()));
    assert!(Conditions::default().allows(&Availability::new(&[], &[])));
}

#[test]
fn platform_names() {
    assert_eq!(Platform::parse("Darwin"), Some(Platform::Macos));
    assert_eq!(Platform::parse("macos"), Some(Platform::Macos));
    assert_eq!(Platform::parse("win32"), Some(Platform::Windows));
    assert_eq!(Platform::parse("linux"), Some(Platform::Linux));
    assert_eq!(Platform::parse("beos"), None);
}

#[test]
fn environments_admit_as_hermes_does() {
    let none = Environments::default();
    assert!(none.admit(&[]));
    assert!(!none.admit(&["s6".into()]));
    assert!(
        none.admit(&["s6".into(), "mars".into()]),
        "unknown tags fail open"
    );
    assert!(none.admit(&[" ".into()]), "blank tags are ignored");
    assert!(Environments::active(&["docker"]).admit(&["s6".into(), "docker".into()]));
    let kanban = Environments::detect(&|k| (k == "HERMES_KANBAN_TASK").then(|| "t1".to_string()));
    assert!(kanban.admit(&["kanban".into()]));
}

#[test]
fn first_prose_line_skips_headings() {
    assert_eq!(
        first_prose_line("# T\n\n## S\nReal text here.\nMore"),
        "Real text here."
    );
    assert_eq!(first_prose_line("# only"), "");
    assert_eq!(first_prose_line(&"y".repeat(200)).len(), 80);
}
