//! Spider tables.json: one entry (a JSON object) to a [`Schema`], and a whole file to (db_id, entry text) rows.

use serde_json::Value;

use super::{Column, Schema, Table};
use crate::error::{Error, Result};

fn bad(message: impl Into<String>) -> Error {
    Error::Argument {
        function: "schema",
        argument: "schema",
        message: message.into(),
    }
}

/// Parses the text of one tables.json entry.
pub(super) fn from_entry_text(text: &str) -> Result<Schema> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| bad(format!("is not valid JSON: {e}")))?;
    from_entry(&v)
}

fn str_list(v: &Value, key: &str) -> Result<Vec<String>> {
    let arr = v.get(key).and_then(Value::as_array).ok_or_else(|| {
        bad(format!(
            "has no '{key}' array (not a Spider tables.json entry)"
        ))
    })?;
    arr.iter()
        .map(|x| {
            x.as_str()
                .map(str::to_string)
                .ok_or_else(|| bad(format!("'{key}' holds a non-string")))
        })
        .collect()
}

fn index(x: &Value, what: &str) -> Result<i64> {
    x.as_i64()
        .ok_or_else(|| bad(format!("'{what}' holds a non-integer")))
}

/// Builds a [`Schema`] from a parsed tables.json entry (uses the `*_original` names).
pub fn from_entry(v: &Value) -> Result<Schema> {
    if !v.is_object() {
        return Err(bad("is not a JSON object"));
    }
    let db_id = v.get("db_id").and_then(Value::as_str).map(str::to_string);
    let table_names = str_list(v, "table_names_original")?;
    let cols = v
        .get("column_names_original")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("has no 'column_names_original' array"))?;
    let types: Vec<String> = v
        .get("column_types")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|t| t.as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default();

    let mut tables: Vec<Table> = table_names
        .iter()
        .map(|n| Table {
            name: n.clone(),
            norm: n.to_lowercase(),
            columns: Vec::new(),
        })
        .collect();
    let mut columns = Vec::new();
    // ordinal -> index into `columns`
    let mut by_ordinal: Vec<Option<usize>> = Vec::with_capacity(cols.len());
    for (ordinal, c) in cols.iter().enumerate() {
        let pair = c
            .as_array()
            .filter(|p| p.len() == 2)
            .ok_or_else(|| bad("'column_names_original' holds a non-pair"))?;
        let t = index(&pair[0], "column_names_original")?;
        let name = pair[1]
            .as_str()
            .ok_or_else(|| bad("'column_names_original' holds a non-string name"))?;
        if t < 0 {
            by_ordinal.push(None);
            continue;
        }
        let t = t as usize;
        let table = tables.get_mut(t).ok_or_else(|| {
            bad(format!(
                "column '{name}' names table {t}, which does not exist"
            ))
        })?;
        table.columns.push(columns.len());
        by_ordinal.push(Some(columns.len()));
        columns.push(Column {
            table: t,
            name: name.to_string(),
            norm: name.to_lowercase(),
            ty: types.get(ordinal).cloned().unwrap_or_default(),
            ordinal,
        });
    }
    let resolve = |x: &Value, what: &str| -> Result<usize> {
        let i = index(x, what)?;
        usize::try_from(i)
            .ok()
            .and_then(|i| by_ordinal.get(i).copied().flatten())
            .ok_or_else(|| {
                bad(format!(
                    "'{what}' refers to column {i}, which does not exist"
                ))
            })
    };
    let mut primary_keys = Vec::new();
    if let Some(pks) = v.get("primary_keys").and_then(Value::as_array) {
        for pk in pks {
            // Some datasets write composite keys as nested lists.
            match pk.as_array() {
                Some(list) => {
                    for x in list {
                        primary_keys.push(resolve(x, "primary_keys")?);
                    }
                }
                None => primary_keys.push(resolve(pk, "primary_keys")?),
            }
        }
    }
    let mut foreign_keys = Vec::new();
    if let Some(fks) = v.get("foreign_keys").and_then(Value::as_array) {
        for fk in fks {
            let pair = fk
                .as_array()
                .filter(|p| p.len() == 2)
                .ok_or_else(|| bad("'foreign_keys' holds a non-pair"))?;
            foreign_keys.push((
                resolve(&pair[0], "foreign_keys")?,
                resolve(&pair[1], "foreign_keys")?,
            ));
        }
    }
    Ok(Schema {
        db_id,
        tables,
        columns,
        primary_keys,
        foreign_keys,
    })
}

/// Splits the text of a whole tables.json file into (db_id, entry as compact JSON text) rows.
pub fn load_tables_text(text: &str) -> Result<Vec<(String, String)>> {
    let v: Value = serde_json::from_str(text).map_err(|e| Error::Argument {
        function: "spider_schemas",
        argument: "path",
        message: format!("is not a valid tables.json file: {e}"),
    })?;
    let arr = v.as_array().ok_or_else(|| Error::Argument {
        function: "spider_schemas",
        argument: "path",
        message: "does not hold a JSON array of tables.json entries".into(),
    })?;
    let mut out = Vec::with_capacity(arr.len());
    for (i, e) in arr.iter().enumerate() {
        let db_id = e
            .get("db_id")
            .and_then(Value::as_str)
            .ok_or_else(|| Error::Argument {
                function: "spider_schemas",
                argument: "path",
                message: format!("entry {i} has no 'db_id'"),
            })?;
        let text = serde_json::to_string(e).map_err(|e| Error::Internal(e.to_string()))?;
        out.push((db_id.to_string(), text));
    }
    Ok(out)
}

/// Reads a tables.json file into (db_id, entry text) rows, for the `spider_schemas(path)` table function.
pub fn load_tables_file(path: &str) -> Result<Vec<(String, String)>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::Argument {
        function: "spider_schemas",
        argument: "path",
        message: format!("cannot be read ({path}): {e}"),
    })?;
    load_tables_text(&text)
}

#[cfg(test)]
mod tests {
    use super::super::Schema;

    const ENTRY: &str = r#"{"db_id":"d","table_names_original":["Singer","Song"],
        "table_names":["singer","song"],
        "column_names_original":[[-1,"*"],[0,"Singer_ID"],[0,"Name"],[1,"Song_ID"],[1,"Singer_ID"]],
        "column_types":["text","number","text","number","number"],
        "primary_keys":[1,3],"foreign_keys":[[4,1]]}"#;

    #[test]
    fn entry_round_trip() {
        let s = Schema::from_argument(ENTRY).unwrap();
        assert_eq!(s.db_id.as_deref(), Some("d"));
        assert_eq!(s.tables.len(), 2);
        assert_eq!(s.columns.len(), 4);
        assert_eq!(s.tables[1].norm, "song");
        assert_eq!(s.columns[3].ordinal, 4);
        assert_eq!(s.foreign_keys, vec![(3, 0)]);
        assert_eq!(s.primary_keys, vec![0, 2]);
        assert_eq!(s.table_index("SONG"), Some(1));
    }

    #[test]
    fn file_rows() {
        let rows = super::load_tables_text(&format!("[{ENTRY}]")).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].0, "d");
        assert!(Schema::from_argument(&rows[0].1).is_ok());
        assert!(super::load_tables_text("{}").is_err());
    }
}
