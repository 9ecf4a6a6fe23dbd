//! Schema inference for schema-less calls: the tables the queries reference and, for each, the
//! columns referenced through it; no types, no constraints.
//!
//! **Policy** (the one rule every schema-less caller follows): the schema is inferred from the
//! queries whose result is computed, and from nothing else.
//!
//! - A *plan* is of one query (`sql_plan`, `relpm`, the GMN graphs): it is inferred from that query
//!   alone (`plan::cached::plan_with_inferred_schema`), so a query's plan, cached per text, is the
//!   same whatever it is compared with (README: "`schema` NULL plans each query against the tables
//!   and columns it references").
//! - A *database* is for every query run on it (`sql_equivalent`, `sql_counterexample`,
//!   `sql_similarity`'s verdict, `parseval_generate`): it is inferred from those queries together
//!   ([`Schema::infer_for_queries`]), so that the gold and the predicted query of a pair see one schema.
//!
//! Unifying the two (inferring a pair's plans from both queries) would change `relpm` and GMN scores
//! (an unqualified column lands on the table the other query names) and break the per-text plan cache.
//!
//! The rules:
//!
//! - **Tables**: every table named in a FROM clause or a join, in order of first appearance, with
//!   the spelling of its first appearance (`name`) and lower case (`norm`); a schema-qualified name
//!   (`main.t`) counts by its last part. CTE names (`WITH x AS (...)`), derived tables
//!   (`(SELECT ...) AS s`) and table functions are *not* tables: columns read through them add
//!   nothing. A CTE name is visible in the query that declares it and in the later CTEs (in its own
//!   body only under `WITH RECURSIVE`).
//! - **Qualified columns** (`T1.name`, `singer.name`) go to what the qualifier names: a table alias
//!   or table name of the innermost SELECT that has it, then the enclosing SELECTs (correlated
//!   subqueries). A qualifier that names a derived table or CTE, or nothing in scope, adds nothing.
//! - **Unqualified columns** go to the innermost SELECT with a FROM clause: to a derived table or
//!   CTE of that FROM whose output names include the column (then nothing is added), otherwise to
//!   the first of its FROM tables that either query references the column through unambiguously
//!   (with a qualifier, or where that table is alone in its FROM), so that gold `T2.cost` and
//!   predicted `cost` land on the same table; otherwise to its first FROM table, which is the
//!   only one when just one table is in scope. `USING (c)` adds `c`
//!   to the tables on both sides of the join.
//! - **Not columns**: `*` and `t.*` add nothing; in GROUP BY, HAVING and ORDER BY a name that is an
//!   alias of the SELECT list (`count(*) AS n ... ORDER BY n`) is the alias; a double-quoted name in
//!   value position (the right side of a comparison, a LIKE pattern, an IN-list item, a BETWEEN
//!   bound) is a string, as SQLite reads `country = "France"`.
//! - Order: tables in order of first appearance; columns in the order the walk meets them, which
//!   is SQL's logical order per SELECT (FROM and join conditions, then the SELECT list, WHERE,
//!   GROUP BY, HAVING, ORDER BY), with ordinals 1, 2, ... in that order. Statements other than
//!   queries add nothing.

mod walker;

use std::collections::HashSet;

use sqlparser::ast::{
    Expr, GroupByExpr, Ident, JoinConstraint, JoinOperator, ObjectName, OrderByKind, Query, Select,
    SelectItem, SetExpr, Statement, TableFactor, TableWithJoins, Visit,
};

use super::Schema;
use walker::Walker;

impl Schema {
    /// The schema the statements reference (see the module documentation for the rules).
    ///
    /// ```
    /// use sqlsim::schema::Schema;
    /// let q = sqlsim::parse::parse_sql("SELECT T1.name FROM singer AS T1 JOIN concert ON T1.id = concert_id").unwrap();
    /// let s = Schema::infer(&q);
    /// let names: Vec<&str> = s.table_columns(0).map(|c| c.name.as_str()).collect();
    /// assert_eq!(names, ["id", "concert_id", "name"]);
    /// assert!(s.table_columns(1).next().is_none());
    /// ```
    pub fn infer(statements: &[Statement]) -> Schema {
        Schema::infer_from(statements)
    }

