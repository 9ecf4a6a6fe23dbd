//! Spider's official evaluation (evaluation.py + process_sql.py of taoyds/test-suite-sql-eval): hardness,
//! exact set match and the ten partial-match components, with typed structures instead of tuples.
//!
//! Default behaviour reproduces the official evaluator example for example: DISABLE_VALUE and
//! DISABLE_DISTINCT on, foreign-key columns normalized from the schema, a prediction the official
//! parser rejects scored as the empty SQL, the test-suite evaluator's `pred.replace("value", "1")` and
//! LIMIT rule. [`Options::lenient`] scores rejected predictions by what they mean instead (see
//! [`lenient`]). Without a schema, names are resolved from the queries alone ([`catalog::OpenCatalog`]):
//! unknown tables and columns are accepted, an unqualified column belongs to the first FROM table that
//! has it (else the first FROM table), and there is no foreign-key normalization.
//!
//! ```
//! use sqlsim::metrics::spider::{evaluate, Options};
//! let e = evaluate("SELECT name FROM singer", "select name from singer", None, &Options::default()).unwrap();
//! assert!(e.exact);
//! assert_eq!(e.hardness.as_str(), "easy");
//! ```

pub mod ast;
pub mod catalog;
mod error;
pub mod hardness;
mod keywords;
pub mod lenient;
pub mod parser;
pub mod partial;
mod python;
pub mod rebuild;
pub mod tokenize;

use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use crate::cache::NamedCache;
use crate::error::{Error, Result};
use crate::schema::Schema;

pub use error::SpiderError;
pub use hardness::Hardness;
pub use partial::{partial_json, Component, ComponentScore};

use ast::Sql;
use catalog::{Catalog, OpenCatalog, Resolver};
use parser::LimitRule;

/// Which official evaluator to follow where the two differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Variant {
    /// taoyds/test-suite-sql-eval (the current official one): predictions get `replace("value", "1")`,
    /// any LIMIT operand is accepted (stored as 1).
    #[default]
    TestSuite,
    /// taoyds/spider's original evaluation.py: no replacement, LIMIT needs an integer.
    Spider,
}

/// Evaluation options; the default is the official behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Options {
    /// Score predictions the official parser rejects by what they mean (column aliases, table aliases
    /// without AS, IN value lists, LEFT/INNER JOIN, `<>`, IS NULL, ...). Off by default.
    pub lenient: bool,
    /// Keep values (turns DISABLE_VALUE off).
    pub keep_values: bool,
    /// Keep DISTINCT (turns DISABLE_DISTINCT off).
    pub keep_distinct: bool,
    pub variant: Variant,
}

impl Options {
    /// Parses an options argument: comma/space separated words (`lenient`, `keep_values`,
    /// `keep_distinct`, `spider`, `testsuite`) or a JSON object with those keys set to true/false.
    pub fn parse(text: &str) -> Result<Options> {
        let mut o = Options::default();
        let bad = |m: String| Error::Argument {
            function: "spider",
            argument: "options",
            message: m,
        };
        let t = text.trim();
        let mut set = |k: &str, on: bool| -> Result<()> {
            match k {
                "lenient" => o.lenient = on,
                "keep_values" => o.keep_values = on,
                "keep_distinct" => o.keep_distinct = on,
                "spider" => o.variant = if on { Variant::Spider } else { Variant::TestSuite },
                "testsuite" | "test_suite" => {
                    o.variant = if on { Variant::TestSuite } else { Variant::Spider }
                }
                "" => {}
                _ => return Err(bad(format!("has unknown option '{k}' (known: lenient, keep_values, keep_distinct, spider, testsuite)"))),
            }
            Ok(())
        };
        if t.starts_with('{') {
            let v: serde_json::Value =
                serde_json::from_str(t).map_err(|e| bad(format!("is not valid JSON: {e}")))?;
            for (k, val) in v.as_object().into_iter().flatten() {
                // the dialect keys are the registry's: it accepts only SQLite here
                if ["dialect", "gold_dialect", "pred_dialect"].contains(&k.as_str()) {
                    continue;
                }
                let on = val
                    .as_bool()
                    .ok_or_else(|| bad(format!("option '{k}' must be true or false")))?;
                set(k.as_str(), on)?;
            }
        } else {
            for w in t.split(|c: char| c == ',' || c.is_whitespace()) {
                set(w.to_lowercase().as_str(), true)?;
            }
        }
        Ok(o)
    }

