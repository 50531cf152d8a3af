use super::*;

fn special(path: PathBuf, access: SpecialAccess) -> SpecialPath {
    SpecialPath { path, access }
}

#[test]
fn a_secret_leaves_only_listing_on_its_ancestors_and_full_grants_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir_all(home.join(".hermes")).unwrap();
    std::fs::create_dir_all(home.join("src")).unwrap();
    std::fs::write(home.join(".hermes/.env"), "K=v").unwrap();
    std::fs::write(home.join(".hermes/config.yaml"), "").unwrap();
    std::fs::write(home.join("notes.txt"), "").unwrap();
    std::os::unix::fs::symlink(home.join(".hermes"), home.join("link-to-hermes")).unwrap();
    let home = real_path(&home);
    let specials = [
        special(home.join(".hermes/.env"), SpecialAccess::None),
        special(home.join(".hermes/config.yaml"), SpecialAccess::ReadOnly),
        special(home.join(".missing-rc"), SpecialAccess::ReadOnly),
    ];
    let plan = Plan::build(std::slice::from_ref(&home), &specials).unwrap();
    let grant = |p: &Path| plan.grants.iter().find(|g| g.path == p).map(|g| g.access);
    assert_eq!(grant(Path::new("/")), Some(Access::List));
    // The root holds a secret: nothing more than the listing inherited from `/`.
    assert!(
        grant(&home).is_none_or(|a| a == Access::List),
        "{:?}",
        grant(&home)
    );
    assert_eq!(grant(&home.join("src")), Some(Access::Full));
    assert_eq!(grant(&home.join("notes.txt")), Some(Access::Full));
    assert_eq!(grant(&home.join(".hermes/config.yaml")), Some(Access::Read));
    assert_eq!(
        grant(&home.join(".hermes/.env")),
        None,
        "a secret gets no grant at all"
    );
    assert_eq!(
        grant(&home.join("link-to-hermes")),
        None,
        "symlinks are skipped"
    );
    assert!(grant(Path::new("/usr")).is_some_and(|a| a >= Access::Read));
    assert_eq!(grant(Path::new("/dev/null")), Some(Access::ReadWriteFiles));
    // No grant above a special gives more than it allows.
    for g in &plan.grants {
        for s in &plan.specials {
            if s.path.starts_with(&g.path) {
                assert!(g.access <= Access::Read, "{g:?} reaches {s:?}");
            }
        }
    }
}

#[test]
fn may_write_follows_the_grants() {
    let dir = tempfile::tempdir().unwrap();
    let root = real_path(dir.path());
    let work = root.join("work");
    std::fs::create_dir_all(work.join("sub")).unwrap();
    std::fs::create_dir_all(root.join("elsewhere")).unwrap();
    std::fs::write(work.join("rc"), "").unwrap();
    let specials = [special(work.join("rc"), SpecialAccess::ReadOnly)];
    let roots = [work.clone()];
    assert!(may_write(&roots, &specials, &work.join("sub/new.txt")));
    assert!(!may_write(&roots, &specials, &work.join("rc")));
    assert!(
        !may_write(&roots, &specials, &work.join("new-in-chain-dir")),
        "work is a chain dir"
    );
    assert!(!may_write(&roots, &specials, &root.join("elsewhere/x")));
    assert!(!may_write(
        &roots,
        &specials,
        &work.join("sub/../../elsewhere/x")
    ));
    assert!(may_write(&roots, &specials, Path::new("/dev/null")));
    assert!(!may_write(&roots, &specials, Path::new("/etc/passwd")));
}

#[test]
fn roots_under_a_protected_path_are_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let root = real_path(dir.path());
    std::fs::create_dir_all(root.join(".ssh/inner")).unwrap();
    let specials = [special(root.join(".ssh"), SpecialAccess::ReadOnly)];
    let plan = Plan::build(&[root.join(".ssh/inner")], &specials).unwrap();
    assert!(plan.roots.is_empty());
    assert!(
        plan.grants
            .iter()
            .all(|g| !(g.path.starts_with(root.join(".ssh")) && g.access > Access::Read))
    );
}
