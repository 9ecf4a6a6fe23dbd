//! DDL text → [`Schema`]: `CREATE TABLE` statements parsed with sqlparser (SQLite dialect, the
//! generic one as a fallback), with their columns, declared types and constraints.
//!
//! What is read, per `CREATE [TEMP] TABLE [IF NOT EXISTS] name (...)`:
//!
//! - names with any quoting (`"a b"`, `` `a b` ``, `[a b]`): `name` keeps the spelling, `norm` is lower case;
//!   a schema-qualified name (`main.t`) keeps its last part;
//! - the declared type as written (`TEXT`, `real`, `varchar(20)`, none);
//! - column constraints `PRIMARY KEY`, `NOT NULL`, `UNIQUE`, `REFERENCES t [(c, ...)]`, and table
//!   constraints `PRIMARY KEY (a, b)`, `UNIQUE (a, b)`, `FOREIGN KEY (a, b) REFERENCES t [(c, d)]`;
//!   `DEFAULT`, `CHECK`, `COLLATE`, `AUTOINCREMENT`, `ON DELETE ...` are accepted and not kept;
//! - `WITHOUT ROWID` (its primary key columns are NOT NULL, as in SQLite).
//!
//! Foreign keys are resolved once every table is read, so they may name tables declared later. A
//! foreign key is kept only when its referenced table exists, its referenced columns exist (a
//! missing column list means the referenced table's primary key) and both lists have the same
//! length; otherwise it is dropped, as SQLite itself only complains when the key is used.
//!
//! Statements other than `CREATE TABLE` that belong in a schema or a schema dump are ignored
//! (`CREATE INDEX/VIEW/TRIGGER/VIRTUAL TABLE`, `DROP`, `ALTER`, `PRAGMA`, transactions, `INSERT`,
//! `REPLACE`), as are empty statements and comments. Errors, each naming the statement: a
//! statement that is not DDL (a query, garbage), a `CREATE TABLE` that does not parse,
//! `CREATE TABLE ... AS SELECT`, a table declared twice without `IF NOT EXISTS`, a repeated
//! column, two primary keys, a key naming a column the table lacks, and text with no
//! `CREATE TABLE` at all.

mod error;
mod split;

pub use error::DdlError;

use std::collections::HashSet;

use sqlparser::ast::{
    ColumnOption, CreateTable, Expr, ForeignKeyConstraint, Ident, IndexColumn, ObjectName,
    Statement, TableConstraint,
};
use sqlparser::dialect::{Dialect, GenericDialect, SQLiteDialect};
use sqlparser::parser::Parser;
use sqlparser::tokenizer::Token;

use super::{bad, ForeignKey, Schema};
use crate::error::Result;
use split::{Kind, Lines};

/// Builds a schema from DDL text: one or more statements separated by `;`.
///
/// ```
/// let s = sqlsim::schema::ddl::from_ddl(
///     "CREATE TABLE a (id INTEGER PRIMARY KEY); CREATE TABLE b (x INT REFERENCES a, y TEXT NOT NULL)",
/// ).unwrap();
/// assert_eq!(s.foreign_keys, vec![(1, 0)]);
/// assert!(s.columns[2].not_null);
/// ```
pub fn from_ddl(text: &str) -> Result<Schema> {
    let mut b = Builder::default();
    b.add_text(text, "")?;
    b.finish()
}

/// A foreign key as written, resolved when every table is known.
struct PendingFk {
    table: usize,
    columns: Vec<usize>,
    referenced_table: String,
    referenced_columns: Vec<String>,
}

/// Collects tables over one or more DDL texts (BIRD arrays hold one text per element).
#[derive(Default)]
pub(super) struct Builder {
    schema: Schema,
    pending: Vec<PendingFk>,
}

/// The first characters of a statement, on one line, for error messages.
fn snippet(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(60) {
        Some((i, _)) => format!("{}...", &one_line[..i]),
        None => one_line,
    }
}

fn parse_with(dialect: &dyn Dialect, text: &str) -> std::result::Result<Statement, DdlError> {
    crate::parse::check_operator_chains(text).map_err(|e| DdlError::Syntax(e.to_string()))?;
    let mut parser = Parser::new(dialect)
        .with_recursion_limit(crate::parse::RECURSION_LIMIT)
        .try_with_sql(text)
        .map_err(|e| DdlError::Syntax(e.to_string()))?;
    let statement = parser
        .parse_statement()
        .map_err(|e| DdlError::Syntax(e.to_string()))?;
    match parser.peek_token().token {
        Token::EOF | Token::SemiColon => Ok(statement),
        t => Err(DdlError::Syntax(format!(
            "unexpected '{t}' after the statement"
        ))),
    }
}

