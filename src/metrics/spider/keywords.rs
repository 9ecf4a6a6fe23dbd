//! The SQL words the Spider parser, the open catalog and lenient rewriting treat as never being names.

/// Words that start a clause of the official grammar (where a list or condition ends).
pub(crate) fn is_clause(t: &str) -> bool {
    matches!(
        t,
        "select"
            | "from"
            | "where"
            | "group"
            | "order"
            | "limit"
            | "intersect"
            | "union"
            | "except"
    )
}

/// Clause words plus the other keywords of the official grammar: never a table or column name.
pub(crate) fn is_keyword(t: &str) -> bool {
    is_clause(t)
        || matches!(
            t,
            "join"
                | "on"
                | "as"
                | "by"
                | "having"
                | "and"
                | "or"
                | "not"
                | "between"
                | "in"
                | "like"
                | "is"
                | "exists"
                | "distinct"
                | "asc"
                | "desc"
        )
}
