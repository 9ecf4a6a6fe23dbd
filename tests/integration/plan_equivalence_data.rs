//! The rewrite rules keep results on real queries: every gold and predicted query of the labeled
//! Spider-based pair sets in `../shared/data` (ignored unless run with `--ignored`) that SQLite
//! accepts and sqlsim plans runs as written and as its optimized plan printed back to SQL, on random databases of its
//! Spider schema whose values include the query's own literals; the two bags of rows must agree.
//! The databases hold NULLs and repeated values anywhere but in a primary key, which is unique and
//! never NULL, as the plans read it (`COUNT(pk)` is `COUNT(*)`: src/plan/build/count.rs).
//! Queries whose result depends on the engine's choices are left out: LIMIT (ties at the cut),
//! SQLite's bare columns, GROUP_CONCAT (order), and random().

use rusqlite::types::ValueRef;
use rusqlite::Connection;
use serde_json::Value;
use sqlsim::plan::{plan_sql, to_sql::to_sql, AggFunc, Plan};
use sqlsim::schema::{load_tables_file, Schema};
use std::collections::{BTreeMap, HashMap};

const SETS: &[&str] = &[
    "spiderdk_pair_dev.nooverlap",
    "spider_dev_llm_gpt4.nooverlap",
    "spider_dev_llm_gpt3.5.nooverlap",
    "spider_dev_llm_codellama_7b.nooverlap",
];
const DATABASES_PER_QUERY: u64 = 6;

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

/// A table's name, its columns as (name, is_text) and its primary-key column names.
type TableShape = (String, Vec<(String, bool)>, Vec<String>);

/// The shape of every table of the schema.
fn tables(schema: &Schema) -> Vec<TableShape> {
    schema
        .tables
        .iter()
        .map(|t| {
            let cols = t
                .columns
                .iter()
                .map(|&c| {
                    let col = &schema.columns[c];
                    (col.name.clone(), col.ty.eq_ignore_ascii_case("text"))
                })
                .collect();
            let key = t
                .primary_key
                .iter()
                .map(|&c| schema.columns[c].name.clone())
                .collect();
            (t.name.clone(), cols, key)
        })
        .collect()
}

fn literals(sql: &str) -> (Vec<String>, Vec<String>) {
    let (mut texts, mut numbers) = (Vec::new(), Vec::new());
    let bytes: Vec<char> = sql.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == '\'' || bytes[i] == '"' {
            let q = bytes[i];
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != q {
                j += 1;
            }
            texts.push(bytes[i + 1..j.min(bytes.len())].iter().collect::<String>());
            i = j + 1;
        } else if bytes[i].is_ascii_digit()
            && (i == 0 || !bytes[i - 1].is_alphanumeric() && bytes[i - 1] != '_')
        {
            let mut j = i;
            while j < bytes.len() && (bytes[j].is_ascii_digit() || bytes[j] == '.') {
                j += 1;
            }
            numbers.push(bytes[i..j].iter().collect::<String>());
            i = j;
        } else {
            i += 1;
        }
    }
    (texts, numbers)
}

struct Rng(u64);