/// Parses one `CREATE TABLE` statement: SQLite dialect, then the generic one.
fn parse_create(text: &str) -> std::result::Result<CreateTable, DdlError> {
    let statement = parse_with(&SQLiteDialect {}, text)
        .or_else(|first| parse_with(&GenericDialect {}, text).map_err(|_| first))?;
    match statement {
        Statement::CreateTable(ct) => Ok(ct),
        other => Err(DdlError::Unsupported(format!(
            "is not a CREATE TABLE statement ({})",
            snippet(&other.to_string())
        ))),
    }
}

/// The keys one CREATE TABLE declares, as column indexes, gathered before they are recorded.
struct Keys<'n, 'c> {
    /// The table's name as written (for error messages).
    table: &'n str,
    primary: Option<Vec<usize>>,
    uniques: Vec<Vec<usize>>,
    fks: Vec<(Vec<usize>, &'c ForeignKeyConstraint)>,
}

impl Keys<'_, '_> {
    fn set_primary(&mut self, cols: Vec<usize>) -> std::result::Result<(), DdlError> {
        match self.primary.replace(cols) {
            None => Ok(()),
            Some(_) => Err(DdlError::Invalid(format!(
                "table '{}' has more than one primary key",
                self.table
            ))),
        }
    }
}

fn last_ident(name: &ObjectName) -> Option<&Ident> {
    name.0.last().and_then(|p| p.as_ident())
}

/// The column named by a key's index column (`a`, `t.a`, `a DESC`); `None` for an expression.
fn index_column_name(c: &IndexColumn) -> Option<&str> {
    match &c.column.expr {
        Expr::Identifier(id) => Some(&id.value),
        Expr::CompoundIdentifier(ids) => ids.last().map(|i| i.value.as_str()),
        _ => None,
    }
}

impl Builder {
    /// Adds the tables of one DDL text; `context` prefixes error messages (e.g. "element 2 of the
    /// JSON array: ").
    pub(super) fn add_text(&mut self, text: &str, context: &str) -> Result<()> {
        let pieces =
            split::split(text).map_err(|e| bad(format!("{context}does not tokenize: {e}")))?;
        for piece in pieces {
            let what = format!(
                "{context}statement {} ({})",
                piece.number,
                snippet(piece.text)
            );
            match piece.kind {
                Kind::Ignored => {}
                Kind::NotDdl => {
                    return Err(bad(format!(
                        "{what} is not DDL: expected CREATE TABLE statements"
                    )))
                }
                Kind::CreateTable => {
                    let ct = parse_create(piece.text)
                        .map_err(|e| bad(format!("{what} does not parse: {e}")))?;
                    self.add_table(&ct, piece.text)
                        .map_err(|e| bad(format!("{what}: {e}")))?;
                }
            }
        }
        Ok(())
    }

    fn add_table(&mut self, ct: &CreateTable, text: &str) -> std::result::Result<(), DdlError> {
        let Some(name) = self.new_table_name(ct)? else {
            return Ok(());
        };
        let t = self.schema.push_table(&name.value);
        let mut keys = Keys {
            table: &name.value,
            primary: None,
            uniques: Vec::new(),
            fks: Vec::new(),
        };
        self.add_columns(t, ct, text, &mut keys)?;
        self.add_table_constraints(t, ct, &mut keys)?;
        self.record_keys(t, ct.without_rowid, keys);
        Ok(())
    }

