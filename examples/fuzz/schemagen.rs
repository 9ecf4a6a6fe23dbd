//! Schema generation in the three forms a `schema` argument accepts (DDL text, a Spider
//! tables.json entry object, a JSON array of DDL strings), plus structural JSON mutations
//! (missing keys, wrong types, out-of-range indices) and the vocabulary queries are drawn from.

use crate::sqlgen::Vocabulary;
use proptest::prelude::RngExt;
use proptest::test_runner::TestRng;
use serde_json::{json, Value as Json};

/// A generated schema: tables, columns with types and constraints, keys.
#[derive(Debug, Clone)]
pub struct GenSchema {
    pub tables: Vec<GenTable>,
}

#[derive(Debug, Clone)]
pub struct GenTable {
    pub name: String,
    pub columns: Vec<GenColumn>,
    /// Column indices of the primary key (empty: none).
    pub primary_key: Vec<usize>,
    /// (column index, referenced table index, referenced column index).
    pub foreign_keys: Vec<(usize, usize, usize)>,
}

#[derive(Debug, Clone)]
pub struct GenColumn {
    pub name: String,
    pub ty: &'static str,
    pub not_null: bool,
    pub unique: bool,
}

const COLUMN_TYPES: &[&str] = &[
    "INTEGER",
    "int",
    "TEXT",
    "text",
    "REAL",
    "NUMERIC",
    "VARCHAR(255)",
    "bool",
    "DATE",
    "",
];
const SPIDER_TYPES: &[&str] = &["number", "text", "time", "boolean", "others"];
const ODD_NAMES: &[&str] = &[
    "Academic Year",
    "ünï",
    "表",
    "x\"y",
    "select",
    "a.b",
    "",
    "order",
];

/// The form a schema argument takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemaForm {
    Ddl,
    SpiderJson,
    BirdJson,
}

impl GenSchema {
    /// A random schema of 1..=`max_tables` tables; `odd` allows quoting-hostile names.
    pub fn generate(rng: &mut TestRng, max_tables: usize, odd: bool) -> GenSchema {
        let n = 1 + rng.random_range(0..max_tables.max(1));
        let mut tables = Vec::with_capacity(n);
        for t in 0..n {
            let name = if odd && rng.random_bool(0.2) {
                ODD_NAMES[rng.random_range(0..ODD_NAMES.len())].to_string()
            } else {
                format!("t{t}")
            };
            let ncols = 1 + rng.random_range(0..4);
            let columns: Vec<GenColumn> = (0..ncols)
                .map(|c| GenColumn {
                    name: if odd && rng.random_bool(0.1) {
                        ODD_NAMES[rng.random_range(0..ODD_NAMES.len())].to_string()
                    } else {
                        ["id", "a", "b", "name", "val"][c.min(4)].to_string()
                    },
                    ty: COLUMN_TYPES[rng.random_range(0..COLUMN_TYPES.len())],
                    not_null: rng.random_bool(0.2),
                    unique: rng.random_bool(0.1),
                })
                .collect();
            let primary_key = match rng.random_range(0..5) {
                0 => vec![],
                1 if ncols > 1 => vec![0, 1],
                _ => vec![0],
            };
            let mut foreign_keys = Vec::new();
            if t > 0 && rng.random_bool(0.5) {
                let target = rng.random_range(0..t);
                let col = rng.random_range(0..ncols);
                foreign_keys.push((col, target, 0));
            }
            if odd && rng.random_bool(0.05) {
                // a key into a table or column that does not exist
                foreign_keys.push((0, n + 3, 7));
            }
            tables.push(GenTable {
                name,
                columns,
                primary_key,
                foreign_keys,
            });
        }
        GenSchema { tables }
    }

    /// Table and column names for the query generator.
    pub fn vocabulary(&self) -> Vocabulary {
        Vocabulary {
            tables: self
                .tables
                .iter()
                .map(|t| {
                    (
                        t.name.clone(),
                        t.columns.iter().map(|c| c.name.clone()).collect(),
                    )
                })
                .collect(),
        }
    }

