//! Glue between the registry and ParSEval: `sql_equivalent`, `sql_equivalent_reason`, `parseval_generate`, `sql_counterexample`.

use std::sync::Arc;

use serde_json::{json, Map, Value as Json};

use super::{Args, Output};
use crate::error::Result;
use crate::exec::compare::Cell;
use crate::exec::instance::{Database, Outcome};
use crate::parseval::{decide_cached, generate_for, Decision, Options, Verdict};
use crate::schema::Schema;

/// The decision on (gold, pred [, schema [, options]]) for the function `name`.
fn decision(args: &Args<'_>, name: &'static str) -> Result<Arc<Decision>> {
    let opts = Options::parse(name, args.opt_text(3)?)?;
    let schema = args.opt_text(2)?;
    decide_cached(&args.query_as_read(0)?, &args.query(1)?, schema, &opts)
        .map_err(|e| args.rename_error(2, e))
}

/// `sql_equivalent(gold, pred [, schema [, options]])`: 1, 0 or NULL.
pub fn sql_equivalent(args: &Args<'_>) -> Result<Output> {
    Ok(decision(args, "sql_equivalent")?
        .value()
        .map_or(Output::Null, Output::Integer))
}

/// `sql_equivalent_reason(gold, pred [, schema [, options]])`: why the verdict is what it is.
pub fn sql_equivalent_reason(args: &Args<'_>) -> Result<Output> {
    Ok(Output::Text(
        decision(args, "sql_equivalent_reason")?.reason(),
    ))
}

fn value_json(v: &rusqlite::types::Value) -> Json {
    use rusqlite::types::Value;
    match v {
        Value::Null => Json::Null,
        Value::Integer(i) => json!(i),
        Value::Real(f) => json!(f),
        Value::Text(s) => json!(s),
        Value::Blob(b) => json!(b.iter().map(|x| format!("{x:02x}")).collect::<String>()),
    }
}

fn cell_json(c: &Cell) -> Json {
    match c {
        Cell::Null => Json::Null,
        Cell::Int(i) => json!(i),
        Cell::Real(bits) => json!(f64::from_bits(*bits)),
        Cell::Text(s) => json!(s),
        Cell::Blob(b) => json!(b.iter().map(|x| format!("{x:02x}")).collect::<String>()),
    }
}

fn outcome_json(o: &Outcome) -> String {
    match o {
        Outcome::Rows(rows) => Json::Array(
            rows.iter()
                .map(|r| Json::Array(r.cells.iter().map(cell_json).collect()))
                .collect(),
        )
        .to_string(),
        Outcome::Error(e) => json!({ "error": e }).to_string(),
        Outcome::Bound(e) => json!({ "bound": e }).to_string(),
    }
}

/// (table name, row number, row as a JSON object) for every tuple of `db`.
fn tuples(schema: &Schema, db: &Database) -> Vec<(String, i64, String)> {
    let mut out = Vec::new();
    for t in &db.tables {
        let Some(table) = schema.tables.get(t.table) else {
            continue;
        };
        for (n, row) in t.rows.iter().enumerate() {
            let mut obj = Map::new();
            for (&c, v) in table.columns.iter().zip(row) {
                let name = schema.columns.get(c).map_or("?", |c| c.name.as_str());
                obj.insert(name.to_string(), value_json(v));
            }
            out.push((
                table.name.clone(),
                n as i64 + 1,
                Json::Object(obj).to_string(),
            ));
        }
    }
    out
}

/// `parseval_generate(query [, schema [, options]])`: one row per generated tuple.
pub fn parseval_generate(args: &Args<'_>) -> Result<Vec<Vec<Output>>> {
    let opts = Options::parse("parseval_generate", args.opt_text(2)?)?;
    let (generated, schema) = generate_for(&args.query(0)?, args.opt_text(1)?, &opts)
        .map_err(|e| args.rename_error(1, e))?;
    let mut rows = Vec::new();
    for (i, inst) in generated.instances.iter().enumerate() {
        let branches = Json::Array(inst.covered.iter().map(|b| json!(b)).collect()).to_string();
        for (table, n, row) in tuples(&schema, &inst.db) {
            rows.push(vec![
                Output::Integer(i as i64),
                Output::Text(table),
                Output::Integer(n),
                Output::Text(row),
                Output::Text(branches.clone()),
            ]);
        }
    }
    Ok(rows)
}

/// `sql_counterexample(gold, pred [, schema [, options]])`: the distinguishing database, one
/// row per tuple (one row with NULL table and row when the database is empty), then one row per
/// value an uninterpreted function took there (table `F()`), with both queries' outputs on it;
/// no rows when no counterexample was found.
pub fn sql_counterexample(args: &Args<'_>) -> Result<Vec<Vec<Output>>> {
    let d = decision(args, "sql_counterexample")?;
    let Verdict::Different(c) = &d.verdict else {
        return Ok(vec![]);
    };
    let (gold, pred) = (outcome_json(&c.gold), outcome_json(&c.pred));
    let mut t = tuples(&d.schema, &c.db);
    let row = |table: Output, n: Output, r: Output| {
        vec![
            table,
            n,
            r,
            Output::Text(gold.clone()),
            Output::Text(pred.clone()),
        ]
    };
    let mut out: Vec<Vec<Output>> = if t.is_empty() {
        vec![row(Output::Null, Output::Null, Output::Null)]
    } else {
        t.drain(..)
            .map(|(table, n, r)| row(Output::Text(table), Output::Integer(n), Output::Text(r)))
            .collect()
    };
    // the values the functions the engine does not know took there (docs/semantics.md)
    let mut numbers: std::collections::HashMap<&str, i64> = std::collections::HashMap::new();
    for f in &c.functions {
        let n = numbers.entry(f.name.as_str()).or_insert(0);
        *n += 1;
        let args: Vec<Json> = f.args.iter().map(value_json).collect();
        let value = json!({ "arguments": args, "value": value_json(&f.value) }).to_string();
        out.push(row(
            Output::Text(format!("{}()", f.name.to_uppercase())),
            Output::Integer(*n),
            Output::Text(value),
        ));
    }
    Ok(out)
}