impl Rng {
    fn pick(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

fn database(tables: &[TableShape], texts: &[String], numbers: &[String], seed: u64) -> Connection {
    let con = Connection::open_in_memory().unwrap();
    let mut rng = Rng(seed);
    let mut text_pool: Vec<String> = vec!["a".into(), "b".into()];
    text_pool.extend(texts.iter().cloned());
    let mut number_pool: Vec<String> = vec!["0".into(), "1".into(), "2".into()];
    number_pool.extend(numbers.iter().cloned());
    for (name, cols, key) in tables {
        let mut defs: Vec<String> = cols
            .iter()
            .map(|(c, text)| {
                let not_null = if key.contains(c) { " NOT NULL" } else { "" };
                let ty = if *text { "TEXT" } else { "NUMERIC" };
                format!("{} {ty}{not_null}", quote(c))
            })
            .collect();
        if !key.is_empty() {
            let key: Vec<String> = key.iter().map(|k| quote(k)).collect();
            defs.push(format!("PRIMARY KEY ({})", key.join(", ")));
        }
        if con
            .execute_batch(&format!(
                "CREATE TABLE {} ({})",
                quote(name),
                defs.join(", ")
            ))
            .is_err()
        {
            continue;
        }
        for _ in 0..rng.pick(5) {
            let vals: Vec<String> = cols
                .iter()
                .map(|(_, text)| {
                    if rng.pick(7) == 0 {
                        "NULL".to_string()
                    } else if *text {
                        format!(
                            "'{}'",
                            text_pool[rng.pick(text_pool.len())].replace('\'', "''")
                        )
                    } else {
                        number_pool[rng.pick(number_pool.len())].clone()
                    }
                })
                .collect();
            let _ = con.execute(
                &format!("INSERT INTO {} VALUES ({})", quote(name), vals.join(", ")),
                [],
            );
        }
    }
    con
}

fn bag(con: &Connection, sql: &str) -> Option<BTreeMap<Vec<String>, usize>> {
    let mut stmt = con.prepare(sql).ok()?;
    let n = stmt.column_count();
    let mut rows = stmt.query([]).ok()?;
    let mut out = BTreeMap::new();
    let mut count = 0;
    while let Ok(Some(row)) = rows.next() {
        count += 1;
        if count > 20_000 {
            return None;
        }
        let cells: Vec<String> = (0..n)
            .map(|i| match row.get_ref(i) {
                Ok(ValueRef::Null) => "NULL".into(),
                Ok(ValueRef::Integer(x)) => format!("{:.6}", x as f64),
                Ok(ValueRef::Real(x)) => format!("{x:.6}"),
                Ok(ValueRef::Text(t)) => format!("'{}'", String::from_utf8_lossy(t)),
                Ok(ValueRef::Blob(b)) => format!("{b:?}"),
                Err(_) => "?".into(),
            })
            .collect();
        *out.entry(cells).or_default() += 1;
    }
    Some(out)
}

fn engine_dependent(plan: &Plan) -> bool {
    let mut found = false;
    plan.visit(&mut |n| match n {
        Plan::Sort(s) if s.fetch.is_some() || s.offset.is_some() => found = true,
        Plan::Aggregate(a) => {
            found |= a
                .calls
                .iter()
                .any(|c| matches!(c.func, AggFunc::AnyValue | AggFunc::GroupConcat))
        }
        _ => {}
    });
    found
}

#[test]
#[ignore = "needs ../shared/data (SQLSIM_DATA)"]
fn optimized_plans_agree_with_real_queries_on_random_databases() {
    let data = crate::data::require("spider/tables.json");
    let entries: HashMap<String, String> =
        load_tables_file(data.join("spider/tables.json").to_str().unwrap())
            .unwrap()
            .into_iter()
            .collect();
    let mut schemas: HashMap<String, (Schema, Vec<TableShape>)> = HashMap::new();
    let (mut compared, mut skipped) = (0usize, 0usize);
    let mut failures = Vec::new();
    for set in SETS {
        let text = std::fs::read_to_string(data.join(format!("{set}.jsonl"))).unwrap();
        for line in text.lines() {
            let row: Value = serde_json::from_str(line).unwrap();
            let Some(db) = row["db_id"].as_str() else {
                continue;
            };
            let Some(entry) = entries.get(db) else {
                continue;
            };
            let (schema, tabs) = schemas.entry(db.to_string()).or_insert_with(|| {
                let s = Schema::from_argument(entry).unwrap();
                let t = tables(&s);
                (s, t)
            });
            for side in ["gold", "pred"] {
                let Some(sql) = row[side].as_str() else {
                    continue;
                };
                let Ok(plan) = plan_sql(sql, schema) else {
                    continue;
                };
                if engine_dependent(&plan.root) || sql.to_lowercase().contains("random") {
                    skipped += 1;
                    continue;
                }
                let printed = to_sql(&plan.root, &plan.columns);
                let (texts, numbers) = literals(sql);
                for seed in 0..DATABASES_PER_QUERY {
                    let con = database(tabs, &texts, &numbers, seed * 104_729 + 17);
                    let Some(want) = bag(&con, sql) else { break };
                    let got = bag(&con, &printed);
                    if got.as_ref() != Some(&want) {
                        failures.push(format!(
                            "{set} {side} seed {seed}: {sql}\n{}",
                            plan.explain()
                        ));
                        break;
                    }
                    compared += 1;
                }
            }
        }
    }
    eprintln!("{compared} query runs compared, {skipped} queries left out as engine-dependent");
    assert!(compared > 10_000, "only {compared} runs compared");
    assert!(
        failures.is_empty(),
        "{} queries differ, e.g.\n{}",
        failures.len(),
        failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}
