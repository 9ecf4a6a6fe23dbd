//! Grammar-based SQL generation: SELECT with joins, subqueries (scalar, IN, EXISTS, derived
//! tables, CTEs), set operations, GROUP BY/HAVING, ORDER BY/LIMIT/OFFSET, CASE, CAST, window and
//! scalar functions, literals of every kind, deep nesting, long identifiers, unicode and quoting
//! quirks. Column references follow the tables in scope (so most queries over a known schema can
//! be planned), with a small share of unknown names and odd spellings.

use crate::dialectgen;
use crate::lexicon::{self, AGGREGATES, ARITHMETIC, COMPARISONS, FUNCTIONS, TYPES, UNICODE_WORDS};
pub use crate::vocabulary::Vocabulary;
use proptest::prelude::RngExt;
use proptest::test_runner::TestRng;

/// How adventurous the generator is.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Deepest ordinary expression/subquery nesting.
    pub max_depth: usize,
    /// Share (0..1) of odd spellings: quoting quirks, unicode, long names, unknown names.
    pub oddity: f64,
    /// Share of queries wrapped in pathological nesting (hundreds of levels).
    pub deep_share: f64,
    /// Only the constructs every consumer supports: no CTEs, window functions, CAST or scalar
    /// functions (ParSEval's pairs).
    pub plain: bool,
}

impl Style {
    /// Everything the grammar can produce.
    pub const WILD: Style = Style {
        max_depth: 5,
        oddity: 0.15,
        deep_share: 0.02,
        plain: false,
    };
    /// Small, mostly well-formed queries (ParSEval, Spider).
    pub const TAME: Style = Style {
        max_depth: 2,
        oddity: 0.0,
        deep_share: 0.0,
        plain: true,
    };
}

/// One table occurrence in a FROM clause: how columns of it are referred to.
#[derive(Debug, Clone)]
struct InScope {
    qualifier: String,
    columns: Vec<String>,
}

/// A generator over one random stream; `scopes` holds the FROM items of the enclosing queries.
pub struct SqlGen<'a> {
    rng: &'a mut TestRng,
    vocab: &'a Vocabulary,
    style: Style,
    scopes: Vec<Vec<InScope>>,
    depth: usize,
    /// Another engine's dialect whose constructs are mixed in (`fuzz/dialectgen.rs`).
    dialect: Option<&'static str>,
}

impl<'a> SqlGen<'a> {
    pub fn new(rng: &'a mut TestRng, vocab: &'a Vocabulary, style: Style) -> Self {
        SqlGen {
            rng,
            vocab,
            style,
            scopes: Vec::new(),
            depth: 0,
            dialect: None,
        }
    }

    /// The generator with `dialect`'s constructs mixed in.
    pub fn in_dialect(self, dialect: &'static str) -> Self {
        SqlGen {
            dialect: Some(dialect),
            ..self
        }
    }

