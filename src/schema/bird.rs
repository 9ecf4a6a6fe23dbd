//! BIRD-style schema argument: a JSON array of DDL strings (BIRD's schema.json holds one per
//! database), each string one or more `CREATE TABLE` statements read as [`super::ddl`] reads DDL text.

use serde_json::Value;

use super::ddl::Builder;
use super::{bad, Schema};
use crate::error::Result;

/// Builds a schema from the text of a JSON array of DDL strings; foreign keys may reference tables
/// of any element. Errors name the element (1-based) and, inside it, the statement.
///
/// ```
/// let s = sqlsim::schema::bird::from_json_text(
///     r#"["CREATE TABLE a (id INTEGER PRIMARY KEY)", "CREATE TABLE b (a_id REFERENCES a)"]"#,
/// ).unwrap();
/// assert_eq!(s.foreign_keys, vec![(1, 0)]);
/// ```
pub fn from_json_text(text: &str) -> Result<Schema> {
    let v: Value = serde_json::from_str(text).map_err(|e| {
        bad(format!(
            "is not valid JSON (a BIRD-style array of DDL strings): {e}"
        ))
    })?;
    let items = v
        .as_array()
        .ok_or_else(|| bad("is not a JSON array of DDL strings"))?;
    let mut b = Builder::default();
    for (i, item) in items.iter().enumerate() {
        let ddl = item.as_str().ok_or_else(|| {
            bad(format!(
                "element {} of the JSON array is not a string; expected DDL strings (BIRD style)",
                i + 1
            ))
        })?;
        b.add_text(ddl, &format!("element {} of the JSON array: ", i + 1))?;
    }
    b.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_are_read_together() {
        let s = from_json_text(
            r#"["CREATE TABLE b (x INT, a_id INT, FOREIGN KEY (a_id) REFERENCES a (id))",
                "CREATE TABLE a (id INTEGER NOT NULL PRIMARY KEY); CREATE INDEX i ON a (id)"]"#,
        )
        .unwrap();
        assert_eq!(s.tables.len(), 2);
        assert_eq!(s.tables[0].foreign_keys[0].referenced_table, 1);
        assert_eq!(
            s,
            super::super::ddl::from_ddl(
                "CREATE TABLE b (x INT, a_id INT, FOREIGN KEY (a_id) REFERENCES a (id)); \
             CREATE TABLE a (id INTEGER NOT NULL PRIMARY KEY)"
            )
            .unwrap()
        );
    }

    #[test]
    fn errors_name_the_element() {
        for (text, needle) in [
            ("[]", "no CREATE TABLE"),
            (
                "[\"CREATE TABLE a (x)\", 3]",
                "element 2 of the JSON array is not a string",
            ),
            (
                "[\"CREATE TABLE a (x)\", \"CREATE TABLE b (y); DELETE FROM b\"]",
                "element 2 of the JSON array: statement 2 (DELETE FROM b) is not DDL",
            ),
            ("[\"CREATE TABLE a (x)\",", "not valid JSON"),
        ] {
            let e = from_json_text(text).unwrap_err().to_string();
            assert!(e.contains(needle), "{text}: {e}");
        }
    }
}
