//! The SQL dialects sqlsim reads, and how a query's dialect travels with its text.
//!
//! A query written for another engine than SQLite is *tagged*: its text gets a prefix naming the
//! dialect (`\u{1}postgres\u{1}SELECT ...`), added once where the registry reads the `dialect`
//! options. Every layer below keys its caches on the text, so a tagged text is keyed on text and
//! dialect together, and every layer that parses goes through [`crate::parse::parse_sql`], which
//! reads the tag and translates the query into SQLite's meaning (`parse::translate`). A text
//! without a tag is SQLite, the default, and takes exactly the path it took before dialects
//! existed. The tag starts with a control character that no SQL contains, so a path that forgot
//! to translate fails loudly in SQLite instead of running another dialect's text.

use std::borrow::Cow;

use sqlparser::dialect::{
    BigQueryDialect, Dialect as SqlparserDialect, GenericDialect, MySqlDialect, PostgreSqlDialect,
    SQLiteDialect, SnowflakeDialect,
};

/// Marks the start and the end of a dialect tag.
const TAG: char = '\u{1}';

/// An SQL dialect: the engine a query was written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    /// SQLite, the default, and the engine every query runs on.
    #[default]
    Sqlite,
    Postgres,
    Mysql,
    Duckdb,
    Snowflake,
    Bigquery,
    /// Standard SQL, including the style Apache Calcite prints (`FETCH NEXT n ROWS ONLY`,
    /// `` `EXPR$0` ``, `$f9`).
    Ansi,
}

impl Dialect {
    /// Every dialect, in the order the documentation lists them.
    pub const ALL: [Dialect; 7] = [
        Dialect::Sqlite,
        Dialect::Postgres,
        Dialect::Mysql,
        Dialect::Duckdb,
        Dialect::Snowflake,
        Dialect::Bigquery,
        Dialect::Ansi,
    ];

    /// The option value naming the dialect.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Sqlite => "sqlite",
            Dialect::Postgres => "postgres",
            Dialect::Mysql => "mysql",
            Dialect::Duckdb => "duckdb",
            Dialect::Snowflake => "snowflake",
            Dialect::Bigquery => "bigquery",
            Dialect::Ansi => "ansi",
        }
    }

    /// The dialect an option value names (`postgresql` is accepted for `postgres`).
    pub fn from_name(name: &str) -> Option<Dialect> {
        let name = name.to_ascii_lowercase();
        match name.as_str() {
            "postgresql" => Some(Dialect::Postgres),
            _ => Dialect::ALL.into_iter().find(|d| d.name() == name),
        }
    }

    /// The option values, for error messages.
    pub fn names() -> String {
        Dialect::ALL.map(Dialect::name).join(", ")
    }

    /// sqlparser's parser settings for the dialect. Standard SQL is read with the generic
    /// dialect, which accepts Calcite's backquoted names and `$` inside identifiers.
    pub(crate) fn parser(self) -> Box<dyn SqlparserDialect> {
        match self {
            Dialect::Sqlite => Box::new(SQLiteDialect {}),
            Dialect::Postgres => Box::new(PostgreSqlDialect {}),
            Dialect::Mysql => Box::new(MySqlDialect {}),
            Dialect::Duckdb => Box::new(super::duckdb_calls::DuckDbCalls::default()),
            Dialect::Snowflake => Box::new(SnowflakeDialect {}),
            Dialect::Bigquery => Box::new(BigQueryDialect {}),
            Dialect::Ansi => Box::new(GenericDialect {}),
        }
    }
}

/// `sql` tagged with its dialect: `sql` itself for SQLite.
///
/// ```
/// use sqlsim::parse::dialect::{tag, untag, Dialect};
/// assert_eq!(tag("SELECT 1", Dialect::Sqlite), "SELECT 1");
/// let tagged = tag("SELECT 1", Dialect::Postgres);
/// assert_eq!(untag(&tagged), (Dialect::Postgres, "SELECT 1"));
/// ```
pub fn tag(sql: &str, dialect: Dialect) -> Cow<'_, str> {
    match dialect {
        Dialect::Sqlite => Cow::Borrowed(sql),
        d => Cow::Owned(format!("{TAG}{}{TAG}{sql}", d.name())),
    }
}

/// The tag name of SQLite text read with the SQLite reading's leniency
/// (`translate::sqlite_reading`); it names no dialect, so [`untag`] leaves such a text whole.
const LENIENT: &str = "sqlite-lenient";

/// `sql`, SQLite text, tagged to be read with the SQLite reading's leniency
/// (`translate::read_leniently` decides when, the registry where).
///
/// ```
/// use sqlsim::parse::dialect::{tag_lenient, untag, untag_lenient, Dialect};
/// let tagged = tag_lenient("SELECT YEAR(d) FROM t");
/// assert_eq!(untag_lenient(&tagged), Some("SELECT YEAR(d) FROM t"));
/// assert_eq!(untag_lenient("SELECT YEAR(d) FROM t"), None);
/// assert_eq!(untag(&tagged), (Dialect::Sqlite, tagged.as_str()));
/// ```
pub fn tag_lenient(sql: &str) -> String {
    format!("{TAG}{LENIENT}{TAG}{sql}")
}

/// The SQLite text of a text tagged by [`tag_lenient`], None for any other text.
pub fn untag_lenient(sql: &str) -> Option<&str> {
    sql.strip_prefix(TAG)?
        .strip_prefix(LENIENT)?
        .strip_prefix(TAG)
}

/// The dialect of a text and the query text without its tag (SQLite for an untagged text).
pub fn untag(sql: &str) -> (Dialect, &str) {
    let Some(rest) = sql.strip_prefix(TAG) else {
        return (Dialect::Sqlite, sql);
    };
    let Some((name, body)) = rest.split_once(TAG) else {
        return (Dialect::Sqlite, sql);
    };
    match Dialect::from_name(name) {
        Some(d) if d != Dialect::Sqlite => (d, body),
        _ => (Dialect::Sqlite, sql),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_tags_are_read_back() {
        for d in Dialect::ALL {
            assert_eq!(Dialect::from_name(d.name()), Some(d));
            let tagged = tag("SELECT a FROM t", d);
            assert_eq!(untag(&tagged), (d, "SELECT a FROM t"));
        }
        assert_eq!(Dialect::from_name("PostgreSQL"), Some(Dialect::Postgres));
        assert_eq!(Dialect::from_name("oracle"), None);
        // a text that only looks like a tag is SQLite text
        for text in [
            "\u{1}oracle\u{1}SELECT 1",
            "\u{1}postgres SELECT 1",
            "SELECT '\u{1}'",
        ] {
            assert_eq!(untag(text), (Dialect::Sqlite, text));
        }
    }
}
