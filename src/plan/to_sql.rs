//! A plan printed back as SQLite SQL, one derived table per operator with every column named
//! `c<id>`. Running it next to the original query checks that the rewrite rules keep results
//! (`tests/integration/plan_equivalence.rs`); it is not meant to be pretty.

use super::columns::{ColumnId, Columns};
use super::expr::{literal_text, Expr, Literal, Op, SubqueryKind};
use super::node::{
    over_clause, Aggregate, Join, JoinKind, Plan, Project, SetKind, SetOp, Sort, TableScan, Values,
    Window,
};

/// SQL computing the plan's rows, its output columns named `c<id>` in order.
pub fn to_sql(plan: &Plan, columns: &Columns) -> String {
    let mut w = Writer { columns, next: 0 };
    w.plan(plan)
}

struct Writer<'a> {
    columns: &'a Columns,
    next: usize,
}

fn name(c: ColumnId) -> String {
    format!("c{c}")
}

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

impl Writer<'_> {
    fn alias(&mut self) -> String {
        self.next += 1;
        format!("t{}", self.next)
    }

    /// `SELECT c1, c2 FROM (input) AS t` with the given select list.
    fn select(&mut self, list: &str, input: &Plan, tail: &str) -> String {
        let inner = self.plan(input);
        let t = self.alias();
        format!("SELECT {list} FROM ({inner}) AS {t}{tail}")
    }

    fn plan(&mut self, plan: &Plan) -> String {
        match plan {
            Plan::TableScan(t) => self.table_scan(t),
            Plan::Filter(f) => {
                let cond = self.expr(&f.condition);
                self.select("*", &f.input, &format!(" WHERE {cond}"))
            }
            Plan::Project(p) => self.project(p),
            Plan::Join(j) => self.join(j),
            Plan::Aggregate(a) => self.aggregate(a),
            Plan::Sort(s) => self.sort(s),
            Plan::SetOp(s) => self.set_op(s),
            Plan::Values(v) => self.values(v),
            Plan::Window(w) => self.window(w),
        }
    }

    /// The base table, each column renamed `c<id>` (a column without an origin is NULL).
    fn table_scan(&self, t: &TableScan) -> String {
        let list: Vec<String> = t
            .columns
            .iter()
            .map(|c| {
                let col = self
                    .columns
                    .meta(*c)
                    .origin
                    .as_ref()
                    .map_or("NULL".to_string(), |(_, n)| quote(n));
                format!("{col} AS {}", name(*c))
            })
            .collect();
        format!("SELECT {} FROM {}", list.join(", "), quote(&t.table))
    }

    /// The select list, each item named after its column id.
    fn project(&mut self, p: &Project) -> String {
        let mut seen = Vec::new();
        let list: Vec<String> = p
            .items
            .iter()
            .map(|(id, e)| {
                // A column listed twice keeps one name; later ones get a unique alias.
                let alias = if seen.contains(id) {
                    format!("{}_{}", name(*id), seen.len())
                } else {
                    name(*id)
                };
                seen.push(*id);
                format!("{} AS {alias}", self.expr(e))
            })
            .collect();
        self.select(&list.join(", "), &p.input, "")
    }

    /// A join; SEMI and ANTI joins become `[NOT] EXISTS`.
    fn join(&mut self, j: &Join) -> String {
        let (l, r) = (self.plan(&j.left), self.plan(&j.right));
        let (lt, rt) = (self.alias(), self.alias());
        let cond = self.expr(&j.condition);
        match j.kind {
            JoinKind::Semi | JoinKind::Anti => format!(
                "SELECT * FROM ({l}) AS {lt} WHERE {}EXISTS (SELECT 1 FROM ({r}) AS {rt} WHERE {cond})",
                if j.kind == JoinKind::Anti { "NOT " } else { "" }
            ),
            kind => {
                let k = match kind {
                    JoinKind::Left => "LEFT JOIN",
                    JoinKind::Right => "RIGHT JOIN",
                    JoinKind::Full => "FULL JOIN",
                    _ => "JOIN",
                };
                format!("SELECT * FROM ({l}) AS {lt} {k} ({r}) AS {rt} ON {cond}")
            }
        }
    }

    /// GROUP BY with the aggregate calls (ANY_VALUE as MIN); no columns at all is one dummy.
    fn aggregate(&mut self, a: &Aggregate) -> String {
        let mut list: Vec<String> = a
            .group
            .iter()
            .map(|g| format!("{} AS {}", name(*g), name(*g)))
            .collect();
        for c in &a.calls {
            let args: Vec<String> = c.args.iter().map(|x| name(*x)).collect();
            let func = match c.func.name() {
                "ANY_VALUE" => "MIN",
                other => other,
            };
            let body = if args.is_empty() {
                "*".to_string()
            } else {
                args.join(", ")
            };
            list.push(format!(
                "{func}({}{body}) AS {}",
                if c.distinct { "DISTINCT " } else { "" },
                name(c.id)
            ));
        }
        if list.is_empty() {
            list.push("1 AS c_dummy".into());
        }
        let group = if a.group.is_empty() {
            String::new()
        } else {
            format!(
                " GROUP BY {}",
                a.group
                    .iter()
                    .map(|g| name(*g))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        self.select(&list.join(", "), &a.input, &group)
    }

    /// The input's columns, then each window call (NULLS FIRST/LAST spelled out).
    fn window(&mut self, w: &Window) -> String {
        let mut list: Vec<String> = w.input.output().iter().map(|c| name(*c)).collect();
        for c in &w.calls {
            let args: Vec<String> = c.args.iter().map(|a| self.expr(a)).collect();
            let partition: Vec<String> = c.partition.iter().map(|p| self.expr(p)).collect();
            let order: Vec<String> = c
                .order
                .iter()
                .map(|o| {
                    format!(
                        "{} {} NULLS {}",
                        self.expr(&o.expr),
                        if o.descending { "DESC" } else { "ASC" },
                        if o.nulls_first { "FIRST" } else { "LAST" }
                    )
                })
                .collect();
            let body = if args.is_empty() && c.func == "count" {
                "*".to_string()
            } else {
                args.join(", ")
            };
            list.push(format!(
                "{}({body}) {} AS {}",
                c.func,
                over_clause(&partition, &order, c.frame.as_deref()),
                name(c.id)
            ));
        }
        self.select(&list.join(", "), &w.input, "")
    }

    /// ORDER BY with NULLS FIRST/LAST spelled out, then LIMIT/OFFSET.
    fn sort(&mut self, s: &Sort) -> String {
        let keys: Vec<String> = s
            .keys
            .iter()
            .map(|k| {
                format!(
                    "{} {} NULLS {}",
                    name(k.column),
                    if k.descending { "DESC" } else { "ASC" },
                    if k.nulls_first { "FIRST" } else { "LAST" }
                )
            })
            .collect();
        let mut tail = String::new();
        if !keys.is_empty() {
            tail.push_str(&format!(" ORDER BY {}", keys.join(", ")));
        }
        match (&s.fetch, &s.offset) {
            (None, None) => {}
            (f, o) => {
                let f = f.as_ref().map_or("-1".to_string(), |e| self.expr(e));
                tail.push_str(&format!(" LIMIT {f}"));
                if let Some(o) = o {
                    tail.push_str(&format!(" OFFSET {}", self.expr(o)));
                }
            }
        }
        self.select("*", &s.input, &tail)
    }

    /// UNION/INTERSECT/EXCEPT of the inputs, each renamed to the set columns.
    fn set_op(&mut self, s: &SetOp) -> String {
        let op = match (s.kind, s.all) {
            (SetKind::Union, true) => "UNION ALL",
            (SetKind::Union, false) => "UNION",
            (SetKind::Intersect, _) => "INTERSECT",
            (SetKind::Except, _) => "EXCEPT",
        };
        let parts: Vec<String> = s
            .inputs
            .iter()
            .map(|i| {
                let list: Vec<String> = i
                    .output()
                    .iter()
                    .zip(&s.columns)
                    .map(|(from, to)| format!("{} AS {}", name(*from), name(*to)))
                    .collect();
                self.select(&list.join(", "), i, "")
            })
            .collect();
        let t = self.alias();
        format!("SELECT * FROM ({}) AS {t}", parts.join(&format!(" {op} ")))
    }

    /// Literal rows as `SELECT ... UNION ALL ...`; no rows is a `WHERE 0` select.
    fn values(&mut self, v: &Values) -> String {
        if v.columns.is_empty() {
            return if v.rows.is_empty() {
                "SELECT 1 AS c_dummy WHERE 0".into()
            } else {
                "SELECT 1 AS c_dummy".into()
            };
        }
        if v.rows.is_empty() {
            let list: Vec<String> = v
                .columns
                .iter()
                .map(|c| format!("NULL AS {}", name(*c)))
                .collect();
            return format!("SELECT {} WHERE 0", list.join(", "));
        }
        let rows: Vec<String> = v
            .rows
            .iter()
            .map(|r| {
                let list: Vec<String> = r
                    .iter()
                    .zip(&v.columns)
                    .map(|(e, c)| format!("{} AS {}", self.expr(e), name(*c)))
                    .collect();
                format!("SELECT {}", list.join(", "))
            })
            .collect();
        rows.join(" UNION ALL ")
    }

    fn expr(&mut self, e: &Expr) -> String {
        match e {
            Expr::Column(c) => name(*c),
            Expr::Literal(Literal::Boolean(b)) => if *b { "1" } else { "0" }.into(),
            Expr::Literal(Literal::Null) => "NULL".into(),
            Expr::Literal(l) => literal_text(l),
            Expr::Call(op, args) => {
                let a: Vec<String> = args.iter().map(|x| self.expr(x)).collect();
                let bin = |o: &str| format!("({})", a.join(&format!(" {o} ")));
                match op {
                    Op::Eq => bin("="),
                    Op::NotEq => bin("<>"),
                    Op::Lt => bin("<"),
                    Op::LtEq => bin("<="),
                    Op::Gt => bin(">"),
                    Op::GtEq => bin(">="),
                    Op::IsDistinctFrom => bin("IS NOT"),
                    Op::IsNotDistinctFrom => bin("IS"),
                    Op::And => bin("AND"),
                    Op::Or => bin("OR"),
                    Op::Not => format!("(NOT {})", a.join("")),
                    Op::IsNull => format!("({} IS NULL)", a.join("")),
                    Op::IsNotNull => format!("({} IS NOT NULL)", a.join("")),
                    Op::Plus => bin("+"),
                    Op::Minus => bin("-"),
                    Op::Multiply => bin("*"),
                    Op::Divide => bin("/"),
                    Op::Modulo => bin("%"),
                    Op::Concat => bin("||"),
                    Op::Negate => format!("(- {})", a.join("")),
                    Op::Like if a.len() == 3 => format!("({} LIKE {} ESCAPE {})", a[0], a[1], a[2]),
                    Op::Like => bin("LIKE"),
                    Op::Glob => bin("GLOB"),
                    Op::Between if a.len() == 3 => {
                        format!("({} BETWEEN {} AND {})", a[0], a[1], a[2])
                    }
                    Op::InList if !a.is_empty() => format!("({} IN ({}))", a[0], a[1..].join(", ")),
                    Op::Case => {
                        let mut s = String::from("(CASE");
                        let n = a.len();
                        for pair in a[..n.saturating_sub(1)].chunks(2) {
                            if let [w, t] = pair {
                                s.push_str(&format!(" WHEN {w} THEN {t}"));
                            }
                        }
                        if let Some(e) = a.last() {
                            s.push_str(&format!(" ELSE {e}"));
                        }
                        s.push_str(" END)");
                        s
                    }
                    Op::Cast(t) => format!("CAST({} AS {t})", a.join("")),
                    Op::Function(f) if f.starts_with("collate_") => {
                        format!("({} COLLATE {})", a.join(""), &f["collate_".len()..])
                    }
                    Op::Function(f) => format!("{f}({})", a.join(", ")),
                    Op::Aggregate(f, d) => {
                        format!(
                            "{}({}{})",
                            f.name(),
                            if *d { "DISTINCT " } else { "" },
                            a.join(", ")
                        )
                    }
                    Op::Between | Op::InList => "NULL".into(),
                }
            }
            Expr::Subquery(s) => {
                let inner = self.plan(&s.plan);
                match s.kind {
                    SubqueryKind::Scalar => format!("({inner})"),
                    SubqueryKind::Exists => format!("EXISTS ({inner})"),
                    SubqueryKind::In => {
                        let values: Vec<String> = s.operands.iter().map(|o| self.expr(o)).collect();
                        let operand = match values.as_slice() {
                            [] => "NULL".to_string(),
                            [one] => one.clone(),
                            row => format!("({})", row.join(", ")),
                        };
                        format!("({operand} IN ({inner}))")
                    }
                }
            }
        }
    }
}