    /// The schema in `form`.
    pub fn render(&self, form: SchemaForm, rng: &mut TestRng) -> String {
        match form {
            SchemaForm::Ddl => {
                let stmts: Vec<String> = (0..self.tables.len())
                    .map(|t| self.table_ddl(t, rng))
                    .collect();
                let mut out = String::new();
                if rng.random_bool(0.2) {
                    out.push_str("PRAGMA foreign_keys = ON;\n");
                }
                out.push_str(&stmts.join(";\n"));
                if rng.random_bool(0.5) {
                    out.push(';');
                }
                if rng.random_bool(0.1) {
                    out.push_str("\nINSERT INTO t0 VALUES (1, 'x');");
                }
                out
            }
            SchemaForm::BirdJson => {
                let stmts: Vec<Json> = (0..self.tables.len())
                    .map(|t| Json::String(self.table_ddl(t, rng)))
                    .collect();
                Json::Array(stmts).to_string()
            }
            SchemaForm::SpiderJson => self.spider_entry(rng).to_string(),
        }
    }

    fn quote(name: &str, rng: &mut TestRng) -> String {
        let plain =
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        match rng.random_range(0..4) {
            0 if plain => name.to_string(),
            1 => format!("`{}`", name.replace('`', "``")),
            2 if !name.contains(']') => format!("[{name}]"),
            _ => format!("\"{}\"", name.replace('"', "\"\"")),
        }
    }

    /// `CREATE TABLE` for table `t`, with inline or table-level keys chosen at random.
    fn table_ddl(&self, t: usize, rng: &mut TestRng) -> String {
        let table = &self.tables[t];
        let inline_pk = table.primary_key.len() == 1 && rng.random_bool(0.5);
        let mut parts = Vec::new();
        for (i, c) in table.columns.iter().enumerate() {
            let mut col = format!("{} {}", Self::quote(&c.name, rng), c.ty);
            if inline_pk && table.primary_key == [i] {
                col.push_str(" PRIMARY KEY");
            }
            if c.not_null {
                col.push_str(" NOT NULL");
            }
            if c.unique {
                col.push_str(" UNIQUE");
            }
            parts.push(col);
        }
        if !inline_pk && !table.primary_key.is_empty() {
            let cols: Vec<String> = table
                .primary_key
                .iter()
                .filter_map(|&i| table.columns.get(i))
                .map(|c| Self::quote(&c.name, rng))
                .collect();
            parts.push(format!("PRIMARY KEY ({})", cols.join(", ")));
        }
        for &(c, rt, rc) in &table.foreign_keys {
            let col = table
                .columns
                .get(c)
                .map_or("missing".into(), |c| c.name.clone());
            let (rtable, rcol) = match self.tables.get(rt) {
                Some(r) => (
                    r.name.clone(),
                    r.columns.get(rc).map_or("nope".into(), |c| c.name.clone()),
                ),
                None => ("no_table".into(), "no_col".into()),
            };
            parts.push(format!(
                "FOREIGN KEY ({}) REFERENCES {}({})",
                Self::quote(&col, rng),
                Self::quote(&rtable, rng),
                Self::quote(&rcol, rng)
            ));
        }
        let exists = if rng.random_bool(0.3) {
            "IF NOT EXISTS "
        } else {
            ""
        };
        let sep = if rng.random_bool(0.3) { ",\n  " } else { ", " };
        format!(
            "CREATE TABLE {exists}{} ({})",
            Self::quote(&table.name, rng),
            parts.join(sep)
        )
    }

    /// A Spider tables.json entry for this schema.
    fn spider_entry(&self, rng: &mut TestRng) -> Json {
        let mut column_names = vec![json!([-1, "*"])];
        let mut column_types = vec![json!("text")];
        let mut offsets = Vec::new();
        for (t, table) in self.tables.iter().enumerate() {
            offsets.push(column_names.len());
            for c in &table.columns {
                column_names.push(json!([t, c.name]));
                column_types.push(json!(SPIDER_TYPES[rng.random_range(0..SPIDER_TYPES.len())]));
            }
        }
        let global = |t: usize, c: usize| offsets.get(t).map_or(9999, |o| o + c);
        let primary_keys: Vec<Json> = self
            .tables
            .iter()
            .enumerate()
            .filter(|(_, t)| !t.primary_key.is_empty())
            .map(|(ti, t)| {
                if t.primary_key.len() == 1 {
                    json!(global(ti, t.primary_key[0]))
                } else {
                    json!(t
                        .primary_key
                        .iter()
                        .map(|&c| global(ti, c))
                        .collect::<Vec<_>>())
                }
            })
            .collect();
        let foreign_keys: Vec<Json> = self
            .tables
            .iter()
            .enumerate()
            .flat_map(|(ti, t)| {
                t.foreign_keys
                    .iter()
                    .map(|&(c, rt, rc)| json!([global(ti, c), global(rt, rc)]))
                    .collect::<Vec<_>>()
            })
            .collect();
        let names: Vec<String> = self.tables.iter().map(|t| t.name.clone()).collect();
        json!({
            "db_id": "fuzz",
            "table_names": names.iter().map(|n| n.to_lowercase()).collect::<Vec<_>>(),
            "table_names_original": names,
            "column_names": column_names,
            "column_names_original": column_names,
            "column_types": column_types,
            "primary_keys": primary_keys,
            "foreign_keys": foreign_keys,
        })
    }
}