    /// The options as a small number, distinct for distinct options (for cache keys).
    pub fn key(&self) -> u8 {
        u8::from(self.lenient)
            | u8::from(self.keep_values) << 1
            | u8::from(self.keep_distinct) << 2
            | u8::from(self.variant == Variant::Spider) << 3
    }

    fn limit_rule(&self) -> LimitRule {
        match self.variant {
            Variant::TestSuite => LimitRule::AlwaysOne,
            Variant::Spider => LimitRule::Int,
        }
    }
}

/// A schema prepared for Spider evaluation (name maps and foreign-key map); build once, reuse.
#[derive(Debug, Clone)]
pub struct SpiderContext {
    catalog: Option<Catalog>,
    /// Unique per construction (clones share it): identifies the schema in evaluation cache keys.
    id: u64,
}

impl SpiderContext {
    /// From a schema, or schema-less when `None`.
    pub fn new(schema: Option<&Schema>) -> SpiderContext {
        static NEXT_ID: AtomicU64 = AtomicU64::new(0);
        SpiderContext {
            catalog: schema.map(Catalog::from_schema),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// An id no other context built in this process has: two contexts with the same id hold the
    /// same schema, so results computed with one are valid for the other.
    pub fn id(&self) -> u64 {
        self.id
    }
}

/// Schema texts a thread used last, compared by content before the shared cache is asked: rows of
/// one database arrive together, and comparing a few KB is much cheaper than hashing them.
const RECENT_PER_THREAD: usize = 4;

thread_local! {
    static RECENT: RefCell<VecDeque<(String, Arc<SpiderContext>)>> = const { RefCell::new(VecDeque::new()) };
}

/// The prepared context for a `schema` argument text (NULL → schema-less), cached by text.
pub fn context_for(schema_text: Option<&str>) -> Result<Arc<SpiderContext>> {
    static CACHE: NamedCache<Result<Arc<SpiderContext>>> = NamedCache::new("spider_contexts", 512);
    static OPEN: OnceLock<Arc<SpiderContext>> = OnceLock::new();
    let Some(text) = schema_text else {
        return Ok(OPEN
            .get_or_init(|| Arc::new(SpiderContext::new(None)))
            .clone());
    };
    let recent = RECENT.with(|r| {
        r.borrow()
            .iter()
            .find(|(t, _)| t == text)
            .map(|(_, c)| Arc::clone(c))
    });
    if let Some(ctx) = recent {
        return Ok(ctx);
    }
    let cache = CACHE.get();
    let entry = cache.get_or_insert_with(text, || {
        Schema::from_argument(text).map(|s| Arc::new(SpiderContext::new(Some(&s))))
    });
    let ctx = entry.as_ref().clone()?;
    RECENT.with(|r| {
        let mut r = r.borrow_mut();
        if r.len() >= RECENT_PER_THREAD {
            r.pop_back();
        }
        r.push_front((text.to_string(), Arc::clone(&ctx)));
    });
    Ok(ctx)
}

/// The per-example result of the official evaluator.
#[derive(Debug, Clone, PartialEq)]
pub struct ExampleEval {
    /// Hardness of the gold query.
    pub hardness: Hardness,
    /// Exact set match.
    pub exact: bool,
    /// The ten partial-match components, in [`Component::ALL`] order.
    pub partial: [ComponentScore; 10],
    /// The official parser's rejection of the prediction (then scored as the empty SQL).
    pub pred_parse_error: Option<SpiderError>,
}

impl ExampleEval {
    /// The partial scores as a JSON object keyed by component name.
    pub fn partial_json(&self) -> String {
        partial_json(&self.partial)
    }
}

fn parse_with<R: Resolver>(
    res: &mut R,
    sql: &str,
    opts: &Options,
) -> std::result::Result<Sql, SpiderError> {
    let toks = tokenize::tokenize(sql)?;
    parser::get_sql(res, &toks, opts.limit_rule())
}

/// Parses with the official rules, then (lenient mode) with the lenient token rewrite.
fn parse_pred<R: Resolver>(
    res: &mut R,
    sql: &str,
    opts: &Options,
) -> std::result::Result<Sql, SpiderError> {
    let first = parse_with(res, sql, opts);
    match first {
        Ok(s) => Ok(s),
        Err(e) if opts.lenient => {
            let toks = tokenize::tokenize(&lenient::pre_tokenize(sql)).map_err(|_| e.clone())?;
            let toks = lenient::rewrite(&toks);
            parser::get_sql(res, &toks, opts.limit_rule()).map_err(|_| e)
        }
        Err(e) => Err(e),
    }
}

fn gold_error(e: SpiderError) -> Error {
    Error::Parse(format!("gold query rejected by the Spider parser: {e}"))
}

/// Hardness of a (gold) query: 'easy' | 'medium' | 'hard' | 'extra'. Err when the Spider parser rejects it.
pub fn hardness(sql: &str, schema: Option<&Schema>) -> Result<Hardness> {
    hardness_with(&SpiderContext::new(schema), sql, &Options::default())
}

/// [`hardness`] with a prepared context.
pub fn hardness_with(ctx: &SpiderContext, sql: &str, opts: &Options) -> Result<Hardness> {
    let parsed = match &ctx.catalog {
        Some(c) => parse_pred(&mut FixedRef(c), sql, opts),
        None => parse_pred(&mut OpenCatalog::default(), sql, opts),
    };
    parsed.map(|s| hardness::of_sql(&s)).map_err(gold_error)
}

/// Evaluates one example like evaluation.py: Err only when the gold query does not parse.
pub fn evaluate(
    gold: &str,
    pred: &str,
    schema: Option<&Schema>,
    opts: &Options,
) -> Result<ExampleEval> {
    evaluate_with(&SpiderContext::new(schema), gold, pred, opts)
}

/// [`evaluate`] with a prepared context (the fast path for many rows on one schema).
pub fn evaluate_with(
    ctx: &SpiderContext,
    gold: &str,
    pred: &str,
    opts: &Options,
) -> Result<ExampleEval> {
    match &ctx.catalog {
        Some(cat) => {
            // A schema catalog is never modified by parsing: borrow it read-only.
            let mut r = FixedRef(cat);
            run(&mut r, cat, gold, pred, opts)
        }
        None => {
            let mut open = OpenCatalog::default();
            let (g, p) = parse_pair(&mut open, gold, pred, opts)?;
            finish(&open.inner, g, p, opts)
        }
    }
}

/// A read-only resolver over a shared catalog.
struct FixedRef<'a>(&'a Catalog);

impl Resolver for FixedRef<'_> {
    fn is_schema_table(&self, name: &str) -> bool {
        self.0.is_schema_table(name)
    }
    fn table_id(&mut self, name: &str) -> Option<u32> {
        self.0.table_id_ref(name)
    }
    fn qualified(&mut self, table: &str, col: &str) -> Option<u32> {
        self.0.qualified_ref(table, col)
    }
    fn unqualified(&mut self, tables: &[String], col: &str) -> Option<u32> {
        self.0.unqualified_ref(tables, col)
    }
}

