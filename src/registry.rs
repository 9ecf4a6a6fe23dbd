//! The SQL surface, declared once: every function's name, parameters, result, doc and implementation.
//!
//! Both host adapters register exactly what is listed here; the README's function table and the
//! SQL-level tests are checked against it. NULL rule (applied in `signature.rs`): NULL in a required
//! argument gives NULL (no rows for a table function); NULL in an optional argument means its default.

#[cfg(test)]
mod fuzz_regressions;
mod gmn;
#[cfg(test)]
mod lenient_reading;
mod meta;

mod combined;
mod exec;
mod node_match;
mod parseval;
mod plan;
mod signature;
mod spider;

pub use signature::{
    describe_params, Args, BatchCall, Column, Host, Output, Param, ScalarFunction, SqlType,
    TableFunction, Value,
};

use crate::error::Result;

/// Where the loaded extension lives, handed over once by the host adapter at load time: ONNX
/// Runtime and the GMN models are looked for there first (the adapters reach the core only
/// through the registry).
pub fn set_library_dir(dir: std::path::PathBuf) {
    crate::gmn::runtime::set_library_dir(dir);
}
use crate::metrics::ast_ted;
use crate::query_tree;

const fn required(name: &'static str, ty: SqlType) -> Param {
    Param {
        name,
        ty,
        optional: false,
    }
}

const A: Param = required("a", SqlType::Text);
const B: Param = required("b", SqlType::Text);
const SQL: Param = required("sql", SqlType::Text);
const GOLD: Param = required("gold", SqlType::Text);
const PRED: Param = required("pred", SqlType::Text);
const SCHEMA: Param = optional("schema", SqlType::Text);
const OPTIONS: Param = optional("options", SqlType::Text);
const DB_PATH: Param = required("db_path", SqlType::Text);

const fn optional(name: &'static str, ty: SqlType) -> Param {
    Param {
        name,
        ty,
        optional: true,
    }
}

const fn column(name: &'static str, ty: SqlType) -> Column {
    Column { name, ty }
}

