//! Spider tables.json: one entry (a JSON object) to a [`Schema`], and a whole file to (db_id, entry text) rows.

use serde_json::Value;

use super::{ForeignKey, Schema};
use crate::error::{Error, Result};

use super::bad;

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

    let mut schema = Schema {
        db_id,
        ..Schema::default()
    };
    for n in &table_names {
        schema.push_table(n);
    }
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
        let t = usize::try_from(t)
            .ok()
            .filter(|&t| t < schema.tables.len())
            .ok_or_else(|| {
                bad(format!(
                    "column '{name}' names table {t}, which does not exist"
                ))
            })?;
        let ty = types.get(ordinal).map(String::as_str).unwrap_or("");
        let i = schema.push_column(t, name, ty);
        schema.columns[i].ordinal = ordinal;
        by_ordinal.push(Some(i));
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
    if let Some(pks) = v.get("primary_keys").and_then(Value::as_array) {
        for pk in pks {
            // Some datasets write composite keys as nested lists.
            match pk.as_array() {
                Some(list) => {
                    for x in list {
                        schema.primary_keys.push(resolve(x, "primary_keys")?);
                    }
                }
                None => schema.primary_keys.push(resolve(pk, "primary_keys")?),
            }
        }
    }
    if let Some(fks) = v.get("foreign_keys").and_then(Value::as_array) {
        for fk in fks {
            let pair = fk
                .as_array()
                .filter(|p| p.len() == 2)
                .ok_or_else(|| bad("'foreign_keys' holds a non-pair"))?;
            schema.foreign_keys.push((
                resolve(&pair[0], "foreign_keys")?,
                resolve(&pair[1], "foreign_keys")?,
            ));
        }
    }
    group_keys(&mut schema);
    schema.mark_unique_columns();
    Ok(schema)
}

/// Builds the per-table keys from Spider's flat lists (which stay as they are).
///
/// A table's primary-key columns form its one primary key. Foreign-key pairs are single-column
/// foreign keys, except that pairs between the same two tables whose referenced columns together
/// are the referenced table's composite primary key (each once, in any order) form one composite
/// foreign key; an incomplete group falls back to single-column keys.
fn group_keys(schema: &mut Schema) {
    for &c in &schema.primary_keys {
        let t = schema.columns[c].table;
        let pk = &mut schema.tables[t].primary_key;
        if !pk.contains(&c) {
            pk.push(c);
        }
    }
    complete_link_table_keys(schema);
    let mut open: Vec<ForeignKey> = Vec::new();
    let mut done: Vec<(usize, ForeignKey)> = Vec::new();
    let single = |a: usize, b: usize, to: usize| ForeignKey {
        columns: vec![a],
        referenced_table: to,
        referenced_columns: vec![b],
    };
    for &(a, b) in &schema.foreign_keys {
        let (from, to) = (schema.columns[a].table, schema.columns[b].table);
        let pk = &schema.tables[to].primary_key;
        if pk.len() < 2 || !pk.contains(&b) {
            done.push((from, single(a, b, to)));
            continue;
        }
        let slot = open.iter().position(|fk| {
            fk.referenced_table == to
                && schema.columns[fk.columns[0]].table == from
                && !fk.columns.contains(&a)
                && !fk.referenced_columns.contains(&b)
        });
        let i = match slot {
            Some(i) => i,
            None => {
                open.push(ForeignKey {
                    columns: Vec::new(),
                    referenced_table: to,
                    referenced_columns: Vec::new(),
                });
                open.len() - 1
            }
        };
        open[i].columns.push(a);
        open[i].referenced_columns.push(b);
        if open[i].columns.len() == pk.len() {
            done.push((from, open.remove(i)));
        }
    }
    for fk in open {
        let from = schema.columns[fk.columns[0]].table;
        for (&a, &b) in fk.columns.iter().zip(&fk.referenced_columns) {
            done.push((from, single(a, b, fk.referenced_table)));
        }
    }
    for (from, fk) in done {
        schema.tables[from].foreign_keys.push(fk);
    }
}

/// Reads a link table's one listed key column as the composite key it stands for.
///
/// Spider's tables.json lists at most one primary-key column per table (none of its 166
/// databases lists two), so a composite key shows as one of its columns: `singer_in_concert`
/// lists `concert_ID`, whose database declares `PRIMARY KEY (Singer_ID, concert_ID)`. Taken
/// literally, that key allows one singer per concert. Where the one listed column is itself a
/// foreign key and the table has other foreign-key columns (a table linking two others), the key
/// is read as the listed column plus those columns. A key listed with several columns is kept.
fn complete_link_table_keys(schema: &mut Schema) {
    for t in 0..schema.tables.len() {
        let &[key] = schema.tables[t].primary_key.as_slice() else {
            continue;
        };
        let mut referencing: std::collections::BTreeSet<usize> = schema
            .foreign_keys
            .iter()
            .map(|&(from, _)| from)
            .filter(|&from| schema.columns[from].table == t)
            .collect();
        if referencing.remove(&key) {
            schema.tables[t].primary_key.extend(referencing);
        }
    }
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

    #[test]
    fn a_link_tables_listed_key_column_stands_for_the_composite_key() {
        // concert_singer's shape: singer_in_concert lists concert_ID as its key, and links
        // concert and singer; car_1's shape: cars_data's key Id is a foreign key, and nothing else.
        let entry = r#"{"db_id":"d","table_names_original":["concert","singer","singer_in_concert","cars_data"],
            "column_names_original":[[-1,"*"],[0,"concert_ID"],[1,"Singer_ID"],[1,"Name"],
                [2,"concert_ID"],[2,"Singer_ID"],[3,"Id"],[3,"MPG"]],
            "column_types":["text","number","number","text","number","number","number","number"],
            "primary_keys":[1,2,4,6],"foreign_keys":[[4,1],[5,2],[6,1]]}"#;
        let s = Schema::from_argument(entry).unwrap();
        assert_eq!(s.tables[2].primary_key, vec![3, 4]);
        assert!(
            !s.columns[3].unique,
            "concert_ID repeats, one row per singer"
        );
        assert_eq!(
            s.tables[3].primary_key,
            vec![5],
            "a 1:1 table keeps its key"
        );
        assert!(s.columns[5].unique);
        assert_eq!(s.tables[0].primary_key, vec![0]);
        assert_eq!(
            s.primary_keys,
            vec![0, 1, 3, 5],
            "the flat list stays as listed"
        );
        let listed_whole = entry.replace(
            r#""primary_keys":[1,2,4,6]"#,
            r#""primary_keys":[1,2,[5,4],6]"#,
        );
        let s = Schema::from_argument(&listed_whole).unwrap();
        assert_eq!(
            s.tables[2].primary_key,
            vec![4, 3],
            "a key listed whole is kept"
        );
    }
}
