//! `sql_plan` text: the plan as indented lines in the style of Calcite's EXPLAIN, columns
//! printed by position in the operator's input (`$0`, `$1`, ...), outer columns as `$cor.name`.

use super::columns::{ColumnId, Columns};
use super::expr::{literal_text, Expr, SubqueryKind};
use super::node::Plan;

/// The EXPLAIN text of `plan`.
pub fn explain(plan: &Plan, columns: &Columns) -> String {
    let mut out = String::new();
    write_plan(plan, columns, 0, &mut out);
    out
}

fn write_plan(plan: &Plan, columns: &Columns, indent: usize, out: &mut String) {
    let input = plan.input_columns();
    let ex = |e: &Expr| expr_text(e, &input, columns, indent);
    let col = |c: ColumnId| column_text(c, &input, columns);
    let attrs: Vec<String> = match plan {
        Plan::TableScan(t) => vec![format!("table=[[{}]]", t.table)],
        Plan::Filter(f) => vec![format!("condition=[{}]", ex(&f.condition))],
        Plan::Project(p) => p
            .items
            .iter()
            .map(|(id, e)| format!("{}=[{}]", columns.name(*id), ex(e)))
            .collect(),
        Plan::Join(j) => vec![
            format!("condition=[{}]", ex(&j.condition)),
            format!("joinType=[{}]", j.kind.name()),
        ],
        Plan::Aggregate(a) => {
            let mut v = vec![format!(
                "group=[{{{}}}]",
                a.group
                    .iter()
                    .map(|g| col(*g).trim_start_matches('$').to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )];
            for c in &a.calls {
                let args: Vec<String> = c.args.iter().map(|x| col(*x)).collect();
                v.push(format!(
                    "{}=[{}({}{})]",
                    columns.name(c.id),
                    c.func.name(),
                    if c.distinct { "DISTINCT " } else { "" },
                    args.join(", ")
                ));
            }
            v
        }
        Plan::Sort(s) => {
            let mut v = Vec::new();
            for (i, k) in s.keys.iter().enumerate() {
                v.push(format!("sort{i}=[{}]", col(k.column)));
            }
            for (i, k) in s.keys.iter().enumerate() {
                let dir = if k.descending { "DESC" } else { "ASC" };
                let nulls = match (k.descending, k.nulls_first) {
                    (false, false) => "-nulls-last",
                    (true, true) => "-nulls-first",
                    _ => "",
                };
                v.push(format!("dir{i}=[{dir}{nulls}]"));
            }
            if let Some(o) = &s.offset {
                v.push(format!("offset=[{}]", ex(o)));
            }
            if let Some(f) = &s.fetch {
                v.push(format!("fetch=[{}]", ex(f)));
            }
            v
        }
        Plan::SetOp(s) => vec![format!("all=[{}]", s.all)],
        Plan::Window(w) => w
            .calls
            .iter()
            .map(|c| format!("{}=[{}]", columns.name(c.id), c.render(&ex)))
            .collect(),
        Plan::Values(v) => vec![format!(
            "tuples=[[{}]]",
            v.rows
                .iter()
                .map(|r| format!(
                    "{{ {} }}",
                    if r.is_empty() {
                        "0".to_string()
                    } else {
                        r.iter().map(&ex).collect::<Vec<_>>().join(", ")
                    }
                ))
                .collect::<Vec<_>>()
                .join(", ")
        )],
    };
    out.push_str(&"  ".repeat(indent));
    out.push_str("Logical");
    out.push_str(plan.kind_name());
    out.push('(');
    out.push_str(&attrs.join(", "));
    out.push_str(")\n");
    for i in plan.inputs() {
        write_plan(i, columns, indent + 1, out);
    }
}

fn column_text(c: ColumnId, input: &[ColumnId], columns: &Columns) -> String {
    match input.iter().position(|x| *x == c) {
        Some(i) => format!("${i}"),
        None => format!("$cor.{}", columns.name(c)),
    }
}

/// An expression with column references printed by input position.
pub fn expr_text(e: &Expr, input: &[ColumnId], columns: &Columns, indent: usize) -> String {
    match e {
        Expr::Column(c) => column_text(*c, input, columns),
        Expr::Literal(l) => literal_text(l),
        Expr::Call(op, args) => format!(
            "{}({})",
            op.name(),
            args.iter()
                .map(|a| expr_text(a, input, columns, indent))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Expr::Subquery(s) => {
            let mut sub = String::new();
            write_plan(&s.plan, columns, indent + 2, &mut sub);
            let name = match s.kind {
                SubqueryKind::Scalar => "$SCALAR_QUERY",
                SubqueryKind::Exists => "EXISTS",
                SubqueryKind::In => "IN",
            };
            let operand: String = s
                .operands
                .iter()
                .map(|o| format!("{}, ", expr_text(o, input, columns, indent)))
                .collect();
            format!("{name}({operand}{{\n{sub}{}}})", "  ".repeat(indent + 1))
        }
    }
}
