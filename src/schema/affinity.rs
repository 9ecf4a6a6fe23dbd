//! SQLite's type affinity of a declared column type, by the five rules of SQLite's "Datatypes" page (§3.1).
//!
//! | declared type contains (case-insensitive) | affinity |
//! |---|---|
//! | `INT` | [`Affinity::Integer`] |
//! | `CHAR`, `CLOB` or `TEXT` | [`Affinity::Text`] |
//! | `BLOB`, or no type at all | [`Affinity::Blob`] |
//! | `REAL`, `FLOA` or `DOUB` | [`Affinity::Real`] |
//! | anything else | [`Affinity::Numeric`] |
//!
//! The rules are tried in that order, so `CHARINT` is Integer and `FLOATING POINT` is Integer too
//! (it contains `INT`), exactly as in SQLite. Spider's tables.json types fall out of the same rules
//! (`number`, `time`, `boolean` → Numeric; `text` → Text) except `others`, which names no type and
//! is read as Blob (no affinity).

/// The affinity SQLite gives a column from its declared type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Affinity {
    Integer,
    Real,
    Numeric,
    Text,
    /// BLOB affinity, also called "none": values are stored as given.
    Blob,
}

/// The affinity of a declared type text (`VARCHAR(20)`, `real`, `` for none, Spider's `number`, ...).
///
/// ```
/// use sqlsim::schema::{affinity, Affinity};
/// assert_eq!(affinity("BIGINT"), Affinity::Integer);
/// assert_eq!(affinity("nvarchar(30)"), Affinity::Text);
/// assert_eq!(affinity(""), Affinity::Blob);
/// assert_eq!(affinity("double precision"), Affinity::Real);
/// assert_eq!(affinity("DATE"), Affinity::Numeric);
/// ```
pub fn affinity(declared: &str) -> Affinity {
    let t = declared.trim().to_ascii_uppercase();
    if t.contains("INT") {
        Affinity::Integer
    } else if t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT") {
        Affinity::Text
    } else if t.is_empty() || t.contains("BLOB") || t == "OTHERS" {
        Affinity::Blob
    } else if t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB") {
        Affinity::Real
    } else {
        Affinity::Numeric
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_examples() {
        // The example table of SQLite's documentation, §3.1.1.
        for (ty, want) in [
            ("INT", Affinity::Integer),
            ("INTEGER", Affinity::Integer),
            ("TINYINT", Affinity::Integer),
            ("UNSIGNED BIG INT", Affinity::Integer),
            ("INT8", Affinity::Integer),
            ("CHARACTER(20)", Affinity::Text),
            ("VARYING CHARACTER(255)", Affinity::Text),
            ("NATIVE CHARACTER(70)", Affinity::Text),
            ("NVARCHAR(100)", Affinity::Text),
            ("TEXT", Affinity::Text),
            ("CLOB", Affinity::Text),
            ("BLOB", Affinity::Blob),
            ("", Affinity::Blob),
            ("REAL", Affinity::Real),
            ("DOUBLE", Affinity::Real),
            ("DOUBLE PRECISION", Affinity::Real),
            ("FLOAT", Affinity::Real),
            ("NUMERIC", Affinity::Numeric),
            ("DECIMAL(10,5)", Affinity::Numeric),
            ("BOOLEAN", Affinity::Numeric),
            ("DATE", Affinity::Numeric),
            ("DATETIME", Affinity::Numeric),
            // Rule order: INT wins over the later rules.
            ("FLOATING POINT", Affinity::Integer),
            ("STRING", Affinity::Numeric),
        ] {
            assert_eq!(affinity(ty), want, "{ty}");
        }
    }

    #[test]
    fn spider_types() {
        assert_eq!(affinity("number"), Affinity::Numeric);
        assert_eq!(affinity("text"), Affinity::Text);
        assert_eq!(affinity("time"), Affinity::Numeric);
        assert_eq!(affinity("boolean"), Affinity::Numeric);
        assert_eq!(affinity("others"), Affinity::Blob);
    }
}
