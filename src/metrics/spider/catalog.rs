//! Name resolution for the Spider parser: process_sql.py's `Schema.idMap` (`__table.column__` keys,
//! case-insensitive) and evaluation.py's `build_foreign_key_map`, with interned ids instead of strings.
//!
//! Two resolvers: [`Catalog`] answers from a schema (the official behaviour); [`OpenCatalog`] answers
//! from the query alone when no schema is given (any identifier in table position is a table, a
//! qualified column belongs to its table, an unqualified one to the first FROM table that already has it,
//! else to the first FROM table; no foreign keys).

use std::collections::{BTreeSet, HashMap};

use crate::schema::Schema;

/// What the parser needs to resolve names.
pub trait Resolver {
    /// True when `name` (lower-case) is a table of the schema (used for the alias checks).
    fn is_schema_table(&self, name: &str) -> bool;
    /// The id of table `name`, as `idMap[name]`.
    fn table_id(&mut self, name: &str) -> Option<u32>;
    /// The id of `table.col`, as `idMap["table.col"]`.
    fn qualified(&mut self, table: &str, col: &str) -> Option<u32>;
    /// The first of `tables` (FROM order) having column `col`, as process_sql's `parse_col`.
    fn unqualified(&mut self, tables: &[String], col: &str) -> Option<u32>;
    /// In the open (schema-less) mode any plain identifier in table position names a table.
    fn open(&self) -> bool {
        false
    }
}

/// Interned tables and `table.column` keys shared by gold and prediction.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    tables: HashMap<String, u32>,
    /// table id -> lower-case column names in schema order (`Schema.schema[table]`)
    table_cols: Vec<Vec<String>>,
    cols: HashMap<String, u32>,
    /// column id -> table id (the prefix of its `__t.c__` key)
    col_table: Vec<u32>,
    /// column id -> evaluation.py's group-by key: `"__t.c__".split(".")[1]`
    col_group_key: Vec<String>,
    /// `build_foreign_key_map`: column id -> representative column id
    fk: HashMap<u32, u32>,
}

impl Catalog {
    /// The catalog of a schema, with its foreign-key map.
    pub fn from_schema(schema: &Schema) -> Catalog {
        let mut c = Catalog::default();
        for t in &schema.tables {
            let tid = c.intern_table(&t.norm);
            let names: Vec<String> = t
                .columns
                .iter()
                .filter_map(|&i| schema.columns.get(i))
                .map(|col| col.norm.clone())
                .collect();
            for n in &names {
                c.intern_col(&t.norm, n, tid);
            }
            // A repeated (case-folded) table name overwrites the column list, as a Python dict does.
            c.table_cols[tid as usize] = names;
        }
        c.fk = c.foreign_key_map(schema);
        c
    }

    fn intern_table(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.tables.get(name) {
            return id;
        }
        let id = self.table_cols.len() as u32;
        self.tables.insert(name.to_string(), id);
        self.table_cols.push(Vec::new());
        id
    }

    fn intern_col(&mut self, table: &str, col: &str, tid: u32) -> u32 {
        let key = format!("{table}.{col}");
        if let Some(&id) = self.cols.get(&key) {
            return id;
        }
        let id = self.col_table.len() as u32;
        let full = format!("__{key}__");
        let group = full.split('.').nth(1).unwrap_or("").to_string();
        self.cols.insert(key, id);
        self.col_table.push(tid);
        self.col_group_key.push(group);
        id
    }

    /// evaluation.py `build_foreign_key_map`: key sets grown by first match (not a full union-find),
    /// each member mapped to the set's smallest column index.
    fn foreign_key_map(&mut self, schema: &Schema) -> HashMap<u32, u32> {
        let mut sets: Vec<BTreeSet<usize>> = Vec::new();
        for &(a, b) in &schema.foreign_keys {
            let (Some(ca), Some(cb)) = (schema.columns.get(a), schema.columns.get(b)) else {
                continue;
            };
            let (k1, k2) = (ca.ordinal, cb.ordinal);
            let pos = sets.iter().position(|s| s.contains(&k1) || s.contains(&k2));
            let set = match pos {
                Some(p) => &mut sets[p],
                None => {
                    sets.push(BTreeSet::new());
                    let last = sets.len() - 1;
                    &mut sets[last]
                }
            };
            set.insert(k1);
            set.insert(k2);
        }
        let by_ordinal: HashMap<usize, usize> = schema
            .columns
            .iter()
            .enumerate()
            .map(|(i, c)| (c.ordinal, i))
            .collect();
        let mut id_of = |ordinal: usize| -> Option<u32> {
            let col = schema.columns.get(*by_ordinal.get(&ordinal)?)?;
            let t = schema.tables.get(col.table)?;
            let tid = self.intern_table(&t.norm);
            Some(self.intern_col(&t.norm, &col.norm, tid))
        };
        let mut map = HashMap::new();
        for set in &sets {
            let Some(&first) = set.iter().next() else {
                continue;
            };
            let Some(rep) = id_of(first) else { continue };
            for &k in set {
                if let Some(id) = id_of(k) {
                    map.insert(id, rep);
                }
            }
        }
        map
    }

