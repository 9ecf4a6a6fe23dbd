//! Output branches of a projection: a NULL in each column the output reads (COALESCE, `concat`
//! and `||` part there), a value that case mapping or trimming changes (`upper(name)` against
//! `name`), and a row for and against each condition of a CASE or IIF (`SUM(CASE WHEN major =
//! 'Finance' THEN 1 ELSE 0 END)`), which the predicates' branches never ask for.

use z3::ast::Bool;

use super::execute::{any, Executor};
use super::values::{SymRel, SymVal, Term};
use super::z3_text::z3_string;
use crate::plan::{Expr, Op};

/// Most case-mapping calls, and most CASE / IIF conditions, looked at per projection.
const MAX_CALLS: usize = 8;

/// The text a value must contain for `f` to change it (None: not a case or trim function).
fn changing_text(f: &str) -> Option<&'static str> {
    match f {
        "upper" => Some("a"),
        "lower" => Some("A"),
        "trim" | "ltrim" | "rtrim" => Some(" "),
        _ => None,
    }
}

/// The case-mapping and trim calls of one argument inside `e`.
fn case_calls<'e>(e: &'e Expr, out: &mut Vec<(&'e str, &'e Expr)>) {
    if out.len() >= MAX_CALLS {
        return;
    }
    if let Expr::Call(op, args) = e {
        if let (Op::Function(f), [arg]) = (op, args.as_slice()) {
            if changing_text(f).is_some() {
                out.push((f.as_str(), arg));
            }
        }
        args.iter().for_each(|a| case_calls(a, out));
    }
}

/// The conditions of the CASE and IIF expressions inside `e` (each WHEN, IIF's first argument).
fn case_conditions<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    if out.len() >= MAX_CALLS {
        return;
    }
    if let Expr::Call(op, args) = e {
        match (op, args.as_slice()) {
            (Op::Case, _) => out.extend(args.chunks_exact(2).map(|pair| &pair[0])),
            (Op::Function(f), [condition, _, _]) if f == "iif" => out.push(condition),
            _ => {}
        }
        args.iter().for_each(|a| case_conditions(a, out));
    }
    out.truncate(MAX_CALLS);
}

impl Executor<'_> {
    /// Branches of the projection `items` over `input` (operator number `op`).
    pub(super) fn projection_branches(
        &mut self,
        op: usize,
        items: &[(u32, Expr)],
        input: &SymRel,
        outer: &[(u32, SymVal)],
    ) {
        if self.quiet > 0 {
            return;
        }
        let mut read: Vec<u32> = Vec::new();
        let mut calls = Vec::new();
        let mut conditions = Vec::new();
        for (_, e) in items {
            case_conditions(e, &mut conditions);
            e.for_each_column(&mut |c| {
                if !read.contains(&c) {
                    read.push(c);
                }
            });
            case_calls(e, &mut calls);
        }
        for c in read {
            let Some(p) = input.position(c) else {
                continue; // an outer column
            };
            // a column that cannot be NULL (constant false flags) gets no branch
            let nulls: Vec<Bool> = input
                .rows
                .iter()
                .filter(|r| r.vals[p].null.as_bool() != Some(false))
                .map(|r| Bool::and(&[r.exists.clone(), r.vals[p].null.clone()]))
                .collect();
            if !nulls.is_empty() {
                self.branch(format!("Project#{op} NULL in ${c}"), false, any(nulls));
            }
        }
        // each row's environment, built once for the condition and call branches below
        let envs: Vec<Vec<(u32, SymVal)>> = if conditions.is_empty() && calls.is_empty() {
            Vec::new()
        } else {
            let rows = input.rows.iter();
            rows.map(|r| self.env(&input.cols, &r.vals, outer))
                .collect()
        };
        for (k, condition) in conditions.into_iter().enumerate() {
            let (mut holds, mut fails) = (Vec::new(), Vec::new());
            for (r, env) in input.rows.iter().zip(&envs) {
                let truth = self.truth(condition, env);
                holds.push(Bool::and(&[r.exists.clone(), truth.t.clone()]));
                fails.push(Bool::and(&[r.exists.clone(), truth.t.not()]));
            }
            if !holds.is_empty() {
                self.branch(format!("Project#{op} case {k} holds"), true, any(holds));
                self.branch(format!("Project#{op} case {k} fails"), false, any(fails));
            }
        }
        for (k, (f, arg)) in calls.into_iter().enumerate() {
            let Some(needle) = changing_text(f).and_then(z3_string) else {
                continue;
            };
            let mut hits = Vec::new();
            for (r, env) in input.rows.iter().zip(&envs) {
                let v = self.value(arg, env);
                if let Some(Term::Text(s)) = &v.term {
                    let changes = if f == "upper" || f == "lower" {
                        s.contains(needle.clone())
                    } else {
                        Bool::or(&[needle.prefix(s), needle.suffix(s)])
                    };
                    hits.push(Bool::and(&[r.exists.clone(), v.null.not(), changes]));
                }
            }
            if !hits.is_empty() {
                self.branch(
                    format!("Project#{op} call {k} {f} changes a value"),
                    false,
                    any(hits),
                );
            }
        }
    }
}