    /// The name of the table `ct` declares; None when it exists already and `IF NOT EXISTS`
    /// says to skip it.
    fn new_table_name<'c>(
        &self,
        ct: &'c CreateTable,
    ) -> std::result::Result<Option<&'c Ident>, DdlError> {
        let name = last_ident(&ct.name)
            .ok_or_else(|| DdlError::Unsupported("the table name is not an identifier".into()))?;
        if ct.query.is_some() || ct.like.is_some() || ct.clone.is_some() {
            return Err(DdlError::Unsupported(
                "CREATE TABLE ... AS/LIKE/CLONE is not supported; declare the columns".into(),
            ));
        }
        if self.schema.table_index(&name.value).is_some() {
            if ct.if_not_exists {
                return Ok(None);
            }
            return Err(DdlError::Invalid(format!(
                "table '{}' is declared twice",
                name.value
            )));
        }
        Ok(Some(name))
    }

    /// The columns of table `t` with their declared types (as written in `text`), and the keys
    /// their column constraints declare.
    fn add_columns<'c>(
        &mut self,
        t: usize,
        ct: &'c CreateTable,
        text: &str,
        keys: &mut Keys<'_, 'c>,
    ) -> std::result::Result<(), DdlError> {
        let tokens = split::tokenize(text).unwrap_or_default();
        let token_index = split::token_index(&tokens);
        let lines = Lines::new(text);
        let mut seen = HashSet::new();
        for def in &ct.columns {
            if !seen.insert(def.name.value.to_lowercase()) {
                return Err(DdlError::Invalid(format!(
                    "column '{}' is declared twice",
                    def.name.value
                )));
            }
            let ty = split::column_type(text, &tokens, &token_index, &lines, def.name.span.start)
                .map(str::to_string)
                .unwrap_or_else(|| match def.data_type {
                    sqlparser::ast::DataType::Unspecified => String::new(),
                    ref d => d.to_string(),
                });
            let c = self.schema.push_column(t, &def.name.value, &ty);
            for opt in &def.options {
                match &opt.option {
                    ColumnOption::NotNull => self.schema.columns[c].not_null = true,
                    ColumnOption::PrimaryKey(_) => keys.set_primary(vec![c])?,
                    ColumnOption::Unique(_) => keys.uniques.push(vec![c]),
                    ColumnOption::ForeignKey(fk) => keys.fks.push((vec![c], fk)),
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// The keys of the table constraints `PRIMARY KEY (...)`, `UNIQUE (...)`, `FOREIGN KEY (...)`.
    fn add_table_constraints<'c>(
        &self,
        t: usize,
        ct: &'c CreateTable,
        keys: &mut Keys<'_, 'c>,
    ) -> std::result::Result<(), DdlError> {
        for constraint in &ct.constraints {
            match constraint {
                TableConstraint::PrimaryKey(pk) => {
                    let names = pk.columns.iter().map(index_column_name);
                    let cols = self.key_columns(t, keys.table, names, "PRIMARY KEY")?;
                    keys.set_primary(cols)?;
                }
                TableConstraint::Unique(u) => {
                    let names = u.columns.iter().map(index_column_name);
                    let cols = self.key_columns(t, keys.table, names, "UNIQUE")?;
                    keys.uniques.push(cols);
                }
                TableConstraint::ForeignKey(fk) => {
                    let names = fk.columns.iter().map(|i| Some(i.value.as_str()));
                    let cols = self.key_columns(t, keys.table, names, "FOREIGN KEY")?;
                    keys.fks.push((cols, fk));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The column indexes a table constraint names (None: an expression, which is unsupported).
    fn key_columns<'n>(
        &self,
        t: usize,
        table: &str,
        names: impl Iterator<Item = Option<&'n str>>,
        what: &str,
    ) -> std::result::Result<Vec<usize>, DdlError> {
        names
            .map(|n| {
                let n = n.ok_or_else(|| {
                    DdlError::Unsupported(format!("{what} over an expression is not supported"))
                })?;
                self.schema.column_index(t, n).ok_or_else(|| {
                    DdlError::Invalid(format!(
                        "{what} names column '{n}', which table '{table}' does not have"
                    ))
                })
            })
            .collect()
    }

    /// Records the keys on table `t`: the primary key (NOT NULL for WITHOUT ROWID or an INTEGER
    /// rowid alias), the unique keys other than it, and the foreign keys to resolve at the end.
    fn record_keys(&mut self, t: usize, without_rowid: bool, keys: Keys<'_, '_>) {
        let primary = keys.primary.unwrap_or_default();
        let rowid_alias = match primary.as_slice() {
            [c] => self.schema.columns[*c].ty.eq_ignore_ascii_case("INTEGER"),
            _ => false,
        };
        if without_rowid || rowid_alias {
            for &c in &primary {
                self.schema.columns[c].not_null = true;
            }
        }
        let table = &mut self.schema.tables[t];
        for key in keys.uniques {
            let same_as_pk = {
                let (mut a, mut b) = (key.clone(), primary.clone());
                a.sort_unstable();
                b.sort_unstable();
                a == b
            };
            if !same_as_pk && !table.unique_keys.contains(&key) {
                table.unique_keys.push(key);
            }
        }
        table.primary_key = primary;
        for (columns, fk) in keys.fks {
            let referenced_table = last_ident(&fk.foreign_table)
                .map(|i| i.value.to_lowercase())
                .unwrap_or_default();
            let referenced_columns = fk
                .referred_columns
                .iter()
                .map(|c| c.value.to_lowercase())
                .collect();
            self.pending.push(PendingFk {
                table: t,
                columns,
                referenced_table,
                referenced_columns,
            });
        }
    }

    /// Resolves the foreign keys and derives the flags and flat views.
    pub(super) fn finish(mut self) -> Result<Schema> {
        if self.schema.tables.is_empty() {
            return Err(bad("holds no CREATE TABLE statement"));
        }
        for fk in std::mem::take(&mut self.pending) {
            if let Some(resolved) = self.resolve_fk(&fk) {
                self.schema.tables[fk.table].foreign_keys.push(resolved);
            }
        }
        self.schema.mark_unique_columns();
        self.schema.flatten_keys();
        Ok(self.schema)
    }

    fn resolve_fk(&self, fk: &PendingFk) -> Option<ForeignKey> {
        let to = self.schema.table_index(&fk.referenced_table)?;
        let referenced_columns: Vec<usize> = if fk.referenced_columns.is_empty() {
            self.schema.tables[to].primary_key.clone()
        } else {
            fk.referenced_columns
                .iter()
                .map(|n| self.schema.column_index(to, n))
                .collect::<Option<_>>()?
        };
        (!referenced_columns.is_empty() && referenced_columns.len() == fk.columns.len()).then(
            || ForeignKey {
                columns: fk.columns.clone(),
                referenced_table: to,
                referenced_columns,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Affinity;

    fn schema(text: &str) -> Schema {
        from_ddl(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn error(text: &str) -> String {
        from_ddl(text).unwrap_err().to_string()
    }

    #[test]
    fn columns_types_and_quoting() {
        let s = schema(
            "CREATE TABLE IF NOT EXISTS \"My Table\" (\n  `Academic Year` TEXT null,\n  [School Code] real,\n  \
             plain,\n  d DATE NOT NULL DEFAULT '2020-01-01' CHECK (d > 0)\n)",
        );
        assert_eq!(s.tables.len(), 1);
        assert_eq!(
            (s.tables[0].name.as_str(), s.tables[0].norm.as_str()),
            ("My Table", "my table")
        );
        let cols: Vec<(&str, &str, &str, usize, bool)> = s
            .columns
            .iter()
            .map(|c| {
                (
                    c.name.as_str(),
                    c.norm.as_str(),
                    c.ty.as_str(),
                    c.ordinal,
                    c.not_null,
                )
            })
            .collect();
        assert_eq!(
            cols,
            [
                ("Academic Year", "academic year", "TEXT", 1, false),
                ("School Code", "school code", "real", 2, false),
                ("plain", "plain", "", 3, false),
                ("d", "d", "DATE", 4, true),
            ]
        );
        let aff: Vec<Affinity> = s.columns.iter().map(|c| c.affinity()).collect();
        assert_eq!(
            aff,
            [
                Affinity::Text,
                Affinity::Real,
                Affinity::Blob,
                Affinity::Numeric
            ]
        );
        assert_eq!(s.column_index(0, "SCHOOL CODE"), Some(1));
    }

    #[test]
    fn keys_inline_and_as_table_constraints() {
        let s = schema(
            "CREATE TABLE a (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, code TEXT UNIQUE, x, y, \
               UNIQUE (x, y), UNIQUE (y, x));\n\
             CREATE TABLE b (a_id INT, n INT, PRIMARY KEY (a_id, n), FOREIGN KEY (a_id) REFERENCES a (id));\n\
             CREATE TABLE c (k TEXT PRIMARY KEY, ba, bn, FOREIGN KEY (ba, bn) REFERENCES b ON DELETE CASCADE) WITHOUT ROWID;",
        );
        let (a, b, c) = (&s.tables[0], &s.tables[1], &s.tables[2]);
        assert_eq!(a.primary_key, [0]);
        assert_eq!(a.unique_keys, [vec![1], vec![2, 3], vec![3, 2]]);
        assert_eq!(b.primary_key, [4, 5]);
        assert_eq!(
            b.foreign_keys,
            [ForeignKey {
                columns: vec![4],
                referenced_table: 0,
                referenced_columns: vec![0]
            }]
        );
        // A missing referenced column list means the referenced table's primary key.
        assert_eq!(
            c.foreign_keys,
            [ForeignKey {
                columns: vec![7, 8],
                referenced_table: 1,
                referenced_columns: vec![4, 5]
            }]
        );
        assert_eq!(s.primary_keys, [0, 4, 5, 6]);
        assert_eq!(s.foreign_keys, [(4, 0), (7, 4), (8, 5)]);
        let unique: Vec<&str> = s
            .columns
            .iter()
            .filter(|c| c.unique)
            .map(|c| c.name.as_str())
            .collect();
        assert_eq!(unique, ["id", "code", "k"]);
        // NOT NULL: declared (id); WITHOUT ROWID primary key (k); composite INT key stays nullable.
        let not_null: Vec<&str> = s
            .columns
            .iter()
            .filter(|c| c.not_null)
            .map(|c| c.name.as_str())
            .collect();
        assert_eq!(not_null, ["id", "k"]);
    }

    #[test]
    fn integer_primary_key_is_the_rowid() {
        let s = schema("CREATE TABLE t (id integer primary key)");
        assert!(s.columns[0].not_null && s.columns[0].unique);
        let s = schema("CREATE TABLE t (id int primary key)");
        assert!(!s.columns[0].not_null && s.columns[0].unique);
    }

    #[test]
    fn foreign_keys_forward_self_and_dangling() {
        let s = schema(
            "CREATE TABLE child (id INTEGER PRIMARY KEY, parent REFERENCES parent(pid), boss REFERENCES child, \
               ghost REFERENCES nowhere(x), bad REFERENCES parent(nope), FOREIGN KEY (id, boss) REFERENCES parent);\n\
             CREATE TABLE Parent (pid INTEGER PRIMARY KEY, UNIQUE (pid))",
        );
        let fks: Vec<(Vec<usize>, usize, Vec<usize>)> = s.tables[0]
            .foreign_keys
            .iter()
            .map(|f| {
                (
                    f.columns.clone(),
                    f.referenced_table,
                    f.referenced_columns.clone(),
                )
            })
            .collect();
        // Forward reference kept, self reference kept, unknown table/column and arity mismatch dropped.
        assert_eq!(fks, [(vec![1], 1, vec![5]), (vec![2], 0, vec![0])]);
        assert!(
            s.tables[1].unique_keys.is_empty(),
            "UNIQUE equal to the primary key is not repeated"
        );
    }

    #[test]
    fn ignores_other_statements() {
        let s = schema(
            "PRAGMA foreign_keys = ON; BEGIN TRANSACTION;\n-- comment\n;;\n\
             CREATE TABLE t (a);\nCREATE INDEX i ON t (a);\nCREATE VIEW v AS SELECT a FROM t;\n\
             INSERT INTO t VALUES (1);\nCREATE TABLE IF NOT EXISTS t (b);\nCOMMIT;",
        );
        assert_eq!(s.tables.len(), 1);
        assert_eq!(s.columns.len(), 1);
    }

    #[test]
    fn errors_say_which_statement_and_why() {
        let e = error("CREATE TABLE a (x); SELECT * FROM a");
        assert!(
            e.contains("statement 2 (SELECT * FROM a) is not DDL"),
            "{e}"
        );
        let e = error("CREATE TABLE a (x,, y)");
        assert!(
            e.contains("statement 1 (CREATE TABLE a (x,, y)) does not parse"),
            "{e}"
        );
        for (text, needle) in [
            ("", "no CREATE TABLE"),
            ("-- nothing", "no CREATE TABLE"),
            ("CREATE INDEX i ON t (a)", "no CREATE TABLE"),
            ("CREATE TABLE a (x); CREATE TABLE A (y)", "declared twice"),
            ("CREATE TABLE a (x, X)", "column 'X' is declared twice"),
            (
                "CREATE TABLE a (x PRIMARY KEY, PRIMARY KEY (x))",
                "more than one primary key",
            ),
            ("CREATE TABLE a (x, PRIMARY KEY (y))", "names column 'y'"),
            (
                "CREATE TABLE a (x, FOREIGN KEY (z) REFERENCES b)",
                "names column 'z'",
            ),
            ("CREATE TABLE a AS SELECT 1 AS x", "AS/LIKE"),
            ("hello world", "not DDL"),
            ("CREATE TABLE a (x TEXT DEFAULT 'unterminated)", "tokenize"),
        ] {
            let e = error(text);
            assert!(e.contains(needle), "{text}: {e}");
            assert!(e.starts_with("schema(): argument 'schema' "), "{e}");
        }
    }
}