/// A structural mutation of a JSON schema (object or array): drops keys, changes value types,
/// puts indices out of range, nests or empties arrays. Non-JSON text is returned unchanged.
pub fn mutate_json(rng: &mut TestRng, text: &str) -> String {
    let Ok(mut v) = serde_json::from_str::<Json>(text) else {
        return text.to_string();
    };
    let n = 1 + rng.random_range(0..3);
    for _ in 0..n {
        mutate_value(rng, &mut v, 0);
    }
    v.to_string()
}

fn odd_value(rng: &mut TestRng) -> Json {
    match rng.random_range(0..12) {
        0 => Json::Null,
        1 => json!(-1),
        2 => json!(1_000_000_000_000i64),
        3 => json!(u64::MAX),
        4 => json!(1.5),
        5 => json!(""),
        6 => json!("*"),
        7 => json!([]),
        8 => json!({}),
        9 => json!([[0, "x"], [99, "y"]]),
        10 => json!(true),
        _ => json!([0, 1, 2]),
    }
}

fn mutate_value(rng: &mut TestRng, v: &mut Json, depth: usize) {
    let descend = depth < 3 && rng.random_bool(0.7);
    match v {
        Json::Object(map) if !map.is_empty() => {
            let keys: Vec<String> = map.keys().cloned().collect();
            let key = keys[rng.random_range(0..keys.len())].clone();
            match rng.random_range(0..4) {
                0 => {
                    map.remove(&key);
                }
                1 => {
                    map.insert(key, odd_value(rng));
                }
                _ if descend => {
                    if let Some(child) = map.get_mut(&key) {
                        mutate_value(rng, child, depth + 1);
                    }
                }
                _ => {
                    map.insert(format!("{key}_extra"), odd_value(rng));
                }
            }
        }
        Json::Array(items) if !items.is_empty() => {
            let i = rng.random_range(0..items.len());
            match rng.random_range(0..5) {
                0 => {
                    items.remove(i);
                }
                1 => items[i] = odd_value(rng),
                2 => {
                    let dup = items[i].clone();
                    items.push(dup);
                }
                _ if descend => mutate_value(rng, &mut items[i], depth + 1),
                _ => items.clear(),
            }
        }
        Json::Number(_) => *v = odd_value(rng),
        Json::String(s) => {
            let other = s.clone();
            *s = crate::mutate::mutate(rng, &other, "x");
        }
        _ => *v = odd_value(rng),
    }
}

/// Vocabulary of a Spider tables.json entry (original names), for queries over it.
pub fn spider_vocabulary(entry: &str) -> Vocabulary {
    let Ok(v) = serde_json::from_str::<Json>(entry) else {
        return Vocabulary::default();
    };
    let names: Vec<String> = v["table_names_original"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|n| n.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let mut tables: Vec<(String, Vec<String>)> =
        names.into_iter().map(|n| (n, Vec::new())).collect();
    for c in v["column_names_original"].as_array().into_iter().flatten() {
        let (Some(t), Some(name)) = (c[0].as_i64(), c[1].as_str()) else {
            continue;
        };
        if let Some(table) = usize::try_from(t).ok().and_then(|t| tables.get_mut(t)) {
            table.1.push(name.to_string());
        }
    }
    tables.retain(|(_, cols)| !cols.is_empty());
    Vocabulary { tables }
}