    pub fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p.clamp(0.0, 1.0))
    }

    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            self.rng.random_range(0..n)
        }
    }

    fn pick<'s>(&mut self, items: &'s [&'s str]) -> &'s str {
        items[self.below(items.len())]
    }

    /// An aggregate function name (the five standard ones in the plain style).
    fn aggregate(&mut self) -> &'static str {
        let n = if self.style.plain {
            5
        } else {
            AGGREGATES.len()
        };
        AGGREGATES[self.below(n)]
    }

    fn odd(&mut self) -> bool {
        self.style.oddity > 0.0 && self.chance(self.style.oddity)
    }

    /// A keyword in random letter case (SQL keywords are case-insensitive).
    fn keyword(&mut self, word: &str) -> String {
        match self.below(8) {
            0 => word.to_lowercase(),
            1 if self.odd() => word
                .chars()
                .enumerate()
                .map(|(i, c)| {
                    if i % 2 == 0 {
                        c.to_ascii_lowercase()
                    } else {
                        c
                    }
                })
                .collect(),
            _ => word.to_string(),
        }
    }

    /// Whitespace between tokens: usually a space, sometimes newlines, tabs or comments.
    fn gap(&mut self) -> &'static str {
        if !self.odd() {
            return " ";
        }
        ["\n", "\t", "  ", " /* c */ ", " -- c\n", "\r\n"][self.below(6)]
    }

    /// A complete query text, possibly with a trailing semicolon or a second statement.
    pub fn query_text(&mut self) -> String {
        let mut sql = self.query();
        if self.style.deep_share > 0.0 && self.chance(self.style.deep_share) {
            sql = lexicon::pathological(self.rng, &sql);
        }
        if self.odd() {
            match self.below(4) {
                0 => sql.push(';'),
                1 => sql.push_str(";\n"),
                2 => {
                    let second = self.query();
                    sql = format!("{sql}; {second}");
                }
                _ => sql = format!("{}{sql}", self.gap()),
            }
        }
        sql
    }

    /// A query with optional CTEs, set operations, ORDER BY and LIMIT.
    pub fn query(&mut self) -> String {
        self.depth += 1;
        let mut out = String::new();
        let scopes_before = self.scopes.len();
        if !self.style.plain && self.depth < self.style.max_depth && self.chance(0.08) {
            let n = 1 + self.below(2);
            for i in 0..n {
                let body = self.select_core();
                self.scopes.pop();
                out.push_str(if i == 0 { "WITH " } else { ", " });
                out.push_str(&format!("cte{i} AS ({body})"));
            }
            out.push(' ');
        }
        out.push_str(&self.select_core());
        while self.depth < self.style.max_depth && self.chance(0.12) {
            let op = match self.dialect.is_some() && self.chance(0.2) {
                true => dialectgen::set_operation(self),
                false => ["UNION", "UNION ALL", "INTERSECT", "EXCEPT"][self.below(4)],
            };
            let op = self.keyword(op);
            // the right-hand side sees the same outer scopes as the left-hand side
            let left_scope = self.scopes.pop();
            let rhs = self.select_core();
            self.scopes.pop();
            self.scopes.extend(left_scope);
            out = format!("{out}{}{op}{}{rhs}", self.gap(), self.gap());
        }
        if self.chance(0.3) {
            out.push_str(&format!(" {} ", self.keyword("ORDER BY")));
            let n = 1 + self.below(2);
            let keys: Vec<String> = (0..n).map(|_| self.order_key()).collect();
            out.push_str(&keys.join(", "));
        }
        if self.dialect.is_some() && self.chance(0.15) {
            out.push_str(&dialectgen::limit(self));
        } else if self.chance(0.25) {
            out.push_str(&format!(" {} {}", self.keyword("LIMIT"), self.small_int()));
            if self.chance(0.2) {
                out.push_str(&format!(" {} {}", self.keyword("OFFSET"), self.small_int()));
            }
        }
        self.scopes.truncate(scopes_before);
        self.depth -= 1;
        out
    }

    fn order_key(&mut self) -> String {
        let key = match self.below(4) {
            0 => (1 + self.below(3)).to_string(),
            1 => format!("{}({})", self.aggregate(), self.column()),
            _ => self.column(),
        };
        match self.below(4) {
            0 => format!("{key} {}", self.keyword("DESC")),
            1 => format!("{key} {}", self.keyword("ASC")),
            2 if self.odd() => format!("{key} NULLS LAST"),
            _ => key,
        }
    }

    fn small_int(&mut self) -> String {
        match self.below(10) {
            0 if self.odd() => {
                ["-1", "9223372036854775807", "0", "1e3", "NULL"][self.below(5)].into()
            }
            _ => self.below(20).to_string(),
        }
    }

    /// SELECT [DISTINCT] items FROM ... [WHERE] [GROUP BY [HAVING]]; leaves its FROM scope pushed
    /// (for ORDER BY), the caller pops it.
    fn select_core(&mut self) -> String {
        let from = self.table_list();
        let mut out = self.keyword("SELECT");
        if self.chance(0.15) {
            out.push_str(&format!(" {}", self.keyword("DISTINCT")));
        }
        if self.dialect.is_some() && self.chance(0.04) {
            out.push_str(&dialectgen::select_modifier(self));
        }
        out.push_str(self.gap());
        let items = 1 + self.below(3);
        let mut list = Vec::new();
        for _ in 0..items {
            let item = match self.below(10) {
                0 => "*".to_string(),
                1 => format!(
                    "count({})",
                    if self.chance(0.5) {
                        "*".into()
                    } else {
                        self.column()
                    }
                ),
                2 => format!("{}({})", self.aggregate(), self.column()),
                3 | 4 => self.expr(),
                _ => self.column(),
            };
            if self.chance(0.15) {
                let alias = self.identifier("alias");
                list.push(format!("{item} {} {alias}", self.keyword("AS")));
            } else {
                list.push(item);
            }
        }
        out.push_str(&list.join(", "));
        if let Some(from) = from {
            out.push_str(&format!("{}{} {from}", self.gap(), self.keyword("FROM")));
        }
        if self.chance(0.5) {
            let cond = self.condition();
            out.push_str(&format!("{}{} {cond}", self.gap(), self.keyword("WHERE")));
        }
        if self.chance(0.2) {
            let key = self.column();
            out.push_str(&format!(" {} {key}", self.keyword("GROUP BY")));
            if self.chance(0.3) {
                out.push_str(&format!(", {}", self.column()));
            }
            if self.chance(0.4) {
                let agg = self.aggregate().to_string();
                let col = self.column();
                let op = self.pick(&COMPARISONS[..7]).to_string();
                let lit = self.literal();
                out.push_str(&format!(
                    " {} {agg}({col}) {op} {lit}",
                    self.keyword("HAVING")
                ));
            }
        }
        if self.dialect.is_some() && self.chance(0.06) {
            out.push_str(&dialectgen::qualify(self));
        }
        out
    }

    /// The FROM clause; pushes the scope its columns are read from. `None`: no FROM at all.
    fn table_list(&mut self) -> Option<String> {
        let mut scope = Vec::new();
        if self.vocab.tables.is_empty() || self.chance(0.03) {
            self.scopes.push(scope);
            return None;
        }
        let mut out = self.table_item(&mut scope);
        let joins = match self.below(10) {
            0..=5 => 0,
            6..=8 => 1,
            _ => 2 + self.below(2),
        };
        for _ in 0..joins {
            let kind = [
                "JOIN",
                "INNER JOIN",
                "LEFT JOIN",
                "LEFT OUTER JOIN",
                "CROSS JOIN",
                ",",
            ][self.below(6)];
            let kind = self.keyword(kind);
            let item = self.table_item(&mut scope);
            if kind == "," || kind.eq_ignore_ascii_case("CROSS JOIN") {
                out = format!("{out} {kind} {item}");
                continue;
            }
            self.scopes.push(scope.clone());
            let on = if self.chance(0.8) {
                let (l, r) = (self.column(), self.column());
                format!("{l} = {r}")
            } else {
                self.condition()
            };
            self.scopes.pop();
            out = format!("{out} {kind} {item} {} {on}", self.keyword("ON"));
        }
        self.scopes.push(scope);
        Some(out)
    }

    /// A table (or derived table) with an optional alias, recorded in `scope`.
    fn table_item(&mut self, scope: &mut Vec<InScope>) -> String {
        if !self.style.plain && self.depth < self.style.max_depth && self.chance(0.07) {
            let sub = self.query();
            let alias = format!("sub{}", self.below(100));
            let columns = self.vocab.tables[self.below(self.vocab.tables.len())]
                .1
                .clone();
            scope.push(InScope {
                qualifier: alias.clone(),
                columns,
            });
            return format!("({sub}) AS {alias}");
        }
        let (name, columns) = self.vocab.tables[self.below(self.vocab.tables.len())].clone();
        let rendered = self.identifier(&name);
        let repeated = scope
            .iter()
            .any(|s| s.qualifier.eq_ignore_ascii_case(&name));
        if (self.style.plain && repeated) || self.chance(0.4) {
            let alias = format!("T{}", scope.len() + 1);
            let as_kw = if self.chance(0.7) { " AS" } else { "" };
            scope.push(InScope {
                qualifier: alias.clone(),
                columns,
            });
            format!("{rendered}{as_kw} {alias}")
        } else {
            scope.push(InScope {
                qualifier: name,
                columns,
            });
            rendered
        }
    }

    /// A column reference from the innermost scope (sometimes an outer one, or an unknown name).
    pub fn column(&mut self) -> String {
        let level = match self.scopes.len() {
            0 => None,
            n if n > 1 && self.chance(0.1) => Some(self.below(n)),
            n => Some(n - 1),
        };
        let item = level.and_then(|l| {
            let scope = &self.scopes[l];
            (!scope.is_empty()).then(|| scope[self.rng.random_range(0..scope.len())].clone())
        });
        let Some(item) = item.filter(|i| !i.columns.is_empty()) else {
            return self.identifier("col");
        };
        if self.odd() && self.chance(0.3) {
            return self.identifier("no_such_column");
        }
        let col = item.columns[self.below(item.columns.len())].clone();
        let col = self.identifier(&col);
        let several = self.scopes.last().is_some_and(|s| s.len() > 1);
        if (self.style.plain && several) || self.chance(0.5) {
            format!("{}.{col}", item.qualifier)
        } else {
            col
        }
    }

    /// `name` as written in SQL: plain, or with a quoting quirk, a long or unicode variant.
    pub fn identifier(&mut self, name: &str) -> String {
        if self.dialect.is_some() && self.chance(0.04) {
            return dialectgen::quote(self, name);
        }
        if !self.odd() {
            return if self.chance(0.2) {
                name.to_uppercase()
            } else {
                name.to_string()
            };
        }
        match self.below(9) {
            0 => format!("\"{name}\""),
            1 => format!("`{name}`"),
            2 => format!("[{name}]"),
            3 => format!("\"{name}\"\"quoted\""),
            4 => format!("{name}_{}", "x".repeat(1 + self.below(400))),
            5 => format!("\"{}\"", self.pick(UNICODE_WORDS)),
            6 => self.pick(UNICODE_WORDS).to_string(),
            7 => format!(
                "\"{}\"",
                ["select", "from", "order", "group", "table"][self.below(5)]
            ),
            _ => format!("\"{name} with space\""),
        }
    }

    /// A boolean condition.
    pub fn condition(&mut self) -> String {
        self.depth += 1;
        let deep_enough = self.depth >= self.style.max_depth + 2;
        let out = match if deep_enough {
            self.below(3)
        } else {
            self.below(14)
        } {
            _ if self.dialect.is_some() && !deep_enough && self.chance(0.25) => {
                dialectgen::condition(self)
            }
            0 | 1 => {
                let (l, op, r) = (
                    self.column(),
                    self.pick(COMPARISONS).to_string(),
                    self.literal(),
                );
                format!("{l} {op} {r}")
            }
            2 => {
                let (l, op, r) = (
                    self.column(),
                    self.pick(&COMPARISONS[..7]).to_string(),
                    self.column(),
                );
                format!("{l} {op} {r}")
            }
            3 | 4 => {
                let (a, b) = (self.condition(), self.condition());
                let word = if self.chance(0.5) { "AND" } else { "OR" };
                let op = self.keyword(word);
                format!("{a} {op} {b}")
            }
            5 => format!("{} ({})", self.keyword("NOT"), self.condition()),
            6 => format!("({})", self.condition()),
            7 => {
                let col = self.column();
                let not = if self.chance(0.3) { "NOT " } else { "" };
                if self.depth < self.style.max_depth && self.chance(0.5) {
                    format!("{col} {not}IN ({})", self.query())
                } else {
                    let n = 1 + self.below(4);
                    let list: Vec<String> = (0..n).map(|_| self.literal()).collect();
                    format!("{col} {not}IN ({})", list.join(", "))
                }
            }
            8 if self.depth < self.style.max_depth => {
                let not = if self.chance(0.3) { "NOT " } else { "" };
                format!("{not}EXISTS ({})", self.query())
            }
            9 => {
                let (c, a, b) = (self.column(), self.literal(), self.literal());
                format!("{c} BETWEEN {a} AND {b}")
            }
            10 if !self.style.plain => {
                let c = self.column();
                let pattern = ["'%a%'", "'_b%'", "'%'", "'a\\%' ESCAPE '\\'", "''"][self.below(5)];
                let op = ["LIKE", "NOT LIKE", "GLOB"][self.below(3)];
                format!("{c} {op} {pattern}")
            }
            11 => format!(
                "{} IS {}NULL",
                self.column(),
                if self.chance(0.5) { "NOT " } else { "" }
            ),
            12 => {
                let (l, op, r) = (
                    self.expr(),
                    self.pick(&COMPARISONS[..7]).to_string(),
                    self.expr(),
                );
                format!("{l} {op} {r}")
            }
            _ => self.column(),
        };
        self.depth -= 1;
        out
    }

    /// A scalar expression.
    pub fn expr(&mut self) -> String {
        self.depth += 1;
        let deep_enough = self.depth >= self.style.max_depth + 2;
        let kinds = match (deep_enough, self.style.plain) {
            (true, _) => 2,
            (false, true) => 4,
            (false, false) => 12,
        };
        let out = match self.below(kinds) {
            _ if self.dialect.is_some() && !deep_enough && self.chance(0.3) => {
                let dialect = self.dialect.unwrap_or_default();
                dialectgen::expr(self, dialect)
            }
            0 => self.column(),
            1 => self.literal(),
            3 if self.style.plain => format!("{}({})", self.aggregate(), self.column()),
            2 | 3 => {
                let (a, op, b) = (self.expr(), self.pick(ARITHMETIC).to_string(), self.expr());
                format!("{a} {op} {b}")
            }
            4 => {
                let f = self.pick(FUNCTIONS).to_string();
                let n = 1 + self.below(3);
                let args: Vec<String> = (0..n).map(|_| self.expr()).collect();
                format!("{f}({})", args.join(", "))
            }
            5 => {
                let n = 1 + self.below(3);
                let mut out = self.keyword("CASE");
                if self.chance(0.3) {
                    out.push_str(&format!(" {}", self.column()));
                    for _ in 0..n {
                        out.push_str(&format!(" WHEN {} THEN {}", self.literal(), self.expr()));
                    }
                } else {
                    for _ in 0..n {
                        out.push_str(&format!(" WHEN {} THEN {}", self.condition(), self.expr()));
                    }
                }
                if self.chance(0.5) {
                    out.push_str(&format!(" ELSE {}", self.expr()));
                }
                out.push_str(" END");
                out
            }
            6 => format!("CAST({} AS {})", self.expr(), self.pick(TYPES)),
            7 => format!("({})", self.expr()),
            8 => format!("-{}", self.expr()),
            9 if self.depth < self.style.max_depth => format!("({})", self.query()),
            10 => {
                let f = ["row_number()", "rank()", "sum(1)", "count(*)"][self.below(4)];
                let (p, o) = (self.column(), self.column());
                format!("{f} OVER (PARTITION BY {p} ORDER BY {o})")
            }
            _ => format!("{}({})", self.aggregate(), self.column()),
        };
        self.depth -= 1;
        out
    }

    /// A literal of any kind (odd ones at the oddity rate).
    pub fn literal(&mut self) -> String {
        let wild = self.odd();
        lexicon::literal(self.rng, wild)
    }
}
