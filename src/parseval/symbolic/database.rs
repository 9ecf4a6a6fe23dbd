//! The symbolic database: a fixed number of candidate tuples per table (existence flag, one Z3 variable and NULL flag per attribute), its integrity constraints, and the concrete database read from a model.

use std::collections::HashMap;

use rusqlite::types::Value;
use z3::ast::{Bool, Int, Real, String as ZString};
use z3::{Model, Solver};

use super::speculative_text::choice;
use super::values::{same_value, Sort, SymRow, SymVal, Term};
use super::z3_text::unescape_z3_text;
use crate::exec::instance::{Database, TableRows};
use crate::schema::{Affinity, Schema};

/// Longest generated text value.
const MAX_TEXT_LEN: i64 = 200;
/// Generated integers stay within ±this bound (readable instances, no overflow in SQLite).
const MAX_INT: i64 = 1_000_000_000;

/// The constants a generated text value is chosen from ([`crate::parseval::search::text_domains`]).
pub struct TextDomains<'a> {
    /// Every modelled text value (the speculative pass); None: any string.
    pub texts: Option<&'a [String]>,
    /// A text column the query computes with as a number (`computed`), in the speculative pass.
    pub numbers: Option<&'a [String]>,
    pub computed: &'a dyn Fn(usize) -> bool,
    /// A `DATE` column's value, always.
    pub dates: &'a [String],
    /// The value of a column that holds dates or date-times under option `plausible_dates`
    /// ([`crate::schema::Column::plausible_dates`]), always.
    pub date_times: &'a [String],
}

/// One table's candidate tuples.
#[derive(Debug, Clone)]
pub struct SymTable {
    /// Index into [`Schema::tables`].
    pub table: usize,
    /// Sort of each column of the table, in declaration order.
    pub sorts: Vec<Sort>,
    /// Whether each column is declared `DATE` ([`crate::schema::Column::holds_dates`]).
    pub dates: Vec<bool>,
    pub rows: Vec<SymRow>,
}

/// Candidate tuples for the tables a query reads.
#[derive(Debug, Clone, Default)]
pub struct SymDb {
    pub tables: Vec<SymTable>,
    /// Whether some text value is speculative (one of a fixed set of texts, see speculative_text.rs).
    pub speculated: bool,
}

/// The sort the solver gives a schema column: Int for INTEGER affinity, Real for REAL, String
/// for TEXT; NUMERIC affinity is Int unless the type names a date or time or the query uses the
/// column as text (`hint`); a column without a type follows the hint, Text by default. An
/// INTEGER or REAL column is text where the hint says so: `column_hints` gives that hint only
/// where the query compares the column with text that is no number, which SQLite stores there
/// unchanged (docs/parseval.md).
pub fn column_sort(schema: &Schema, column: usize, hint: Option<Sort>) -> Sort {
    let Some(col) = schema.columns.get(column) else {
        return Sort::Text;
    };
    let ty = col.ty.to_lowercase();
    match col.affinity() {
        Affinity::Integer | Affinity::Real if hint == Some(Sort::Text) => Sort::Text,
        Affinity::Integer => Sort::Int,
        Affinity::Real => Sort::Real,
        Affinity::Text => Sort::Text,
        Affinity::Numeric
            if hint == Some(Sort::Text) || ty.contains("date") || ty.contains("time") =>
        {
            Sort::Text
        }
        Affinity::Numeric => hint.unwrap_or(Sort::Int),
        _ => hint.unwrap_or(Sort::Text),
    }
}

