//! The three forms of a `schema` argument (DDL text, BIRD-style JSON array, Spider tables.json
//! entry) built into the one schema model.
//!
//! Golden fixtures (`tests/fixtures/schema/<name>.sql|.json`, expected `<name>.expected`; and the
//! concert_singer entry of `tests/golden/spider/tables.json`, expected `spider_entry.expected`):
//! the schema rendered as text by [`render`], one table per block. `SQLSIM_BLESS=1 cargo test
//! --profile test-fast --test integration schema_forms` rewrites the expected files (review the
//! diff before committing).
//! The last test reads the real BIRD and Spider schema files from `../shared/data` and is ignored
//! unless run with `--ignored` (see `data`).

use serde_json::Value;
use sqlsim::metrics::spider::{evaluate_with, hardness_with, Options, SpiderContext};
use sqlsim::schema::{load_tables_file, Affinity, ForeignKey, Schema};
use std::path::{Path, PathBuf};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/schema");
const SPIDER_GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/spider");

fn names(s: &Schema, cols: &[usize]) -> String {
    cols.iter()
        .map(|&c| s.columns[c].name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The schema as text: per table its columns (ordinal, name, type, affinity, flags) and keys.
fn render(s: &Schema) -> String {
    let mut out = String::new();
    for (t, table) in s.tables.iter().enumerate() {
        out.push_str(&format!("table {} [{}]\n", table.name, table.norm));
        for c in s.table_columns(t) {
            let mut flags = Vec::new();
            if c.not_null {
                flags.push("not null");
            }
            if c.unique {
                flags.push("unique");
            }
            out.push_str(&format!(
                "  {:>2} {} [{}] type '{}' {:?}{}{}\n",
                c.ordinal,
                c.name,
                c.norm,
                c.ty,
                c.affinity(),
                if flags.is_empty() { "" } else { " " },
                flags.join(" ")
            ));
        }
        if !table.primary_key.is_empty() {
            out.push_str(&format!(
                "  primary key ({})\n",
                names(s, &table.primary_key)
            ));
        }
        for key in &table.unique_keys {
            out.push_str(&format!("  unique ({})\n", names(s, key)));
        }
        for fk in &table.foreign_keys {
            out.push_str(&format!(
                "  foreign key ({}) references {} ({})\n",
                names(s, &fk.columns),
                s.tables[fk.referenced_table].name,
                names(s, &fk.referenced_columns)
            ));
        }
    }
    out
}

fn fixture_paths() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(FIXTURES)
        .expect("tests/fixtures/schema exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("sql" | "json")))
        .collect();
    paths.sort();
    paths
}

#[test]
fn golden_fixtures() {
    let paths = fixture_paths();
    assert!(paths.len() >= 2, "fixtures missing: {paths:?}");
    let bless = std::env::var_os("SQLSIM_BLESS").is_some();
    // The Spider entry of the evaluator's golden tests, rendered the same way.
    let spider = (
        Path::new(FIXTURES).join("spider_entry.expected"),
        spider_entry(),
    );
    let inputs = paths.into_iter().map(|path| {
        let text = std::fs::read_to_string(&path).unwrap();
        (path.with_extension("expected"), text)
    });
    for (expected_path, text) in inputs.chain(std::iter::once(spider)) {
        let path = &expected_path;
        let schema =
            Schema::from_argument(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let got = render(&schema);
        if bless {
            std::fs::write(&expected_path, &got).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path)
            .unwrap_or_else(|e| panic!("{}: {e}", expected_path.display()));
        assert_eq!(
            got,
            expected,
            "{} (SQLSIM_BLESS=1 to update)",
            path.display()
        );
    }
}

fn spider_entry() -> String {
    load_tables_file(&format!("{SPIDER_GOLDEN}/tables.json")).unwrap()[0]
        .1
        .clone()
}

fn concert_singer_ddl() -> String {
    std::fs::read_to_string(format!("{FIXTURES}/concert_singer.sql")).unwrap()
}

/// The DDL fixture and the tables.json entry describe the same database for the Spider evaluator.
#[test]
fn ddl_and_tables_json_agree_for_spider() {
    let from_json = Schema::from_argument(&spider_entry()).unwrap();
    let from_ddl = Schema::from_argument(&concert_singer_ddl()).unwrap();
    let key = |s: &Schema| -> Vec<(usize, String, String)> {
        s.columns
            .iter()
            .map(|c| (c.ordinal, s.tables[c.table].norm.clone(), c.norm.clone()))
            .collect()
    };
    assert_eq!(key(&from_json), key(&from_ddl));
    let mut fk_json = from_json.foreign_keys.clone();
    let mut fk_ddl = from_ddl.foreign_keys.clone();
    fk_json.sort_unstable();
    fk_ddl.sort_unstable();
    assert_eq!(fk_json, fk_ddl);

    let (ctx_json, ctx_ddl) = (
        SpiderContext::new(Some(&from_json)),
        SpiderContext::new(Some(&from_ddl)),
    );
    let cases = std::fs::read_to_string(format!("{SPIDER_GOLDEN}/cases.jsonl")).unwrap();
    let mut compared = 0;
    for line in cases.lines().filter(|l| !l.trim().is_empty()) {
        let c: Value = serde_json::from_str(line).unwrap();
        if c["db_id"] != "concert_singer" {
            continue;
        }
        let (gold, pred) = (c["gold"].as_str().unwrap(), c["pred"].as_str().unwrap());
        for opts in [Options::default(), Options::parse("lenient").unwrap()] {
            let a = evaluate_with(&ctx_json, gold, pred, &opts);
            let b = evaluate_with(&ctx_ddl, gold, pred, &opts);
            assert_eq!(a, b, "{gold} | {pred}");
            assert_eq!(
                hardness_with(&ctx_json, pred, &opts),
                hardness_with(&ctx_ddl, pred, &opts)
            );
        }
        compared += 1;
    }
    assert!(compared >= 20, "{compared}");
}

#[test]
fn bird_array_equals_the_joined_ddl() {
    let text = std::fs::read_to_string(format!("{FIXTURES}/bird_style.json")).unwrap();
    let items: Vec<String> = serde_json::from_str(&text).unwrap();
    let joined = Schema::from_argument(&items.join(";\n")).unwrap();
    assert_eq!(Schema::from_argument(&text).unwrap(), joined);
}

#[test]
fn inferred_schema_from_gold_and_prediction() {
    let gold = sqlsim::parse::parse_sql(
        "SELECT T2.name FROM singer_in_concert AS T1 JOIN singer AS T2 ON T1.singer_id = T2.singer_id",
    )
    .unwrap();
    let pred = sqlsim::parse::parse_sql(
        "SELECT name FROM singer WHERE singer_id IN (SELECT singer_id FROM singer_in_concert)",
    )
    .unwrap();
    let s = Schema::infer_from(gold.iter().chain(&pred));
    let t = s.table_index("SINGER").unwrap();
    let cols: Vec<&str> = s.table_columns(t).map(|c| c.name.as_str()).collect();
    assert_eq!(cols, ["singer_id", "name"]);
    assert!(s
        .columns
        .iter()
        .all(|c| c.ty.is_empty() && !c.not_null && !c.unique));
    assert_eq!(s.columns[0].affinity(), Affinity::Blob);
}

fn json_file(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Every BIRD database (dev and train) and every Spider tables.json entry builds a schema.
#[test]
#[ignore = "needs ../shared/data (SQLSIM_DATA)"]
fn every_public_schema_parses() {
    // `../shared/data`: the public data sets, never copied into the repository.
    let data = crate::data::require("bird/schema.json");
    let find = |s: &Schema, table: &str, col: &str| {
        let t = s
            .table_index(table)
            .unwrap_or_else(|| panic!("table {table}"));
        s.column_index(t, col)
            .unwrap_or_else(|| panic!("column {table}.{col}"))
    };

    // BIRD dev: db_id -> list of CREATE TABLE strings, given as a BIRD array.
    let dev = json_file(&data.join("bird/schema.json"));
    let dev = dev.as_object().unwrap();
    let mut dev_schemas = std::collections::BTreeMap::new();
    for (db, list) in dev {
        let s = Schema::from_argument(&list.to_string()).unwrap_or_else(|e| panic!("{db}: {e}"));
        assert_eq!(s.tables.len(), list.as_array().unwrap().len(), "{db}");
        dev_schemas.insert(db.clone(), s);
    }
    assert_eq!(dev_schemas.len(), 11);
    let cs = &dev_schemas["california_schools"];
    assert_eq!(cs.tables.len(), 3);
    assert_eq!(
        cs.table_columns(cs.table_index("frpm").unwrap()).count(),
        29
    );
    let cds = find(cs, "frpm", "cdscode");
    assert!(cs.columns[cds].not_null && cs.columns[cds].unique);
    assert_eq!(cs.columns[find(cs, "frpm", "Enrollment (K-12)")].ty, "REAL");
    let fk = &cs.tables[cs.table_index("frpm").unwrap()].foreign_keys;
    assert_eq!(
        fk,
        &[ForeignKey {
            columns: vec![cds],
            referenced_table: cs.table_index("schools").unwrap(),
            referenced_columns: vec![find(cs, "schools", "CDSCode")],
        }]
    );
    let cards = &dev_schemas["card_games"];
    assert!(cards.columns[find(cards, "cards", "uuid")].unique);

    // BIRD train: db_id -> one DDL text.
    let train = json_file(&data.join("bird/train_schema.json"));
    let train = train.as_object().unwrap();
    let mut train_schemas = std::collections::BTreeMap::new();
    for (db, text) in train {
        let s =
            Schema::from_argument(text.as_str().unwrap()).unwrap_or_else(|e| panic!("{db}: {e}"));
        train_schemas.insert(db.clone(), s);
    }
    assert_eq!(train_schemas.len(), 69);
    let movie = &train_schemas["movie_platform"];
    let lu = movie.table_index("lists_users").unwrap();
    assert_eq!(
        movie.tables[lu].primary_key,
        [
            find(movie, "lists_users", "user_id"),
            find(movie, "lists_users", "list_id")
        ]
    );
    let hockey = &train_schemas["hockey"];
    let coaches = &hockey.tables[hockey.table_index("Coaches").unwrap()];
    assert_eq!(coaches.primary_key.len(), 4);
    assert!(coaches.foreign_keys.contains(&ForeignKey {
        columns: vec![
            find(hockey, "Coaches", "year"),
            find(hockey, "Coaches", "tmID")
        ],
        referenced_table: hockey.table_index("Teams").unwrap(),
        referenced_columns: vec![find(hockey, "Teams", "year"), find(hockey, "Teams", "tmID")],
    }));

    let all = dev_schemas.values().chain(train_schemas.values());
    let (tables, columns, fks) = all.fold((0, 0, 0), |(t, c, f), s| {
        let fks: usize = s.tables.iter().map(|t| t.foreign_keys.len()).sum();
        (t + s.tables.len(), c + s.columns.len(), f + fks)
    });
    assert_eq!((tables, columns, fks), (597, 4337, 629));

    // Spider: every entry of both tables.json copies.
    for file in ["spider/tables.json", "spider/tables_testsuite.json"] {
        let rows = load_tables_file(data.join(file).to_str().unwrap()).unwrap();
        assert_eq!(rows.len(), 166, "{file}");
        let mut totals = (0, 0, 0);
        for (db, entry) in &rows {
            let s = Schema::from_argument(entry).unwrap_or_else(|e| panic!("{file} {db}: {e}"));
            totals.0 += s.tables.len();
            totals.1 += s.columns.len();
            totals.2 += s.foreign_keys.len();
            let grouped: usize = s
                .tables
                .iter()
                .flat_map(|t| &t.foreign_keys)
                .map(|fk| fk.columns.len())
                .sum();
            assert_eq!(grouped, s.foreign_keys.len(), "{db}: every pair in one key");
        }
        if file == "spider/tables.json" {
            assert_eq!(totals, (876, 4503, 795));
        }
    }
}
