use super::*;
use crate::skills::test_support::write;

#[test]
fn parses_a_full_bundle() {
    let text = "name: Backend Dev\ndescription: Backend work\nskills:\n  - github-code-review\n  - devops/deploy\ninstruction: |\n  Tests first.\n";
    let b = parse_bundle(text, "file-stem", Path::new("/b/backend.yaml")).unwrap();
    assert_eq!(b.name, "Backend Dev");
    assert_eq!(b.slug, "backend-dev");
    assert_eq!(b.description.as_deref(), Some("Backend work"));
    assert_eq!(b.skills, vec!["github-code-review", "devops/deploy"]);
    assert_eq!(b.instruction.as_deref(), Some("Tests first."));
}

#[test]
fn name_defaults_to_the_file_stem() {
    let b = parse_bundle("skills: [a]\n", "research", Path::new("research.yaml")).unwrap();
    assert_eq!((b.name.as_str(), b.slug.as_str()), ("research", "research"));
    assert_eq!(b.description, None);
    assert_eq!(b.instruction, None);
}

#[test]
fn empty_or_missing_skills_are_rejected() {
    for text in ["name: x\nskills: []\n", "name: x\n", "skills: ['  ']\n"] {
        let w = parse_bundle(text, "x", Path::new("x.yaml")).unwrap_err();
        assert!(w.message.contains("non-empty 'skills'"), "{text:?}: {w:?}");
    }
}

#[test]
fn invalid_yaml_reports_line() {
    let w = parse_bundle("name: x\nskills: [a\n", "x", Path::new("x.yaml")).unwrap_err();
    assert!(w.line.is_some_and(|l| l >= 2), "{w:?}");
    assert!(w.message.contains("invalid bundle YAML"));
}

#[test]
fn loads_directory_sorted_with_duplicates_and_errors_reported() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "b.yaml", "name: Research\nskills: [x]\n");
    write(dir.path(), "a.yml", "skills: [y]\n");
    write(dir.path(), "c.yaml", "name: research\nskills: [z]\n");
    write(dir.path(), "d.yaml", "skills: []\n");
    write(dir.path(), "notes.txt", "ignored");
    let (bundles, warnings) = load_bundles(dir.path());
    let slugs: Vec<&str> = bundles.iter().map(|b| b.slug.as_str()).collect();
    assert_eq!(slugs, vec!["a", "research"]);
    assert_eq!(bundles[1].skills, vec!["x"]);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].path.ends_with("c.yaml"));
    assert!(warnings[1].path.ends_with("d.yaml"));
}

#[test]
fn missing_directory_is_empty() {
    let (b, w) = load_bundles(Path::new("/nonexistent/skill-bundles"));
    assert!(b.is_empty() && w.is_empty());
}