type Parsed = (Sql, std::result::Result<Sql, SpiderError>);

fn parse_pair<R: Resolver>(res: &mut R, gold: &str, pred: &str, opts: &Options) -> Result<Parsed> {
    let g = parse_with(res, gold, opts).map_err(gold_error)?;
    let pred_text = match opts.variant {
        Variant::TestSuite => pred.replace("value", "1"),
        Variant::Spider => pred.to_string(),
    };
    let p = parse_pred(res, &pred_text, opts);
    Ok((g, p))
}

fn run<R: Resolver>(
    res: &mut R,
    cat: &Catalog,
    gold: &str,
    pred: &str,
    opts: &Options,
) -> Result<ExampleEval> {
    let (g, p) = parse_pair(res, gold, pred, opts)?;
    finish(cat, g, p, opts)
}

fn finish(
    cat: &Catalog,
    mut g: Sql,
    p: std::result::Result<Sql, SpiderError>,
    opts: &Options,
) -> Result<ExampleEval> {
    let hardness = hardness::of_sql(&g);
    let (mut p, pred_parse_error) = match p {
        Ok(s) => (s, None),
        Err(e) => (Sql::empty(), Some(e)),
    };
    let disable_distinct = !opts.keep_distinct;
    let gv = rebuild::valid_tables(&g);
    let pv = rebuild::valid_tables(&p);
    if !opts.keep_values {
        rebuild::rebuild_val(&mut g);
        rebuild::rebuild_val(&mut p);
    }
    rebuild::rebuild_col(cat, &gv, &mut g, disable_distinct);
    rebuild::rebuild_col(cat, &pv, &mut p, disable_distinct);
    let partial = partial::partial_match(cat, &p, &g);
    let exact = partial::exact_from_partial(&partial, &p, &g);
    Ok(ExampleEval {
        hardness,
        exact,
        partial,
        pred_parse_error,
    })
}

/// Exact set match (0/1 in SQL) of one example.
pub fn exact_match(
    gold: &str,
    pred: &str,
    schema: Option<&Schema>,
    opts: &Options,
) -> Result<bool> {
    evaluate(gold, pred, schema, opts).map(|e| e.exact)
}
