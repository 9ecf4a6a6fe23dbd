//! One SELECT block: FROM, WHERE, GROUP BY/aggregates, HAVING, the select list, DISTINCT,
//! ORDER BY and LIMIT, in that order.

use super::expr::{last_identifier, Alias};
use super::{sort_key, BuildResult, Builder, PlanError, Scope};
use crate::plan::columns::ColumnId;
use crate::plan::expr::{Expr, Literal};
use crate::plan::node::{Aggregate, Filter, Plan, Project, Sort, SortKey};
use sqlparser::ast::{
    self, Distinct, GroupByExpr, OrderByExpr, Select, SelectItem, SelectItemQualifiedWildcardKind,
};

/// One output column of the select list.
struct Item {
    name: String,
    expr: Expr,
    /// True when the item has an explicit alias (a renamed column gets its own id).
    aliased: bool,
}

/// Where an ORDER BY key comes from.
enum OrderTerm {
    /// The i-th select item.
    Output(usize),
    /// An expression not in the select list (sorted on a hidden column, then projected away).
    Extra(Expr),
}

impl Builder<'_> {
    pub(super) fn select(
        &mut self,
        s: &Select,
        order: &[OrderByExpr],
        limit: Option<Expr>,
        offset: Option<Expr>,
        outer: Option<&Scope>,
    ) -> BuildResult<Plan> {
        let distinct = checked_distinct(s, order)?;
        // window calls belong to their own block: a subquery's are planned inside it
        let enclosing = std::mem::take(&mut self.windows.calls);
        let plan = self.select_block(s, order, limit, offset, outer, distinct);
        self.windows.calls = enclosing;
        plan
    }

    fn select_block(
        &mut self,
        s: &Select,
        order: &[OrderByExpr],
        limit: Option<Expr>,
        offset: Option<Expr>,
        outer: Option<&Scope>,
        distinct: bool,
    ) -> BuildResult<Plan> {
        let mut scope = Scope::nested(outer);
        let mut plan = self.plan_from(&s.from, &mut scope)?;
        let aliases = select_aliases(s);
        if let Some(w) = &s.selection {
            plan = self.where_filter(plan, w, &scope, &aliases)?;
        }
        if !self.windows.calls.is_empty() {
            return Err(misplaced_window("WHERE"));
        }
        let mut items = self.select_items(s, &scope, &aliases)?;
        let in_select_list = self.windows.calls.len();
        let group = self.group_by(&s.group_by, &items, &scope, &aliases)?;
        let mut having = match &s.having {
            Some(h) => Some(self.expr(h, &scope, &aliases)?),
            None => None,
        };
        // a new call there, or a select-list window read by position or alias (`GROUP BY 1`)
        let windowed: Vec<ColumnId> = self.windows.calls.iter().map(|c| c.id).collect();
        let reads_window = |e: &Expr| e.columns().iter().any(|c| windowed.contains(c));
        if self.windows.calls.len() > in_select_list
            || group.iter().any(reads_window)
            || having.as_ref().is_some_and(reads_window)
        {
            return Err(misplaced_window("GROUP BY or HAVING"));
        }
        let mut terms = Vec::new();
        for o in order {
            terms.push((self.order_term(&o.expr, &items, &scope, &aliases)?, o));
        }
        plan = self.aggregate_if_needed(plan, group, &mut items, &mut having, &mut terms)?;
        if let Some(h) = having {
            plan = Plan::Filter(Filter {
                input: Box::new(plan),
                condition: h,
            });
        }
        plan = self.window_if_needed(plan);
        let mut project = self.projection(&items);
        let visible = project.len();
        let mut keys = self.order_keys(terms, &mut project);
        let hidden = project.len() > visible;
        let visible_items = if hidden && !distinct {
            renamed_on_top(&mut project, visible, &mut keys)
        } else {
            project[..visible]
                .iter()
                .map(|(id, _)| (*id, Expr::Column(*id)))
                .collect()
        };
        plan = Plan::Project(Project {
            input: Box::new(plan),
            items: project,
        });
        if distinct {
            plan = self.distinct_rows(plan, visible, &mut keys);
        }
        if !keys.is_empty() || limit.is_some() || offset.is_some() {
            plan = sorted(plan, keys, limit, offset);
        }
        if hidden {
            plan = Plan::Project(Project {
                input: Box::new(plan),
                items: visible_items,
            });
        }
        Ok(plan)
    }

    /// WHERE: a filter over the FROM plan; an aggregate in it is an error.
    fn where_filter(
        &mut self,
        plan: Plan,
        w: &ast::Expr,
        scope: &Scope,
        aliases: &[Alias<'_>],
    ) -> BuildResult<Plan> {
        let condition = self.expr(w, scope, aliases)?;
        if condition.has_aggregate() {
            return Err(PlanError::Invalid(
                "aggregate functions are not allowed in WHERE".into(),
            ));
        }
        Ok(Plan::Filter(Filter {
            input: Box::new(plan),
            condition,
        }))
    }

    /// The GROUP BY terms; a number is a select-list position.
    fn group_by(
        &mut self,
        group_by: &GroupByExpr,
        items: &[Item],
        scope: &Scope,
        aliases: &[Alias<'_>],
    ) -> BuildResult<Vec<Expr>> {
        match group_by {
            GroupByExpr::Expressions(exprs, modifiers) => {
                if !modifiers.is_empty() {
                    return Err(PlanError::Unsupported(
                        "GROUP BY modifiers are not supported".into(),
                    ));
                }
                let mut out = Vec::new();
                for e in exprs {
                    out.push(match ordinal(e) {
                        Some(k) => items
                            .get(k.wrapping_sub(1))
                            .map(|i| i.expr.clone())
                            .ok_or_else(|| {
                                PlanError::Invalid(format!("GROUP BY term {k} out of range"))
                            })?,
                        None => self.expr(e, scope, aliases)?,
                    });
                }
                Ok(out)
            }
            GroupByExpr::All(_) => Err(PlanError::Unsupported(
                "GROUP BY ALL is not supported".into(),
            )),
        }
    }

    /// The Aggregate node when the block groups or aggregates anywhere (select list, HAVING,
    /// ORDER BY); the aggregate calls in those expressions become its output columns.
    fn aggregate_if_needed(
        &mut self,
        plan: Plan,
        group: Vec<Expr>,
        items: &mut [Item],
        having: &mut Option<Expr>,
        terms: &mut [(OrderTerm, &OrderByExpr)],
    ) -> BuildResult<Plan> {
        let mut windows = std::mem::take(&mut self.windows.calls);
        let aggregating = !group.is_empty()
            || having.is_some()
            || items.iter().any(|i| i.expr.has_aggregate())
            || terms
                .iter()
                .any(|(t, _)| matches!(t, OrderTerm::Extra(e) if e.has_aggregate()))
            || windows.iter().any(|c| c.exprs().any(Expr::has_aggregate));
        if !aggregating {
            self.windows.calls = windows;
            return Ok(plan);
        }
        let mut targets: Vec<&mut Expr> = items.iter_mut().map(|i| &mut i.expr).collect();
        targets.extend(having.iter_mut());
        for (t, _) in terms.iter_mut() {
            if let OrderTerm::Extra(e) = t {
                targets.push(e);
            }
        }
        // a window call reads the groups: `rank() OVER (ORDER BY count(*) DESC)`
        targets.extend(windows.iter_mut().flat_map(|c| c.exprs_mut()));
        let plan = self.aggregate(plan, group, targets);
        self.windows.calls = windows;
        plan
    }

    /// The projection of the select list: a plain column keeps its id, anything else (or a
    /// renamed column) gets a derived one.
    fn projection(&mut self, items: &[Item]) -> Vec<(ColumnId, Expr)> {
        let mut project: Vec<(ColumnId, Expr)> = Vec::new();
        for item in items {
            let id = match (&item.expr, item.aliased) {
                (Expr::Column(c), false)
                    if self.columns.name(*c).eq_ignore_ascii_case(&item.name) =>
                {
                    *c
                }
                (e, _) => {
                    let ty = e.data_type(&self.columns);
                    let label = e.digest(&self.columns);
                    let not_null = matches!(e, Expr::Column(c) if self.columns.meta(*c).not_null);
                    self.columns.derived(&item.name, ty, label, not_null)
                }
            };
            project.push((id, item.expr.clone()));
        }
        project
    }

    /// The sort keys; an ORDER BY expression outside the select list becomes a hidden column
    /// appended to `project`.
    fn order_keys(
        &mut self,
        terms: Vec<(OrderTerm, &OrderByExpr)>,
        project: &mut Vec<(ColumnId, Expr)>,
    ) -> Vec<SortKey> {
        let mut keys = Vec::new();
        for (term, o) in terms {
            let column = match term {
                OrderTerm::Output(i) => project[i].0,
                OrderTerm::Extra(e) => match e {
                    Expr::Column(c) => {
                        if !project.iter().any(|(id, _)| *id == c) {
                            project.push((c, e));
                        }
                        c
                    }
                    e => {
                        let ty = e.data_type(&self.columns);
                        let label = e.digest(&self.columns);
                        let name = format!("EXPR${}", project.len());
                        let id = self.columns.derived(&name, ty, label, false);
                        project.push((id, e));
                        id
                    }
                },
            };
            keys.push(sort_key(column, o));
        }
        keys
    }

    /// DISTINCT over the first `visible` columns of `plan`. It applies to the select list only;
    /// a hidden ORDER BY column takes one value per distinct row (SQLite picks it; ANY_VALUE
    /// here), so it does not split rows, and `keys` sort on that value.
    fn distinct_rows(&mut self, plan: Plan, visible: usize, keys: &mut [SortKey]) -> Plan {
        let output = plan.output();
        let mut calls = Vec::new();
        for hidden_id in &output[visible..] {
            let call = self.any_value(*hidden_id);
            for k in keys.iter_mut().filter(|k| k.column == *hidden_id) {
                k.column = call.id;
            }
            calls.push(call);
        }
        Plan::Aggregate(Aggregate {
            group: output[..visible].to_vec(),
            input: Box::new(plan),
            calls,
        })
    }

    fn select_items(
        &mut self,
        s: &Select,
        scope: &Scope,
        aliases: &[Alias<'_>],
    ) -> BuildResult<Vec<Item>> {
        let mut items = Vec::new();
        for (i, item) in s.projection.iter().enumerate() {
            match item {
                SelectItem::UnnamedExpr(e) => {
                    let expr = self.expr(e, scope, aliases)?;
                    let name = match (e, &expr) {
                        (ast::Expr::Identifier(_) | ast::Expr::CompoundIdentifier(_), _) => {
                            last_identifier(e).unwrap_or_default()
                        }
                        _ => format!("EXPR${i}"),
                    };
                    items.push(Item {
                        name,
                        expr,
                        aliased: false,
                    });
                }
                SelectItem::ExprWithAlias { expr, alias } => {
                    let position = aliases
                        .iter()
                        .position(|(a, _)| *a == alias.value.to_lowercase())
                        .unwrap_or(aliases.len());
                    items.push(Item {
                        name: alias.value.clone(),
                        expr: self.expr(expr, scope, &aliases[..position])?,
                        aliased: true,
                    });
                }
                SelectItem::ExprWithAliases { .. } => {
                    return Err(PlanError::Unsupported(
                        "multiple aliases for one expression are not supported".into(),
                    ))
                }
                SelectItem::Wildcard(_) => {
                    for (_, id) in scope.star() {
                        items.push(self.column_item(id));
                    }
                }
                SelectItem::QualifiedWildcard(kind, _) => {
                    let name = match kind {
                        SelectItemQualifiedWildcardKind::ObjectName(n) => {
                            super::from::object_name_last(n)
                        }
                        SelectItemQualifiedWildcardKind::Expr(_) => {
                            return Err(PlanError::Unsupported(
                                "unsupported qualified wildcard".into(),
                            ))
                        }
                    };
                    let cols = scope
                        .qualified_star(&name)
                        .ok_or_else(|| PlanError::Invalid(format!("no such table: {name}")))?;
                    for (_, id) in cols {
                        items.push(self.column_item(id));
                    }
                }
            }
        }
        if items.is_empty() {
            return Err(PlanError::Invalid("the select list is empty".into()));
        }
        Ok(items)
    }

    fn column_item(&self, id: ColumnId) -> Item {
        Item {
            name: self.columns.name(id).to_string(),
            expr: Expr::Column(id),
            aliased: false,
        }
    }

    /// An ORDER BY term: an output position, an output alias (SQLite looks at aliases
    /// first), an expression equal to a select item, or another expression.
    fn order_term(
        &mut self,
        e: &ast::Expr,
        items: &[Item],
        scope: &Scope,
        aliases: &[Alias<'_>],
    ) -> BuildResult<OrderTerm> {
        if let Some(k) = ordinal(e) {
            return if k >= 1 && k <= items.len() {
                Ok(OrderTerm::Output(k - 1))
            } else {
                Err(PlanError::Invalid(format!(
                    "ORDER BY term {k} out of range"
                )))
            };
        }
        if let ast::Expr::Identifier(id) = e {
            let name = id.value.to_lowercase();
            if let Some(i) = items
                .iter()
                .position(|it| it.aliased && it.name.to_lowercase() == name)
            {
                return Ok(OrderTerm::Output(i));
            }
        }
        let x = self.expr(e, scope, aliases)?;
        if let Expr::Literal(_) = x {
            return Err(PlanError::Unsupported(
                "ORDER BY a constant is not supported".into(),
            ));
        }
        Ok(match items.iter().position(|it| it.expr == x) {
            Some(i) => OrderTerm::Output(i),
            None => OrderTerm::Extra(x),
        })
    }
}

/// SQLite's error for a window function where none may be.
fn misplaced_window(clause: &str) -> PlanError {
    PlanError::Invalid(format!("misuse of window function in {clause}"))
}

/// The DISTINCT flag of a block, after refusing what the planner does not model (too many
/// terms, DISTINCT ON, TOP, INTO, QUALIFY).
fn checked_distinct(s: &Select, order: &[OrderByExpr]) -> BuildResult<bool> {
    let group_terms = match &s.group_by {
        GroupByExpr::Expressions(e, _) => e.len(),
        GroupByExpr::All(_) => 0,
    };
    if [s.projection.len(), order.len(), group_terms]
        .iter()
        .any(|&n| n > super::MAX_LIST_TERMS)
    {
        return Err(PlanError::Limit(format!(
            "at most {} terms in a select list, GROUP BY or ORDER BY",
            super::MAX_LIST_TERMS
        )));
    }
    let distinct = match &s.distinct {
        None | Some(Distinct::All) => false,
        Some(Distinct::Distinct) => true,
        Some(Distinct::On(_)) => {
            return Err(PlanError::Unsupported(
                "DISTINCT ON is not supported".into(),
            ))
        }
    };
    if s.top.is_some() || s.into.is_some() || s.qualify.is_some() {
        return Err(PlanError::Unsupported(
            "TOP, INTO and QUALIFY are not supported".into(),
        ));
    }
    Ok(distinct)
}

/// The top Project's items when a hidden ORDER BY column makes the select list projected twice
/// (below the Sort with the hidden column, above it without): a plain column renamed by its alias
/// (`year AS y ... ORDER BY count(*)`) keeps its input id below the Sort, and `keys` with it, and
/// takes its new name in the top Project only, as an unaliased column does. The Project below
/// then passes its input through and disappears (`merge_projects`), so an alias does not change
/// the plan's shape, only the output name.
fn renamed_on_top(
    project: &mut [(ColumnId, Expr)],
    visible: usize,
    keys: &mut [SortKey],
) -> Vec<(ColumnId, Expr)> {
    let mut top = Vec::with_capacity(visible);
    for k in 0..visible {
        let id = project[k].0;
        let source = match project[k].1 {
            Expr::Column(c) if c != id && !project.iter().any(|(other, _)| *other == c) => c,
            _ => {
                top.push((id, Expr::Column(id)));
                continue;
            }
        };
        project[k] = (source, Expr::Column(source));
        for key in keys.iter_mut().filter(|key| key.column == id) {
            key.column = source;
        }
        top.push((id, Expr::Column(source)));
    }
    top
}

/// The select-list aliases, visible to WHERE, GROUP BY, HAVING and ORDER BY.
fn select_aliases(s: &Select) -> Vec<Alias<'_>> {
    s.projection
        .iter()
        .filter_map(|i| match i {
            SelectItem::ExprWithAlias { expr, alias } => Some((alias.value.to_lowercase(), expr)),
            _ => None,
        })
        .collect()
}

/// A positive integer literal (a select-list position in GROUP BY / ORDER BY).
fn ordinal(e: &ast::Expr) -> Option<usize> {
    match e {
        ast::Expr::Value(v) => match &v.value {
            ast::Value::Number(n, _) => n.parse().ok(),
            _ => None,
        },
        _ => None,
    }
}

fn sorted(plan: Plan, keys: Vec<SortKey>, fetch: Option<Expr>, offset: Option<Expr>) -> Plan {
    let offset = offset.filter(|o| *o != Expr::Literal(Literal::Integer(0)));
    Plan::Sort(Sort {
        input: Box::new(plan),
        keys,
        offset,
        fetch,
    })
}