    /// The schema inferred from several query texts together (the policy for a database shared by
    /// queries, module documentation); texts that do not parse add nothing.
    pub fn infer_for_queries(queries: &[&str]) -> Schema {
        let statements: Vec<_> = queries
            .iter()
            .filter_map(|q| crate::parse::parse_sql(q).ok())
            .flatten()
            .collect();
        Schema::infer(&statements)
    }

    /// [`Schema::infer`] over any sequence of statements, e.g. `gold.iter().chain(&pred)`.
    pub fn infer_from<'a>(statements: impl IntoIterator<Item = &'a Statement>) -> Schema {
        let statements: Vec<&Statement> = statements.into_iter().collect();
        // First pass: the columns referenced unambiguously, which unqualified ones prefer.
        let mut first = Inferer {
            unambiguous_only: true,
            ..Inferer::default()
        };
        for s in &statements {
            first.statement(s);
        }
        let known = first
            .schema
            .columns
            .iter()
            .filter_map(|c| {
                Some((
                    first.schema.tables.get(c.table)?.norm.clone(),
                    c.norm.clone(),
                ))
            })
            .collect();
        let mut inf = Inferer {
            known,
            ..Inferer::default()
        };
        for s in &statements {
            inf.statement(s);
        }
        inf.schema.flatten_keys();
        inf.schema
    }
}

/// One FROM item of a SELECT.
struct Source {
    /// What a qualifier must say to name it: the alias, else the table name (lower case).
    name: String,
    /// The table, when the item is a base table.
    table: Option<usize>,
    /// Lower-case output names of a derived table or CTE; `None` when unknown (`*`).
    outputs: Option<Vec<String>>,
}

/// The names visible inside one SELECT.
#[derive(Default)]
struct Scope {
    sources: Vec<Source>,
    /// Lower-case aliases of the SELECT list.
    aliases: Vec<String>,
}

#[derive(Default)]
struct Inferer {
    schema: Schema,
    /// Enclosing SELECTs, innermost last.
    scopes: Vec<Scope>,
    /// Visible CTEs (lower-case name, outputs), innermost last.
    ctes: Vec<(String, Option<Vec<String>>)>,
    /// First pass: record only unambiguous columns (qualified, or the only table in scope).
    unambiguous_only: bool,
    /// (table, column) pairs, lower case, that some query references unambiguously.
    known: HashSet<(String, String)>,
}

/// Most columns inferred for one table, SQLite's default SQLITE_MAX_COLUMN: each reference is
/// looked up linearly, so tens of thousands of distinct names took seconds; past the bound a name
/// stays unknown and the query fails to plan.
const MAX_INFERRED_COLUMNS: usize = 2_000;

fn lower(id: &Ident) -> String {
    id.value.to_lowercase()
}

fn last_ident(name: &ObjectName) -> Option<&Ident> {
    name.0.last().and_then(|p| p.as_ident())
}

fn constraint(op: &JoinOperator) -> Option<&JoinConstraint> {
    use JoinOperator::*;
    match op {
        Join(c) | Inner(c) | Left(c) | LeftOuter(c) | Right(c) | RightOuter(c) | FullOuter(c)
        | CrossJoin(c) | Semi(c) | LeftSemi(c) | RightSemi(c) | Anti(c) | LeftAnti(c)
        | RightAnti(c) | StraightJoin(c) => Some(c),
        AsOf { constraint, .. } => Some(constraint),
        CrossApply | OuterApply | ArrayJoin | LeftArrayJoin | InnerArrayJoin => None,
    }
}

impl Inferer {
    fn statement(&mut self, s: &Statement) {
        match s {
            Statement::Query(q) => {
                self.query(q);
            }
            Statement::Explain { statement, .. } => self.statement(statement),
            _ => {}
        }
    }

    fn table(&mut self, name: &Ident) -> usize {
        self.schema
            .tables
            .iter()
            .position(|t| t.norm == lower(name))
            .unwrap_or_else(|| self.schema.push_table(&name.value))
    }

    fn column(&mut self, table: usize, name: &Ident) {
        let full = self.schema.tables[table].columns.len() >= MAX_INFERRED_COLUMNS;
        if !full && self.schema.column_index(table, &name.value).is_none() {
            self.schema.push_column(table, &name.value, "");
        }
    }