/// Every scalar function, in the order of the README's table.
pub static SCALAR_FUNCTIONS: &[ScalarFunction] = &[
    ScalarFunction {
        name: "sql_similarity",
        params: &[GOLD, PRED, SCHEMA, OPTIONS],
        returns: SqlType::Real,
        doc: "The recommended score in [0, 1]: the sql_equivalent verdict picks a band and the \
              structural similarity places the pair within it; 0.5 and above means no difference \
              found. See docs/functions.md#sql_similarity.",
        deterministic: true,
        call: combined::sql_similarity,
        batch: None,
    },
    ScalarFunction {
        name: "sql_similarity_components",
        params: &[GOLD, PRED, SCHEMA, OPTIONS],
        returns: SqlType::Text,
        doc: "JSON explaining sql_similarity on the same arguments: score, verdict, evidence, \
              reason, band, structural mean and each component's score. See \
              docs/functions.md#sql_similarity_components.",
        deterministic: true,
        call: combined::sql_similarity_components,
        batch: None,
    },
    ScalarFunction {
        name: "ast_ted",
        params: &[A, B, OPTIONS],
        returns: SqlType::Real,
        doc:
            "AST-TE similarity in [0, 1]: 1 - TED / max(|T1|, |T2|) over the normalized ASTs; 0.0 \
              when either query does not parse. See docs/functions.md#ast_ted.",
        deterministic: true,
        call: |a| {
            a.only_dialect_options()?;
            let (x, y) = (a.query(0)?, a.query(1)?);
            Ok(ast_ted::ast_ted(&x, &y).map_or(Output::Null, Output::Real))
        },
        batch: None,
    },
    ScalarFunction {
        name: "ast_ted_distance",
        params: &[A, B, OPTIONS],
        returns: SqlType::Integer,
        doc: "Raw Zhang-Shasha tree edit distance between the normalized ASTs; NULL when either \
              query does not parse. See docs/functions.md#ast_ted_distance.",
        deterministic: true,
        call: |a| {
            a.only_dialect_options()?;
            Ok(
                match ast_ted::ast_ted_distance(&a.query(0)?, &a.query(1)?) {
                    Some(d) => Output::Integer(i64::from(d)),
                    None => Output::Null,
                },
            )
        },
        batch: None,
    },
    ScalarFunction {
        name: "astpm",
        params: &[
            GOLD,
            PRED,
            optional("alpha", SqlType::Real),
            optional("beta", SqlType::Real),
            OPTIONS,
        ],
        returns: SqlType::Real,
        doc:
            "ASTPM similarity in [0, 1]: FuncEvalGMN's partial matching over the normalized ASTs; \
              0.0 when either query does not parse. See docs/functions.md#astpm.",
        deterministic: true,
        call: node_match::astpm,
        batch: None,
    },
    ScalarFunction {
        name: "sql_ast",
        params: &[SQL, OPTIONS],
        returns: SqlType::Text,
        doc: "The normalized AST that AST-TE compares, as JSON; NULL when the query does not \
              parse. See docs/functions.md#sql_ast.",
        deterministic: true,
        call: |a| {
            a.only_dialect_options()?;
            let query = query_tree::cached(&a.query(0)?);
            Ok(match query.parse_error {
                Some(_) => Output::Null,
                None => Output::Text(query.tree.to_json().to_string()),
            })
        },
        batch: None,
    },
    ScalarFunction {
        name: "sql_translate",
        params: &[SQL, OPTIONS],
        returns: SqlType::Text,
        doc: "The query as every other function reads it: its SQLite translation from the \
              options' dialect, the text itself for SQLite; NULL when it does not parse. See \
              docs/functions.md#sql_translate.",
        deterministic: true,
        call: |a| {
            a.only_dialect_options()?;
            Ok(match crate::parse::translate::sqlite_text(&a.query(0)?) {
                Ok(text) => Output::Text(text.into_owned()),
                Err(_) => Output::Null,
            })
        },
        batch: None,
    },
    ScalarFunction {
        name: "sql_parse_error",
        params: &[SQL, OPTIONS],
        returns: SqlType::Text,
        doc: "NULL when the query parses, otherwise the parser's message. See \
              docs/functions.md#sql_parse_error.",
        deterministic: true,
        call: |a| {
            a.only_dialect_options()?;
            Ok(match &query_tree::cached(&a.query(0)?).parse_error {
                Some(m) => Output::Text(m.clone()),
                None => Output::Null,
            })
        },
        batch: None,
    },
    ScalarFunction {
        name: "relpm",
        params: &[
            GOLD,
            PRED,
            SCHEMA,
            optional("alpha", SqlType::Real),
            optional("beta", SqlType::Real),
            OPTIONS,
        ],
        returns: SqlType::Real,
        doc: "RelPM in [0, 1]: FuncEvalGMN's partial matching over the two queries' optimized \
              logical plans; 0.0 when either query cannot be planned. See docs/functions.md#relpm.",
        deterministic: true,
        call: plan::relpm,
        batch: None,
    },
    ScalarFunction {
        name: "gmn_similarity",
        params: &[GOLD, PRED, SCHEMA, OPTIONS],
        returns: SqlType::Real,
        doc: "FuncEvalGMN similarity in [0, 1] of the two plan graphs, scored by the shipped ONNX \
              model; NULL when either query cannot be planned. See \
              docs/functions.md#gmn_similarity.",
        deterministic: true,
        call: gmn::gmn_similarity,
        batch: Some(gmn::gmn_similarity_batch),
    },
    ScalarFunction {
        name: "hybrid_gmn_similarity",
        params: &[GOLD, PRED, SCHEMA, OPTIONS],
        returns: SqlType::Real,
        doc: "Hybrid GMN similarity in [0, 1] of the two AST + plan graphs, scored by the shipped \
              ONNX model; NULL when either query cannot be planned. See \
              docs/functions.md#hybrid_gmn_similarity.",
        deterministic: true,
        call: gmn::hybrid_gmn_similarity,
        batch: Some(gmn::hybrid_gmn_similarity_batch),
    },
    ScalarFunction {
        name: "sql_graph",
        params: &[
            GOLD,
            PRED,
            SCHEMA,
            optional("model", SqlType::Text),
            OPTIONS,
        ],
        returns: SqlType::Text,
        doc: "The graphs the GMN models read, as JSON; NULL when either query cannot be planned. \
              See docs/functions.md#sql_graph.",
        deterministic: true,
        call: gmn::sql_graph,
        batch: None,
    },
    ScalarFunction {
        name: "sql_plan",
        params: &[SQL, SCHEMA, OPTIONS],
        returns: SqlType::Text,
        doc: "The optimized logical plan as indented text in the style of Calcite's EXPLAIN; NULL \
              when the query cannot be planned. See docs/functions.md#sql_plan.",
        deterministic: true,
        call: plan::sql_plan,
        batch: None,
    },
    ScalarFunction {
        name: "sql_plan_error",
        params: &[SQL, SCHEMA, OPTIONS],
        returns: SqlType::Text,
        doc: "NULL when the query can be planned, otherwise why not. See \
              docs/functions.md#sql_plan_error.",
        deterministic: true,
        call: plan::sql_plan_error,
        batch: None,
    },
    ScalarFunction {
        name: "spider_hardness",
        params: &[SQL, SCHEMA, OPTIONS],
        returns: SqlType::Text,
        doc: "Spider hardness of a query by the official rules: 'easy', 'medium', 'hard' or \
              'extra'. See docs/functions.md#spider_hardness.",
        deterministic: true,
        call: spider::hardness,
        batch: None,
    },
    ScalarFunction {
        name: "spider_exact_match",
        params: &[GOLD, PRED, SCHEMA, OPTIONS],
        returns: SqlType::Integer,
        doc: "Spider exact set match, 1 or 0, identical to the official evaluator. See \
              docs/functions.md#spider_exact_match.",
        deterministic: true,
        call: spider::exact_match,
        batch: None,
    },
    ScalarFunction {
        name: "spider_partial_match",
        params: &[GOLD, PRED, SCHEMA, OPTIONS],
        returns: SqlType::Text,
        doc: "The official partial-match scores as JSON, one object per component. See \
              docs/functions.md#spider_partial_match.",
        deterministic: true,
        call: spider::partial_match,
        batch: None,
    },
    ScalarFunction {
        name: "exec_match",
        params: &[DB_PATH, GOLD, PRED, OPTIONS],
        returns: SqlType::Integer,
        doc: "Execution accuracy on a SQLite file or a folder of them (a test suite): 1 when the \
              results match, 0 when not, NULL when the gold query fails. See \
              docs/functions.md#exec_match.",
        deterministic: true,
        call: exec::exec_match,
        batch: None,
    },
    ScalarFunction {
        name: "exec_match_reason",
        params: &[DB_PATH, GOLD, PRED, OPTIONS],
        returns: SqlType::Text,
        doc: "Why exec_match gives its value on the same arguments. See \
              docs/functions.md#exec_match_reason.",
        deterministic: true,
        call: exec::exec_match_reason,
        batch: None,
    },
    ScalarFunction {
        name: "bird_soft_f1",
        params: &[DB_PATH, GOLD, PRED, OPTIONS],
        returns: SqlType::Real,
        doc: "BIRD mini-dev Soft-F1 in [0, 1] on one SQLite file. See \
              docs/functions.md#bird_soft_f1.",
        deterministic: true,
        call: exec::bird_soft_f1,
        batch: None,
    },
    ScalarFunction {
        name: "bird_ves",
        params: &[DB_PATH, GOLD, PRED, OPTIONS],
        returns: SqlType::Real,
        doc: "BIRD R-VES reward from the time ratio gold/pred when the results match; depends on \
              wall-clock time. See docs/functions.md#bird_ves.",
        deterministic: false,
        call: exec::bird_ves,
        batch: None,
    },
    ScalarFunction {
        name: "sql_equivalent",
        params: &[GOLD, PRED, SCHEMA, OPTIONS],
        returns: SqlType::Integer,
        doc: "ParSEval verdict: 1 when no generated test database tells the queries apart, 0 when \
              one does, NULL when undecided. See docs/functions.md#sql_equivalent.",
        deterministic: true,
        call: parseval::sql_equivalent,
        batch: None,
    },
    ScalarFunction {
        name: "sql_equivalent_reason",
        params: &[GOLD, PRED, SCHEMA, OPTIONS],
        returns: SqlType::Text,
        doc: "Why sql_equivalent gives its verdict on the same arguments. See \
              docs/functions.md#sql_equivalent_reason.",
        deterministic: true,
        call: parseval::sql_equivalent_reason,
        batch: None,
    },
    ScalarFunction {
        name: "sqlsim_version",
        params: &[],
        returns: SqlType::Text,
        doc: "sqlsim's version and the git commit it was built from. See \
              docs/functions.md#sqlsim_version.",
        deterministic: true,
        call: |_| Ok(Output::Text(meta::version_string())),
        batch: None,
    },
    ScalarFunction {
        name: "sqlsim_debug",
        params: &[],
        returns: SqlType::Text,
        doc: "JSON describing this build: version, host, features, limits, cache state. See \
              docs/functions.md#sqlsim_debug.",
        deterministic: false,
        call: |a| Ok(Output::Text(meta::debug_json(a.host()).to_string())),
        batch: None,
    },
];

