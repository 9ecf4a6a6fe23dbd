//! The SQL surface, declared once: every function's name, parameters, result, doc and implementation.
//!
//! Both host adapters register exactly what is listed here; the README's function table and the
//! SQL-level tests are checked against it. NULL rule (applied in `signature.rs`): NULL in a required
//! argument gives NULL (no rows for a table function); NULL in an optional argument means its default.

#[cfg(test)]
mod fuzz_regressions;
mod gmn;
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
        doc: "The recommended score in [0, 1]. The sql_equivalent verdict sets a band: [0.5, 1] \
              when no generated database tells the queries apart, [0, 0.25] for a counterexample \
              on ordinary data, [0.1, 0.45] for one that needs NULLs, empty input or a \
              column that is no key (nor grouped by with an aggregate) to repeat a value, or \
              where the results differ only in how \
              often rows repeat (or, under test-suite \
              semantics, a difference only in which tied rows a LIMIT keeps), \
              [0.25, 0.45] under test-suite semantics for a difference only with NULLs, \
              [0.05, 0.95] undecided; the mean of the structural scores places the pair inside \
              it. Options as sql_equivalent, except that semantics defaults to test-suite (the \
              rule of the labels it is measured on); the verdict is shared with sql_equivalent \
              under the same semantics (cache). Option components: a JSON array of the \
              structural scores to average (ast_ted, relpm, gmn_similarity, \
              hybrid_gmn_similarity; by default the two GMN scores, or ast_ted and relpm where \
              neither model is installed); see docs/SCALE.md for faster choices.",
        deterministic: true,
        call: combined::sql_similarity,
        batch: None,
    },
    ScalarFunction {
        name: "sql_similarity_components",
        params: &[GOLD, PRED, SCHEMA, OPTIONS],
        returns: SqlType::Text,
        doc: "JSON explaining sql_similarity on the same arguments: score, verdict, evidence \
              (ordinary, repeated-values, repeats, null-dependent, empty-input, tie-breaking), \
              reason, band, structural mean and each component score.",
        deterministic: true,
        call: combined::sql_similarity_components,
        batch: None,
    },
    ScalarFunction {
        name: "ast_ted",
        params: &[A, B],
        returns: SqlType::Real,
        doc:
            "AST-TE similarity in [0, 1]: 1 - TED / max(|T1|, |T2|) over normalized ASTs; 1.0 for \
              equal trees, 0.0 when either query does not parse, NULL for a pair beyond the work budget.",
        deterministic: true,
        call: |a| {
            Ok(ast_ted::ast_ted(a.text(0)?, a.text(1)?).map_or(Output::Null, Output::Real))
        },
        batch: None,
    },
    ScalarFunction {
        name: "ast_ted_distance",
        params: &[A, B],
        returns: SqlType::Integer,
        doc: "Raw Zhang-Shasha tree edit distance (insert 1, delete 1, relabel 2) between the \
              normalized ASTs; NULL when either query does not parse.",
        deterministic: true,
        call: |a| {
            Ok(match ast_ted::ast_ted_distance(a.text(0)?, a.text(1)?) {
                Some(d) => Output::Integer(i64::from(d)),
                None => Output::Null,
            })
        },
        batch: None,
    },
    ScalarFunction {
        name: "astpm",
        params: &[GOLD, PRED, optional("alpha", SqlType::Real), optional("beta", SqlType::Real)],
        returns: SqlType::Real,
        doc: "ASTPM similarity in [0, 1]: FuncEvalGMN's partial matching (F-beta of precision and \
              recall of the best-matching subtrees) over the normalized ASTs; 1.0 for equal trees, \
              0.0 when either query does not parse.",
        deterministic: true,
        call: node_match::astpm,
        batch: None,
    },
    ScalarFunction {
        name: "sql_ast",
        params: &[SQL],
        returns: SqlType::Text,
        doc:
            "The normalized AST that AST-TE compares, as JSON {\"label\", \"children\"}; NULL when \
              the query does not parse.",
        deterministic: true,
        call: |a| {
            let query = query_tree::cached(a.text(0)?);
            Ok(match query.parse_error {
                Some(_) => Output::Null,
                None => Output::Text(query.tree.to_json().to_string()),
            })
        },
        batch: None,
    },
    ScalarFunction {
        name: "sql_parse_error",
        params: &[SQL],
        returns: SqlType::Text,
        doc: "NULL when the query parses, otherwise the parser's message (or the input limit it \
              exceeds).",
        deterministic: true,
        call: |a| {
            Ok(match &query_tree::cached(a.text(0)?).parse_error {
                Some(m) => Output::Text(m.clone()),
                None => Output::Null,
            })
        },
        batch: None,
    },
    ScalarFunction {
        name: "relpm",
        params: &[GOLD, PRED, SCHEMA, optional("alpha", SqlType::Real), optional("beta", SqlType::Real)],
        returns: SqlType::Real,
        doc: "RelPM in [0, 1]: FuncEvalGMN's partial matching (alpha-weighted NodeMatch, F-beta of \
              precision and recall) over the two queries' optimized logical plans; 0.0 when either \
              query cannot be planned; schema NULL means inferred from each query.",
        deterministic: true,
        call: plan::relpm,
        batch: None,
    },
    ScalarFunction {
        name: "gmn_similarity",
        params: &[GOLD, PRED, SCHEMA],
        returns: SqlType::Real,
        doc: "FuncEvalGMN similarity in [0, 1] (exp(-distance) of the two plan-graph embeddings), \
              scored by models/funceval_gmn.onnx through ONNX Runtime; NULL when either query cannot \
              be planned or has over 512 graph nodes; an error when the runtime or model is missing.",
        deterministic: true,
        call: gmn::gmn_similarity,
        batch: Some(gmn::gmn_similarity_batch),
    },
    ScalarFunction {
        name: "hybrid_gmn_similarity",
        params: &[GOLD, PRED, SCHEMA],
        returns: SqlType::Real,
        doc: "Hybrid GMN similarity in [0, 1] (sigmoid of the AST + plan graph matching network's \
              logit), scored by models/hybrid_gmn.onnx through ONNX Runtime; NULL when either query \
              cannot be planned or has over 512 graph nodes; an error when the runtime or model is missing.",
        deterministic: true,
        call: gmn::hybrid_gmn_similarity,
        batch: Some(gmn::hybrid_gmn_similarity_batch),
    },
    ScalarFunction {
        name: "sql_graph",
        params: &[GOLD, PRED, SCHEMA, optional("model", SqlType::Text)],
        returns: SqlType::Text,
        doc: "The graphs the GMN models read, as JSON {model, version, relations, pe_steps, \
              graphs: [gold, pred]}, each {types, chars, edges, pe}; model 'funceval' (default) or \
              'hybrid'; NULL when either query cannot be planned or has over 512 nodes.",
        deterministic: true,
        call: gmn::sql_graph,
        batch: None,
    },
    ScalarFunction {
        name: "sql_plan",
        params: &[SQL, SCHEMA],
        returns: SqlType::Text,
        doc: "The optimized logical plan as indented text in the style of Calcite's EXPLAIN; NULL \
              when the query cannot be planned (see sql_plan_error).",
        deterministic: true,
        call: plan::sql_plan,
        batch: None,
    },
    ScalarFunction {
        name: "sql_plan_error",
        params: &[SQL, SCHEMA],
        returns: SqlType::Text,
        doc: "NULL when the query can be planned, otherwise why not (parse error, unknown table or \
              column, unsupported construct).",
        deterministic: true,
        call: plan::sql_plan_error,
        batch: None,
    },
    ScalarFunction {
        name: "spider_hardness",
        params: &[SQL, SCHEMA, OPTIONS],
        returns: SqlType::Text,
        doc: "Spider hardness of a query: 'easy', 'medium', 'hard' or 'extra', by the official rules; \
              NULL when the official parser rejects the query.",
        deterministic: true,
        call: spider::hardness,
        batch: None,
    },
    ScalarFunction {
        name: "spider_exact_match",
        params: &[GOLD, PRED, SCHEMA, OPTIONS],
        returns: SqlType::Integer,
        doc: "Spider exact set match (values and DISTINCT ignored, foreign keys normalized), 1 or 0, \
              identical to the official evaluator; a prediction it rejects scores as the empty SQL.",
        deterministic: true,
        call: spider::exact_match,
        batch: None,
    },
    ScalarFunction {
        name: "spider_partial_match",
        params: &[GOLD, PRED, SCHEMA, OPTIONS],
        returns: SqlType::Text,
        doc: "The official partial-match scores as JSON: one object {acc, rec, f1, label_total, \
              pred_total} per component; NULL when the gold query does not parse.",
        deterministic: true,
        call: spider::partial_match,
        batch: None,
    },
    ScalarFunction {
        name: "exec_match",
        params: &[DB_PATH, GOLD, PRED, OPTIONS],
        returns: SqlType::Integer,
        doc: "Execution accuracy on a SQLite file, or on every *.sqlite file of a folder (a test \
              suite: 1 only if all match), opened read-only and defensively: 1 when the results \
              match, 0 when they differ or the prediction fails, NULL when the gold query fails or \
              times out. Options JSON: semantics (test-suite, the default: test-suite-sql-eval's \
              rules; bird: BIRD EX, rows as a set; bag; list), timeout_ms per query (30000), \
              max_rows, keep_distinct.",
        deterministic: true,
        call: exec::exec_match,
        batch: None,
    },
    ScalarFunction {
        name: "exec_match_reason",
        params: &[DB_PATH, GOLD, PRED, OPTIONS],
        returns: SqlType::Text,
        doc: "Why exec_match gives its value on the same arguments: 'match: ...', 'mismatch: ...' \
              (pred error text, timeout, row-limit, results differ, which database of a suite) or \
              'null: ...' (gold error, timeout or row-limit; a database that cannot be used).",
        deterministic: true,
        call: exec::exec_match_reason,
        batch: None,
    },
    ScalarFunction {
        name: "bird_soft_f1",
        params: &[DB_PATH, GOLD, PRED],
        returns: SqlType::Real,
        doc: "BIRD mini-dev Soft-F1 in [0, 1] on one SQLite file: distinct rows paired by position, \
              cell-level precision and recall; 0 when the prediction fails, NULL when the gold fails.",
        deterministic: true,
        call: exec::bird_soft_f1,
        batch: None,
    },
    ScalarFunction {
        name: "bird_ves",
        params: &[DB_PATH, GOLD, PRED, OPTIONS],
        returns: SqlType::Real,
        doc: "BIRD R-VES reward (0, 0.25, 0.5, 0.75, 1 or 1.25) from the mean time ratio gold/pred \
              over repeated runs when the results match as BIRD EX; 0 otherwise, NULL when the gold \
              fails. Depends on wall-clock time (not deterministic). Options JSON: repeats (100), \
              timeout_ms per query (30000; the loop gets timeout x repeats), max_rows.",
        deterministic: false,
        call: exec::bird_ves,
        batch: None,
    },
    ScalarFunction {
        name: "sql_equivalent",
        params: &[GOLD, PRED, SCHEMA, OPTIONS],
        returns: SqlType::Integer,
        doc: "ParSEval verdict: 1 when no generated test database tells the queries apart, 0 when \
              one does (re-checked by running both), NULL when undecided (see \
              sql_equivalent_reason). Options JSON: mode, work (deterministic solver budget), \
              timeout_ms (wall-clock safety cap), seed, max_rows, semantics (how results \
              compare: bag, the default, multisets with columns by position; set, BIRD's EX, \
              rows as sets; test-suite, test-suite-sql-eval's: column permutations, and DISTINCT \
              removed from both queries when keep_distinct is false; row order counts under \
              the gold's ORDER BY except with set; under test-suite a difference that only \
              databases with NULL values show is NULL, as test-suite databases rarely hold such \
              NULLs, and one only in which tied rows a LIMIT keeps is 0, as test-suite compares \
              the rows SQLite returns; bag and set set such databases aside), databases (both, the default: the gold's \
              generated databases and the prediction's own; gold: the gold's alone, generated \
              once per gold and reused, about 4 times as fast for sql_similarity), \
              prediction_mode (the prediction's search: one-negative, the default, or as mode), \
              rounds (1 to 4, default 2, 1 under databases gold: while no ordinary \
              counterexample is found, both searches run again with the next seed), random (0 \
              to 256, default 128, 0 under databases gold: NULL-free databases filled at random from the queries' \
              literals and small values, tried last; a difference there is ordinary only if it \
              holds without repeated values, else it counts as one that needs a repeated value).",
        deterministic: true,
        call: parseval::sql_equivalent,
        batch: None,
    },
    ScalarFunction {
        name: "sql_equivalent_reason",
        params: &[GOLD, PRED, SCHEMA, OPTIONS],
        returns: SqlType::Text,
        doc: "Why sql_equivalent gives its verdict on the same arguments: 'equivalent: ...', \
              'not equivalent: ...' or 'unknown: ...' (unsupported construct, work budget, gold \
              fails, empty results, or the wall-clock safety cap on an overloaded machine); it \
              names the semantics that compared the results.",
        deterministic: true,
        call: parseval::sql_equivalent_reason,
        batch: None,
    },
    ScalarFunction {
        name: "sqlsim_version",
        params: &[],
        returns: SqlType::Text,
        doc: "sqlsim's version and the git commit it was built from.",
        deterministic: true,
        call: |_| Ok(Output::Text(meta::version_string())),
        batch: None,
    },
    ScalarFunction {
        name: "sqlsim_debug",
        params: &[],
        returns: SqlType::Text,
        doc: "JSON describing this build: version, host, features, limits, cache state.",
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
        doc: "One row per sqlsim SQL function: name, kind (scalar or table), signature, doc.",
        call: |_| Ok(meta::function_rows()),
    },
    TableFunction {
        name: "sql_ast_nodes",
        params: &[SQL],
        columns: &[
            column("node", SqlType::Integer),
            column("parent", SqlType::Integer),
            column("depth", SqlType::Integer),
            column("label", SqlType::Text),
        ],
        doc:
            "The normalized AST as rows (node, parent, depth, label) in pre-order; parent is NULL \
              at the root; no rows when the query does not parse.",
        call: |a| Ok(meta::tree_rows(&query_tree::cached(a.text(0)?).tree)),
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
        doc: "The official partial-match scores as rows (component, acc, rec, f1, label_total, \
              pred_total), one per component; no rows when the gold query does not parse.",
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
        doc: "ParSEval test databases for a query: one row per generated tuple (instance, \
              table_name, row_number, row_json, branches: the plan branches that instance covers, \
              as a JSON array). Options JSON: mode, work, timeout_ms, seed, max_rows.",
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
        doc: "A generated database on which gold and pred differ: one row per tuple (NULL table \
              when the database is empty) with both outputs as JSON; no rows when none was found. \
              Options as sql_equivalent (semantics: which comparison found the difference).",
        call: parseval::sql_counterexample,
    },
    TableFunction {
        name: "spider_schemas",
        params: &[required("path", SqlType::Text)],
        columns: &[
            column("db_id", SqlType::Text),
            column("schema", SqlType::Text),
        ],
        doc: "One row per database of a Spider tables.json file: db_id and the entry as JSON, \
              accepted by every schema argument.",
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
