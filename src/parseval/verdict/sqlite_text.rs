//! The text ParSEval runs for a query written for another engine: Calcite's standard-SQL row limit and database-qualified table names, which SQLite rejects.
//!
//! ```sql
//! -- given
//! SELECT `Name` FROM `concert_singer`.`singer` ORDER BY `Age` FETCH NEXT 1 ROWS ONLY
//! -- run
//! SELECT `Name` FROM `singer` ORDER BY `Age` LIMIT 1
//! ```
//!
//! The rewrite is the normalization passes `database_qualifiers` and `fetch_as_limit` alone (the
//! plan builder reads both spellings already). A text they leave unchanged is run byte for byte;
//! only a changed one is printed again from its syntax tree.

use std::borrow::Cow;

use crate::normalize::database_qualifiers::DatabaseQualifiers;
use crate::normalize::fetch_as_limit::FetchAsLimit;
use crate::normalize::Pass;

/// `sql` as SQLite can run it (itself when nothing needs rewriting, or when it does not parse);
/// a query of another dialect is its SQLite translation first (`parse::translate`).
pub fn for_sqlite(sql: &str) -> Cow<'_, str> {
    match crate::parse::translate::sqlite_text(sql) {
        Ok(Cow::Owned(translated)) => Cow::Owned(rewritten(&translated).into_owned()),
        _ => rewritten(sql),
    }
}

/// SQLite text with Calcite's row limit and database qualifiers rewritten.
fn rewritten(sql: &str) -> Cow<'_, str> {
    // the two constructs need a FETCH keyword or a dotted name
    if !sql.contains('.') && !sql.to_ascii_lowercase().contains("fetch") {
        return Cow::Borrowed(sql);
    }
    let Ok(statements) = crate::parse::parse_sql(sql) else {
        return Cow::Borrowed(sql);
    };
    let rewritten: Vec<_> = statements
        .iter()
        .cloned()
        .map(|s| FetchAsLimit.apply(DatabaseQualifiers.apply(s)))
        .collect();
    if rewritten == statements {
        return Cow::Borrowed(sql);
    }
    Cow::Owned(
        rewritten
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; "),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_only_what_sqlite_rejects() {
        assert_eq!(
            for_sqlite("SELECT `Name` FROM `concert_singer`.`singer` ORDER BY `Age` FETCH NEXT 1 ROWS ONLY"),
            "SELECT `Name` FROM `singer` ORDER BY `Age` LIMIT 1"
        );
        assert_eq!(
            for_sqlite("SELECT a FROM t ORDER BY a OFFSET 2 ROWS FETCH FIRST 3 ROWS ONLY"),
            "SELECT a FROM t ORDER BY a LIMIT 3 OFFSET 2"
        );
        for same in [
            "SELECT T1.name FROM singer AS T1 WHERE name = \"x\"",
            "SELECT fetch FROM t",
            "not sql at all.",
        ] {
            assert!(
                matches!(for_sqlite(same), Cow::Borrowed(s) if s == same),
                "{same}"
            );
        }
    }
}