    /// Walks a query; returns its output names (`None` when unknown).
    fn query(&mut self, q: &Query) -> Option<Vec<String>> {
        let mark = self.ctes.len();
        if let Some(with) = &q.with {
            for cte in &with.cte_tables {
                let name = lower(&cte.alias.name);
                let declared: Option<Vec<String>> = (!cte.alias.columns.is_empty())
                    .then(|| cte.alias.columns.iter().map(|c| lower(&c.name)).collect());
                if with.recursive {
                    self.ctes.push((name.clone(), declared.clone()));
                }
                let outputs = self.query(&cte.query);
                if with.recursive {
                    self.ctes.pop();
                }
                self.ctes.push((name, declared.or(outputs)));
            }
        }
        let (outputs, scope) = self.set_expr(&q.body);
        self.scopes.push(scope);
        if let Some(order_by) = &q.order_by {
            if let OrderByKind::Expressions(exprs) = &order_by.kind {
                for e in exprs {
                    self.walk(&e.expr, true);
                }
            }
        }
        if let Some(limit) = &q.limit_clause {
            self.walk(limit, false);
        }
        self.scopes.pop();
        self.ctes.truncate(mark);
        outputs
    }

    /// Walks a query body; returns its output names and the scope of its leftmost SELECT.
    fn set_expr(&mut self, e: &SetExpr) -> (Option<Vec<String>>, Scope) {
        match e {
            SetExpr::Select(s) => self.select(s),
            SetExpr::Query(q) => (self.query(q), Scope::default()),
            SetExpr::SetOperation { left, right, .. } => {
                let left = self.set_expr(left);
                self.set_expr(right);
                left
            }
            SetExpr::Values(v) => {
                self.walk(v, false);
                (None, Scope::default())
            }
            _ => (None, Scope::default()),
        }
    }

