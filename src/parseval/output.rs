//! Output branches of a projection: a NULL in each column the output reads (COALESCE, `concat`
//! and `||` part there) and a value that case mapping or trimming changes (`upper(name)` against
//! `name`), which the predicates' branches never ask for.

use z3::ast::Bool;

use super::execute::{any, Executor};
use super::symbolic::{SymRel, SymVal, Term};
use super::z3_text::z3_string;
use crate::plan::{Expr, Op};

/// Most case-mapping calls looked at per projection.
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
        for (_, e) in items {
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
        for (k, (f, arg)) in calls.into_iter().enumerate() {
            let Some(needle) = changing_text(f).and_then(z3_string) else {
                continue;
            };
            let mut hits = Vec::new();
            for r in &input.rows {
                let env = self.env(&input.cols, &r.vals, outer);
                let v = self.value(arg, &env);
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
