use super::*;
use crate::tools::Concurrency;

#[test]
fn core_has_the_tools_in_a_stable_order() {
    let reg = ToolRegistry::core();
    let expected = [
        "terminal",
        "process",
        "read_file",
        "write_file",
        "patch",
        "search_files",
        "todo",
        "clarify",
    ];
    assert_eq!(reg.names(), expected);
    let schemas = reg.schemas();
    assert_eq!(
        schemas.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        expected
    );
    for s in &schemas {
        assert!(
            s.description.len() > 40,
            "{} needs a real description",
            s.name
        );
        assert_eq!(s.parameters["type"], "object", "{}", s.name);
    }
    assert_eq!(ToolRegistry::core().schemas(), schemas);
}

#[test]
fn concurrency_classes() {
    let reg = ToolRegistry::core();
    let class = |n: &str| reg.get(n).unwrap().concurrency();
    assert_eq!(class("read_file"), Concurrency::ParallelSafe);
    assert_eq!(class("search_files"), Concurrency::ParallelSafe);
    for n in ["terminal", "process", "write_file", "patch", "todo"] {
        assert_eq!(class(n), Concurrency::Sequential, "{n}");
    }
    assert_eq!(class("clarify"), Concurrency::Exclusive);
    assert!(reg.get("nope").is_none());
}

#[test]
fn filters_by_toolset_and_refuses_duplicates() {
    let reg = ToolRegistry::core();
    assert_eq!(reg.toolsets(), ["terminal", "file", "todo", "clarify"]);
    let files = reg.filter_toolsets(&["file"]);
    assert_eq!(
        files.names(),
        ["read_file", "write_file", "patch", "search_files"]
    );
    assert_eq!(
        reg.filter_toolsets(&["terminal", "todo"]).names(),
        ["terminal", "process", "todo"]
    );
    assert!(reg.filter_toolsets(&[]).is_empty());
    let mut reg = reg;
    let err = reg
        .register(Arc::new(crate::tools::todo::TodoTool))
        .unwrap_err();
    assert_eq!(err, RegistryError::Duplicate("todo".into()));
    assert_eq!(reg.len(), 8);
}