    fn select(&mut self, s: &Select) -> (Option<Vec<String>>, Scope) {
        self.scopes.push(Scope::default());
        for twj in &s.from {
            self.join_tree(twj);
        }
        let mut outputs = Some(Vec::new());
        for item in &s.projection {
            let name = match item {
                SelectItem::ExprWithAlias { alias, .. } => {
                    if let Some(scope) = self.scopes.last_mut() {
                        scope.aliases.push(lower(alias));
                    }
                    Some(lower(alias))
                }
                SelectItem::UnnamedExpr(Expr::Identifier(id)) => Some(lower(id)),
                SelectItem::UnnamedExpr(Expr::CompoundIdentifier(ids)) => ids.last().map(lower),
                SelectItem::UnnamedExpr(_) | SelectItem::ExprWithAliases { .. } => {
                    Some(String::new())
                }
                SelectItem::Wildcard(_) | SelectItem::QualifiedWildcard(..) => None,
            };
            match (name, outputs.as_mut()) {
                (Some(n), Some(o)) => o.push(n),
                _ => outputs = None,
            }
        }
        for item in &s.projection {
            match item {
                SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                    self.walk(e, false)
                }
                SelectItem::ExprWithAliases { expr, .. } => self.walk(expr, false),
                _ => {}
            }
        }
        self.walk(&s.prewhere, false);
        self.walk(&s.selection, false);
        if let GroupByExpr::Expressions(exprs, _) = &s.group_by {
            self.walk(exprs, true);
        }
        self.walk(&s.having, true);
        self.walk(&s.qualify, true);
        self.walk(&s.named_window, true);
        self.walk(&s.sort_by, true);
        let scope = self.scopes.pop().unwrap_or_default();
        (outputs, scope)
    }

    fn join_tree(&mut self, twj: &TableWithJoins) {
        self.factor(&twj.relation);
        for join in &twj.joins {
            let before = self.current_sources();
            self.factor(&join.relation);
            match constraint(&join.join_operator) {
                Some(JoinConstraint::On(e)) => self.walk(e, false),
                Some(JoinConstraint::Using(names)) => {
                    let sources = self.current_sources();
                    let left = self.first_table(0..before, true);
                    let right = self.first_table(before..sources, false);
                    for name in names.iter().filter_map(last_ident) {
                        for t in [left, right].into_iter().flatten() {
                            self.column(t, name);
                        }
                    }
                }
                _ => {}
            }
            if let JoinOperator::AsOf {
                match_condition, ..
            } = &join.join_operator
            {
                self.walk(match_condition, false);
            }
        }
    }

    fn current_sources(&self) -> usize {
        self.scopes.last().map_or(0, |s| s.sources.len())
    }

    /// The base table of the current scope's sources in `range`: the last one or the first one.
    fn first_table(&self, range: std::ops::Range<usize>, last: bool) -> Option<usize> {
        let sources = self.scopes.last()?.sources.get(range)?;
        let mut tables = sources.iter().filter_map(|s| s.table);
        if last {
            tables.next_back()
        } else {
            tables.next()
        }
    }

    fn push_source(&mut self, source: Source) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.sources.push(source);
        }
    }

    fn factor(&mut self, f: &TableFactor) {
        match f {
            TableFactor::Table {
                name, alias, args, ..
            } => {
                let alias = alias.as_ref().map(|a| lower(&a.name));
                let Some(id) = last_ident(name) else { return };
                let cte = (name.0.len() == 1)
                    .then(|| self.ctes.iter().rev().find(|(n, _)| *n == lower(id)))
                    .flatten();
                let source = if let Some((cte_name, outputs)) = cte {
                    Source {
                        name: alias.unwrap_or_else(|| cte_name.clone()),
                        table: None,
                        outputs: outputs.clone(),
                    }
                } else if args.is_some() {
                    Source {
                        name: alias.unwrap_or_else(|| lower(id)),
                        table: None,
                        outputs: None,
                    }
                } else {
                    Source {
                        name: alias.unwrap_or_else(|| lower(id)),
                        table: Some(self.table(id)),
                        outputs: None,
                    }
                };
                self.push_source(source);
            }
            TableFactor::Derived {
                subquery, alias, ..
            } => {
                let outputs = self.query(subquery);
                let (name, outputs) = match alias {
                    Some(a) if !a.columns.is_empty() => (
                        lower(&a.name),
                        Some(a.columns.iter().map(|c| lower(&c.name)).collect()),
                    ),
                    Some(a) => (lower(&a.name), outputs),
                    None => (String::new(), outputs),
                };
                self.push_source(Source {
                    name,
                    table: None,
                    outputs,
                });
            }
            TableFactor::NestedJoin {
                table_with_joins, ..
            } => self.join_tree(table_with_joins),
            other => {
                // Table functions, UNNEST, PIVOT, ...: a FROM item that is no table.
                self.walk(other, false);
                self.push_source(Source {
                    name: String::new(),
                    table: None,
                    outputs: None,
                });
            }
        }
    }

    fn walk<T: Visit>(&mut self, node: &T, aliases: bool) {
        let _ = node.visit(&mut Walker::new(self, aliases));
    }

    fn unqualified(&mut self, id: &Ident, aliases: bool) {
        let n = lower(id);
        if aliases && self.scopes.last().is_some_and(|s| s.aliases.contains(&n)) {
            return;
        }
        let Some(scope) = self.scopes.iter().rev().find(|s| !s.sources.is_empty()) else {
            return;
        };
        let derived = scope
            .sources
            .iter()
            .any(|s| s.table.is_none() && s.outputs.as_ref().is_some_and(|o| o.contains(&n)));
        if derived {
            return;
        }
        if self.unambiguous_only {
            // First pass: only references that cannot belong to another table.
            if let [Source { table: Some(t), .. }] = scope.sources.as_slice() {
                let t = *t;
                self.column(t, id);
            }
            return;
        }
        let tables = || scope.sources.iter().filter_map(|s| s.table);
        let known = |&t: &usize| {
            let norm = self.schema.tables.get(t).map(|t| t.norm.clone());
            norm.is_some_and(|norm| self.known.contains(&(norm, n.clone())))
        };
        if let Some(t) = tables().find(known).or_else(|| tables().next()) {
            self.column(t, id);
        }
    }

    fn qualified(&mut self, qualifier: &Ident, id: &Ident) {
        let q = lower(qualifier);
        let found = self
            .scopes
            .iter()
            .rev()
            .find_map(|s| s.sources.iter().find(|src| src.name == q));
        if let Some(t) = found.and_then(|src| src.table) {
            self.column(t, id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_sql;

    /// The inferred schema as "table(col, col)" strings.
    fn infer(sqls: &[&str]) -> Vec<String> {
        let statements: Vec<Statement> = sqls
            .iter()
            .flat_map(|s| parse_sql(s).unwrap_or_else(|e| panic!("{s}: {e}")))
            .collect();
        let s = Schema::infer(&statements);
        (0..s.tables.len())
            .map(|t| {
                let cols: Vec<&str> = s.table_columns(t).map(|c| c.name.as_str()).collect();
                format!("{}({})", s.tables[t].name, cols.join(", "))
            })
            .collect()
    }

    #[test]
    fn aliases_and_unqualified_columns() {
        assert_eq!(
            infer(&[
                "SELECT T2.name, count(*) FROM concert AS T1 JOIN stadium AS T2 \
                     ON T1.stadium_id = T2.stadium_id WHERE year > 2014 GROUP BY T1.stadium_id"
            ]),
            ["concert(stadium_id, year)", "stadium(stadium_id, name)"]
        );
        assert_eq!(
            infer(&[
                "SELECT * FROM singer",
                "SELECT Name FROM SINGER WHERE singer.Age > 3"
            ]),
            ["singer(Name, Age)"]
        );
    }

    #[test]
    fn unqualified_prefers_a_table_known_from_a_qualified_reference() {
        let gold =
            "SELECT T1.name FROM professionals AS T1 JOIN treatments AS T2 WHERE T2.cost < 3";
        let pred = "SELECT name FROM professionals JOIN treatments WHERE cost < 3";
        let want = ["professionals(name)", "treatments(cost)"];
        assert_eq!(infer(&[gold, pred]), want);
        assert_eq!(infer(&[pred, gold]), want);
        // A single-table subquery is as clear as a qualifier.
        let sub = "SELECT name FROM professionals JOIN treatments WHERE cost < (SELECT avg(cost) FROM treatments)";
        assert_eq!(infer(&[sub]), want);
        // Without a clear reference anywhere, the first FROM table.
        assert_eq!(
            infer(&[pred]),
            ["professionals(name, cost)", "treatments()"]
        );
    }

    #[test]
    fn gold_and_prediction_share_one_schema() {
        assert_eq!(
            infer(&[
                "SELECT name FROM singer",
                "SELECT s.name, s.age FROM singer s ORDER BY age"
            ]),
            ["singer(name, age)"]
        );
    }

    #[test]
    fn ctes_and_derived_tables_are_not_tables() {
        assert_eq!(
            infer(&["WITH top AS (SELECT id, score FROM player WHERE rank < 10) \
                     SELECT t.id, x.total FROM top AS t JOIN (SELECT pid, sum(pts) AS total FROM game GROUP BY pid) AS x \
                     ON t.id = x.pid WHERE score > 3 AND total > 1"]),
            ["player(id, score, rank)", "game(pid, pts)"]
        );
        // Under WITH RECURSIVE the CTE's own name inside its body is the CTE.
        assert_eq!(
            infer(&["WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT n FROM r"]),
            Vec::<String>::new()
        );
    }

    #[test]
    fn correlated_subqueries_and_set_operations() {
        assert_eq!(
            infer(&[
                "SELECT name FROM singer AS s WHERE EXISTS (SELECT 1 FROM concert AS c \
                     WHERE c.singer_id = s.id AND year = 2014) \
                     AND id NOT IN (SELECT singer_id FROM song) \
                     UNION SELECT title FROM album ORDER BY name"
            ]),
            [
                "singer(name, id)",
                "concert(singer_id, year)",
                "song(singer_id)",
                "album(title)"
            ]
        );
    }

    #[test]
    fn not_columns() {
        assert_eq!(
            infer(&[
                "SELECT t.*, count(*) AS n, \"name\" FROM t JOIN u USING (k) \
                     WHERE country = \"France\" AND x IN (\"a\", 'b') AND y LIKE \"%z\" \
                     GROUP BY n HAVING n > 1 ORDER BY n DESC"
            ]),
            ["t(k, name, country, x, y)", "u(k)"]
        );
    }

    #[test]
    fn empty_for_no_tables() {
        assert!(infer(&["SELECT 1", "VALUES (1)"]).is_empty());
        let s = Schema::infer(&[]);
        assert!(s.tables.is_empty() && s.primary_keys.is_empty());
    }
}