/// The sorts of the columns of `tables`, both ends of a foreign key sharing one: a TEXT column
/// referencing a number key (Spider's `concert.Stadium_ID` text against `stadium.Stadium_ID`)
/// holds the key's number, which SQLite stores as text and compares equal to the key (a text
/// column meets a numeric one with numeric affinity), never text that matches no row.
fn unified_sorts(
    schema: &Schema,
    tables: &[usize],
    hint: &dyn Fn(usize) -> Option<Sort>,
) -> HashMap<usize, Sort> {
    let mut sorts: HashMap<usize, Sort> = HashMap::new();
    for &t in tables {
        for &c in schema.tables.get(t).map_or(&[][..], |x| &x.columns[..]) {
            sorts.insert(c, column_sort(schema, c, hint(c)));
        }
    }
    // twice: a chain of keys passes a number on
    for _ in 0..2 {
        for &t in tables {
            for fk in schema
                .tables
                .get(t)
                .map_or(&[][..], |x| &x.foreign_keys[..])
            {
                for (c, r) in fk.columns.iter().zip(&fk.referenced_columns) {
                    let (Some(&a), Some(&b)) = (sorts.get(c), sorts.get(r)) else {
                        continue;
                    };
                    match (a, b) {
                        (Sort::Text, n @ (Sort::Int | Sort::Real)) => {
                            sorts.insert(*c, n);
                        }
                        (n @ (Sort::Int | Sort::Real), Sort::Text) => {
                            sorts.insert(*r, n);
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    sorts
}

/// The positions, in `table` and in `referenced`, of each column pair of the foreign key `fk`
/// (pairs naming a column a table lacks are left out).
fn key_positions(
    table: &crate::schema::Table,
    referenced: &crate::schema::Table,
    fk: &crate::schema::ForeignKey,
) -> Vec<(usize, usize)> {
    let pos = |t: &crate::schema::Table, c: usize| t.columns.iter().position(|&x| x == c);
    fk.columns
        .iter()
        .zip(&fk.referenced_columns)
        .filter_map(|(&c, &r)| Some((pos(table, c)?, pos(referenced, r)?)))
        .collect()
}

fn is_key(table: &crate::schema::Table, c: usize) -> bool {
    table.primary_key.contains(&c) || table.unique_keys.iter().any(|k| k.contains(&c))
}

impl SymDb {
    /// `size` candidate tuples for each table in `tables` (indices into the schema);
    /// `hint` tells how the query uses a column (as a number or as text); with `domains.texts`,
    /// every modelled text value is one of those texts instead of any string, and one of
    /// `domains.numbers` in a text column the query computes with; a `DATE` column's value is
    /// always one of `domains.dates` ([`crate::parseval::search::text_domains::date_domain`]).
    pub fn new(
        schema: &Schema,
        tables: &[usize],
        size: usize,
        hint: &dyn Fn(usize) -> Option<Sort>,
        used: &dyn Fn(usize) -> bool,
        domains: TextDomains<'_>,
    ) -> SymDb {
        let mut out = SymDb::default();
        let unified = unified_sorts(schema, tables, hint);
        for &t in tables {
            let Some(table) = schema.tables.get(t) else {
                continue;
            };
            let sorts: Vec<Sort> = table
                .columns
                .iter()
                .map(|&c| {
                    unified
                        .get(&c)
                        .copied()
                        .unwrap_or_else(|| column_sort(schema, c, hint(c)))
                })
                .collect();
            let dates: Vec<bool> = table
                .columns
                .iter()
                .map(|&c| schema.columns.get(c).is_some_and(|col| col.holds_dates()))
                .collect();
            let rows = (0..size)
                .map(|i| SymRow {
                    exists: Bool::new_const(format!("t{t}_r{i}_exists")),
                    vals: table
                        .columns
                        .iter()
                        .zip(sorts.iter().zip(&dates))
                        .map(|(&c, (sort, &date))| {
                            let not_null = schema.columns.get(c).is_some_and(|col| col.not_null)
                                || table.primary_key.contains(&c);
                            if !used(c) {
                                // not read by the query: a fixed value, distinct per row
                                return SymVal {
                                    term: None,
                                    null: Bool::from_bool(!not_null && !is_key(table, c)),
                                };
                            }
                            let name = format!("t{t}_r{i}_c{c}");
                            let term = match sort {
                                Sort::Int => Term::Int(Int::new_const(name.as_str())),
                                Sort::Real => Term::Real(Real::new_const(name.as_str())),
                                Sort::Text => {
                                    let k = Int::new_const(format!("{name}_k"));
                                    // a date is always a choice (the dates are never empty)
                                    let numeric = (domains.computed)(c);
                                    let plausible = schema
                                        .columns
                                        .get(c)
                                        .is_some_and(|col| col.plausible_dates);
                                    let chosen = if date && plausible {
                                        choice(domains.date_times, &k)
                                    } else if date {
                                        choice(domains.dates, &k)
                                    } else {
                                        let domain = match domains.numbers {
                                            Some(numbers) if numeric => Some(numbers),
                                            _ => domains.texts,
                                        };
                                        let text = domain.and_then(|d| choice(d, &k));
                                        out.speculated |= text.is_some();
                                        text
                                    };
                                    Term::Text(
                                        chosen.unwrap_or_else(|| ZString::new_const(name.as_str())),
                                    )
                                }
                            };
                            SymVal {
                                term: Some(term),
                                null: if not_null {
                                    Bool::from_bool(false)
                                } else {
                                    Bool::new_const(format!("{name}_null"))
                                },
                            }
                        })
                        .collect(),
                })
                .collect();
            out.tables.push(SymTable {
                table: t,
                sorts,
                dates,
                rows,
            });
        }
        out
    }

    /// The candidate tuples of schema table `t`.
    pub fn table(&self, t: usize) -> Option<&SymTable> {
        self.tables.iter().find(|x| x.table == t)
    }

    /// Asserts the integrity constraints on `solver`: value domains (text is 8-bit by Z3's
    /// `encoding` parameter, `z3_text::Z3_ENCODING`; a printable-character regex made string
    /// checks ten times slower on BIRD), tuples used in order, primary-key and unique
    /// distinctness, and foreign keys referencing an existing tuple.
    pub fn assert_constraints(&self, schema: &Schema, solver: &Solver) {
        for st in &self.tables {
            let Some(table) = schema.tables.get(st.table) else {
                continue;
            };
            for (i, row) in st.rows.iter().enumerate() {
                if i > 0 {
                    solver.assert(row.exists.implies(&st.rows[i - 1].exists));
                }
                for v in &row.vals {
                    match &v.term {
                        Some(Term::Int(x)) => {
                            solver.assert(x.le(Int::from_i64(MAX_INT)));
                            solver.assert(x.ge(Int::from_i64(-MAX_INT)));
                        }
                        Some(Term::Text(s)) => {
                            solver.assert(s.length().le(Int::from_i64(MAX_TEXT_LEN)));
                        }
                        _ => {}
                    }
                }
            }
            let pos = |c: usize| table.columns.iter().position(|&x| x == c);
            let keys = std::iter::once(&table.primary_key)
                .chain(&table.unique_keys)
                .filter(|k| !k.is_empty());
            for key in keys {
                let cols: Vec<usize> = key.iter().filter_map(|&c| pos(c)).collect();
                let fixed = |c: usize| st.rows.first().is_some_and(|r| r.vals[c].term.is_none());
                if cols.iter().any(|&c| fixed(c)) {
                    continue;
                }
                for i in 0..st.rows.len() {
                    for j in 0..i {
                        let (a, b) = (&st.rows[i], &st.rows[j]);
                        // UNIQUE lets NULLs repeat; equal non-NULL keys are forbidden
                        let equal: Vec<Bool> = cols
                            .iter()
                            .map(|&c| {
                                Bool::and(&[
                                    a.vals[c].null.not(),
                                    same_value(&a.vals[c], &b.vals[c]),
                                ])
                            })
                            .collect();
                        let both = Bool::and(&[a.exists.clone(), b.exists.clone()]);
                        solver.assert(both.implies(Bool::and(&equal).not()));
                    }
                }
            }
            for fk in &table.foreign_keys {
                let Some(target) = self.table(fk.referenced_table) else {
                    continue;
                };
                let Some(rt) = schema.tables.get(fk.referenced_table) else {
                    continue;
                };
                let cols = key_positions(table, rt, fk);
                let unmodelled = |r: &SymRow, c: usize| r.vals[c].term.is_none();
                let fixed = cols.iter().any(|&(c, r)| {
                    st.rows.first().is_some_and(|x| unmodelled(x, c))
                        || target.rows.first().is_some_and(|x| unmodelled(x, r))
                });
                if cols.is_empty() || fixed {
                    continue;
                }
                for row in &st.rows {
                    let any_null: Vec<Bool> = cols
                        .iter()
                        .map(|&(c, _)| row.vals[c].null.clone())
                        .collect();
                    let matches: Vec<Bool> = target
                        .rows
                        .iter()
                        .map(|tr| {
                            let mut conj = vec![tr.exists.clone()];
                            conj.extend(
                                cols.iter()
                                    .map(|&(c, r)| same_value(&row.vals[c], &tr.vals[r])),
                            );
                            Bool::and(&conj)
                        })
                        .collect();
                    let ok = Bool::or(&[Bool::or(&any_null), Bool::or(&matches)]);
                    solver.assert(row.exists.implies(ok));
                }
            }
        }
    }

    /// For each foreign key between two of `scanned` tables, the condition that some existing
    /// referenced row is referenced by no row (a country without languages): the preference for
    /// distinct values otherwise hands every parent a child, and `EXCEPT` over the children
    /// against `NOT IN` over the parents then agree. Labelled by both table names.
    pub fn unreferenced_parents(&self, schema: &Schema, scanned: &[usize]) -> Vec<(String, Bool)> {
        let mut out = Vec::new();
        for st in self.tables.iter().filter(|t| scanned.contains(&t.table)) {
            let Some(table) = schema.tables.get(st.table) else {
                continue;
            };
            for fk in &table.foreign_keys {
                let (Some(parent), Some(pt)) = (
                    self.table(fk.referenced_table),
                    schema.tables.get(fk.referenced_table),
                ) else {
                    continue;
                };
                if !scanned.contains(&fk.referenced_table) || fk.referenced_table == st.table {
                    continue;
                }
                let pairs = key_positions(table, pt, fk);
                if pairs.is_empty() || pairs.len() != fk.columns.len() {
                    continue;
                }
                let modelled = |rows: &[SymRow], c: usize| {
                    rows.first().is_some_and(|r| r.vals[c].term.is_some())
                };
                if !pairs
                    .iter()
                    .all(|&(c, r)| modelled(&st.rows, c) && modelled(&parent.rows, r))
                {
                    continue;
                }
                let lonely: Vec<Bool> = parent
                    .rows
                    .iter()
                    .map(|pr| {
                        let mut all = vec![pr.exists.clone()];
                        for cr in &st.rows {
                            let refs: Vec<Bool> = pairs
                                .iter()
                                .map(|&(c, r)| same_value(&cr.vals[c], &pr.vals[r]))
                                .collect();
                            let mut conj = vec![cr.exists.clone()];
                            conj.extend(refs);
                            all.push(Bool::and(&conj).not());
                        }
                        Bool::and(&all)
                    })
                    .collect();
                if lonely.is_empty() {
                    continue;
                }
                out.push((
                    format!("a {} row no {} row references", pt.name, table.name),
                    Bool::or(&lonely),
                ));
            }
        }
        out
    }

    /// Preferences that make a database more telling, tried before taking a model and dropped
    /// when they conflict with the chosen branches: first non-zero numbers, non-empty texts and
    /// values distinct within each column; then only the first part.
    pub fn diversity(&self) -> [Bool; 2] {
        let mut nonzero = Vec::new();
        let mut distinct = Vec::new();
        for st in &self.tables {
            for (i, row) in st.rows.iter().enumerate() {
                for (c, v) in row.vals.iter().enumerate() {
                    match &v.term {
                        Some(Term::Int(x)) => nonzero.push(x.eq(Int::from_i64(0)).not()),
                        Some(Term::Real(x)) => nonzero.push(x.eq(Real::from_rational(0, 1)).not()),
                        Some(Term::Text(x)) => nonzero.push(x.length().ge(Int::from_i64(1))),
                        None => {}
                    }
                    if v.term.is_none() {
                        continue; // a fixed value: distinct or NULL by construction
                    }
                    for other in &st.rows[..i] {
                        distinct.push(same_value(v, &other.vals[c]).not());
                    }
                }
            }
        }
        let nonzero = Bool::and(&nonzero);
        let mut both = distinct;
        both.push(nonzero.clone());
        [Bool::and(&both), nonzero]
    }

    /// The concrete database a model describes: the tuples whose existence flag holds.
    pub fn concretize(&self, model: &Model) -> Database {
        let mut db = Database::default();
        for st in &self.tables {
            let mut rows = Vec::new();
            for row in &st.rows {
                if !model
                    .eval(&row.exists, true)
                    .and_then(|b| b.as_bool())
                    .unwrap_or(false)
                {
                    continue;
                }
                let n = rows.len() as i64 + 1;
                let vals = row
                    .vals
                    .iter()
                    .zip(&st.sorts)
                    .zip(&st.dates)
                    .map(|((v, sort), &date)| {
                        let null = model
                            .eval(&v.null, true)
                            .and_then(|b| b.as_bool())
                            .unwrap_or(false);
                        if null {
                            return Value::Null;
                        }
                        match (&v.term, sort) {
                            (Some(Term::Int(x)), _) => model
                                .eval(x, true)
                                .and_then(|x| x.as_i64())
                                .map_or(Value::Integer(0), Value::Integer),
                            (Some(Term::Real(x)), _) => model
                                .eval(x, true)
                                .and_then(|x| x.as_rational())
                                .filter(|&(_, d)| d != 0)
                                .map_or(Value::Real(0.0), |(n, d)| {
                                    Value::Real(n as f64 / d as f64)
                                }),
                            (Some(Term::Text(x)), _) => model
                                .eval(x, true)
                                .and_then(|x| x.as_string())
                                .map_or(Value::Text(String::new()), |t| {
                                    Value::Text(unescape_z3_text(&t))
                                }),
                            (None, Sort::Text) if date => Value::Text(nth_date(n)),
                            (None, Sort::Text) => Value::Text(format!("v{n}")),
                            (None, Sort::Real) => Value::Real(n as f64),
                            (None, Sort::Int) => Value::Integer(n),
                        }
                    })
                    .collect();
                rows.push(vals);
            }
            db.tables.push(TableRows {
                table: st.table,
                rows,
            });
        }
        db
    }
}

/// A date for the n-th fixed value of a `DATE` column: `2000-01-01`, `2000-01-02`, ... (distinct
/// for the few rows an instance holds).
pub fn nth_date(n: i64) -> String {
    let n = n.max(1) - 1;
    format!(
        "{:04}-{:02}-{:02}",
        2000 + n / 336,
        1 + (n / 28) % 12,
        1 + n % 28
    )
}