/// Every table function, in the order of the README's table.
pub static TABLE_FUNCTIONS: &[TableFunction] = &[
    TableFunction {
        name: "sqlsim_functions",
        params: &[],
        columns: &[
            column("name", SqlType::Text),
            column("kind", SqlType::Text),
            column("signature", SqlType::Text),
            column("doc", SqlType::Text),
        ],
        doc: "One row per sqlsim SQL function: name, kind, signature, doc. See \
              docs/functions.md#sqlsim_functions.",
        call: |_| Ok(meta::function_rows()),
    },
    TableFunction {
        name: "sql_ast_nodes",
        params: &[SQL, OPTIONS],
        columns: &[
            column("node", SqlType::Integer),
            column("parent", SqlType::Integer),
            column("depth", SqlType::Integer),
            column("label", SqlType::Text),
        ],
        doc: "The normalized AST as rows (node, parent, depth, label) in pre-order. See \
              docs/functions.md#sql_ast_nodes.",
        call: |a| {
            a.only_dialect_options()?;
            Ok(meta::tree_rows(&query_tree::cached(&a.query(0)?).tree))
        },
    },
    TableFunction {
        name: "spider_partial",
        params: &[GOLD, PRED, SCHEMA, OPTIONS],
        columns: &[
            column("component", SqlType::Text),
            column("acc", SqlType::Real),
            column("rec", SqlType::Real),
            column("f1", SqlType::Real),
            column("label_total", SqlType::Integer),
            column("pred_total", SqlType::Integer),
        ],
        doc: "The official partial-match scores as rows, one per component. See \
              docs/functions.md#spider_partial.",
        call: spider::partial_rows,
    },
    TableFunction {
        name: "parseval_generate",
        params: &[required("query", SqlType::Text), SCHEMA, OPTIONS],
        columns: &[
            column("instance", SqlType::Integer),
            column("table_name", SqlType::Text),
            column("row_number", SqlType::Integer),
            column("row_json", SqlType::Text),
            column("branches", SqlType::Text),
        ],
        doc: "ParSEval's test databases for one query, one row per generated tuple. See \
              docs/functions.md#parseval_generate.",
        call: parseval::parseval_generate,
    },
    TableFunction {
        name: "sql_counterexample",
        params: &[GOLD, PRED, SCHEMA, OPTIONS],
        columns: &[
            column("table_name", SqlType::Text),
            column("row_number", SqlType::Integer),
            column("row_json", SqlType::Text),
            column("gold_output", SqlType::Text),
            column("pred_output", SqlType::Text),
        ],
        doc: "A database on which gold and pred differ, one row per tuple with both outputs; no \
              rows when none was found. See docs/functions.md#sql_counterexample.",
        call: parseval::sql_counterexample,
    },
    TableFunction {
        name: "spider_schemas",
        params: &[required("path", SqlType::Text)],
        columns: &[
            column("db_id", SqlType::Text),
            column("schema", SqlType::Text),
        ],
        doc: "One row per database of a Spider tables.json file: db_id and the entry as JSON. See \
              docs/functions.md#spider_schemas.",
        call: spider::schemas,
    },
];

/// Looks up a scalar function by name.
pub fn scalar(name: &str) -> Option<&'static ScalarFunction> {
    SCALAR_FUNCTIONS.iter().find(|f| f.name == name)
}

/// Looks up a table function by name.
pub fn table(name: &str) -> Option<&'static TableFunction> {
    TABLE_FUNCTIONS.iter().find(|f| f.name == name)
}

/// Calls a scalar function by name from Rust, as a host would (tests and benchmarks use this).
pub fn call_scalar(name: &str, values: &[Value<'_>]) -> Result<Output> {
    match scalar(name) {
        Some(f) => f.invoke(values, Host::Native),
        None => Err(crate::error::Error::Internal(format!(
            "no scalar function {name}"
        ))),
    }
}
