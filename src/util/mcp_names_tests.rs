use super::*;

#[test]
fn names_are_sanitized_like_hermes() {
    assert_eq!(
        mcp_tool_name("filesystem", "read_file"),
        "mcp_filesystem_read_file"
    );
    assert_eq!(
        mcp_tool_name("github", "create-issue"),
        "mcp_github_create_issue"
    );
    assert_eq!(
        mcp_tool_name("my-api", "query.data"),
        "mcp_my_api_query_data"
    );
}