    /// The table id a column key belongs to.
    pub fn col_table(&self, col: u32) -> Option<u32> {
        self.col_table.get(col as usize).copied()
    }

    /// evaluation.py's group-by comparison key of a column.
    pub fn group_key(&self, col: u32) -> &str {
        self.col_group_key
            .get(col as usize)
            .map(String::as_str)
            .unwrap_or("")
    }

    /// The foreign-key representative of a column, when it has one.
    pub fn fk(&self, col: u32) -> Option<u32> {
        self.fk.get(&col).copied()
    }
}

impl Catalog {
    /// True when `name` is a table of the schema.
    pub fn is_schema_table(&self, name: &str) -> bool {
        self.tables.contains_key(name)
    }
    /// `idMap[name]` for a table.
    pub fn table_id_ref(&self, name: &str) -> Option<u32> {
        self.tables.get(name).copied()
    }
    /// `idMap["table.col"]`.
    pub fn qualified_ref(&self, table: &str, col: &str) -> Option<u32> {
        self.cols.get(&format!("{table}.{col}")).copied()
    }
    /// The first of `tables` having `col` (process_sql `parse_col`).
    pub fn unqualified_ref(&self, tables: &[String], col: &str) -> Option<u32> {
        for t in tables {
            let tid = *self.tables.get(t.as_str())?;
            if self.table_cols[tid as usize].iter().any(|c| c == col) {
                return self.cols.get(&format!("{t}.{col}")).copied();
            }
        }
        None
    }
}

impl Resolver for Catalog {
    fn is_schema_table(&self, name: &str) -> bool {
        Catalog::is_schema_table(self, name)
    }
    fn table_id(&mut self, name: &str) -> Option<u32> {
        self.table_id_ref(name)
    }
    fn qualified(&mut self, table: &str, col: &str) -> Option<u32> {
        self.qualified_ref(table, col)
    }
    fn unqualified(&mut self, tables: &[String], col: &str) -> Option<u32> {
        self.unqualified_ref(tables, col)
    }
}

/// Schema-less resolution: names are created as the queries mention them (gold first, then prediction).
#[derive(Debug, Clone, Default)]
pub struct OpenCatalog {
    pub inner: Catalog,
}

/// Words that are never names in the open mode (so junk still fails to parse).
fn reserved(w: &str) -> bool {
    super::keywords::is_keyword(w) || matches!(w, "max" | "min" | "count" | "sum" | "avg" | "none")
}

fn identifier(w: &str) -> bool {
    !w.is_empty()
        && !reserved(w)
        && w.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        && !w.chars().next().is_some_and(|c| c.is_ascii_digit())
}

impl Resolver for OpenCatalog {
    fn is_schema_table(&self, _name: &str) -> bool {
        false
    }
    fn table_id(&mut self, name: &str) -> Option<u32> {
        if !identifier(name) {
            return None;
        }
        Some(self.inner.intern_table(name))
    }
    fn qualified(&mut self, table: &str, col: &str) -> Option<u32> {
        if !identifier(col) && col != "*" {
            return None;
        }
        let tid = self.table_id(table)?;
        let id = self.inner.intern_col(table, col, tid);
        let cols = &mut self.inner.table_cols[tid as usize];
        if !cols.iter().any(|c| c == col) {
            cols.push(col.to_string());
        }
        Some(id)
    }
    fn unqualified(&mut self, tables: &[String], col: &str) -> Option<u32> {
        if !identifier(col) {
            return None;
        }
        if let Some(id) = self.inner.unqualified_ref(tables, col) {
            return Some(id);
        }
        let first = tables.first()?.clone();
        self.qualified(&first, col)
    }
    fn open(&self) -> bool {
        true
    }
}
