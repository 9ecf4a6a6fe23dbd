//! The FROM clause: tables, derived tables, CTE references and joins, with the scope they define.

use super::{deeper, BuildResult, Builder, PlanError, Relation, Scope};
use crate::plan::columns::{ColumnId, ColumnMeta};
use crate::plan::expr::{DataType, Expr, Op};
use crate::plan::node::{Join, JoinKind, Plan, TableScan, Values};
use sqlparser::ast::{JoinConstraint, JoinOperator, ObjectName, TableFactor, TableWithJoins};

/// The declared type of a schema column as a plan type.
pub(super) fn declared_type(ty: &str) -> DataType {
    let t = ty.to_lowercase();
    if t.is_empty() {
        DataType::Any
    } else if t == "number" {
        DataType::Numeric
    } else if t == "boolean" || t == "bool" {
        DataType::Boolean
    } else {
        crate::plan::expr::cast_type(&t)
    }
}

/// The last part of a possibly qualified object name, lower case.
pub(super) fn object_name_last(name: &ObjectName) -> String {
    name.0
        .last()
        .and_then(|p| p.as_ident())
        .map(|i| i.value.to_lowercase())
        .unwrap_or_default()
}

impl Builder<'_> {
    /// The plan of a FROM clause and the relations it makes visible. No FROM reads one empty row.
    pub(super) fn plan_from(
        &mut self,
        from: &[TableWithJoins],
        scope: &mut Scope,
    ) -> BuildResult<Plan> {
        let mut plan: Option<Plan> = None;
        for item in from {
            let p = self.table_with_joins(item, scope)?;
            plan = Some(match plan {
                None => p,
                Some(left) => cross(left, p),
            });
        }
        Ok(plan.unwrap_or_else(|| {
            Plan::Values(Values {
                columns: vec![],
                rows: vec![vec![]],
            })
        }))
    }

    fn table_with_joins(&mut self, twj: &TableWithJoins, scope: &mut Scope) -> BuildResult<Plan> {
        if scope.relations.len() + 1 + twj.joins.len() > super::MAX_JOIN_TABLES {
            return Err(PlanError::Limit(format!(
                "at most {} tables in a join",
                super::MAX_JOIN_TABLES
            )));
        }
        let start = scope.relations.len();
        let mut plan = self.table_factor(&twj.relation, scope)?;
        for join in &twj.joins {
            let before = scope.relations.len();
            let right = self.table_factor(&join.relation, scope)?;
            let (kind, constraint) = match &join.join_operator {
                JoinOperator::Join(c) | JoinOperator::Inner(c) => (JoinKind::Inner, Some(c)),
                JoinOperator::Left(c) | JoinOperator::LeftOuter(c) => (JoinKind::Left, Some(c)),
                JoinOperator::Right(c) | JoinOperator::RightOuter(c) => (JoinKind::Right, Some(c)),
                JoinOperator::FullOuter(c) => (JoinKind::Full, Some(c)),
                JoinOperator::CrossJoin(c) => (JoinKind::Inner, Some(c)),
                JoinOperator::LeftSemi(c) | JoinOperator::Semi(c) => (JoinKind::Semi, Some(c)),
                JoinOperator::LeftAnti(c) | JoinOperator::Anti(c) => (JoinKind::Anti, Some(c)),
                other => {
                    return Err(PlanError::Unsupported(
                        format!("unsupported join: {other:?}")
                            .chars()
                            .take(60)
                            .collect(),
                    ))
                }
            };
            let condition = match constraint {
                None | Some(JoinConstraint::None) => Expr::TRUE,
                Some(JoinConstraint::On(e)) => self.expr(e, scope, &[])?,
                Some(JoinConstraint::Using(names)) => {
                    let names: Vec<String> = names.iter().map(object_name_last).collect();
                    self.using_condition(scope, before, &names)?
                }
                Some(JoinConstraint::Natural) => {
                    let left_names: Vec<String> = scope.relations[..before]
                        .iter()
                        .flat_map(|r| r.columns.iter().map(|(n, _)| n.clone()))
                        .collect();
                    let names: Vec<String> = scope.relations[before..]
                        .iter()
                        .flat_map(|r| r.columns.iter().map(|(n, _)| n.clone()))
                        .filter(|n| left_names.contains(n))
                        .collect();
                    self.using_condition(scope, before, &names)?
                }
            };
            let null_extended = match kind {
                JoinKind::Left => before..scope.relations.len(),
                JoinKind::Right => start..before,
                JoinKind::Full => start..scope.relations.len(),
                _ => 0..0,
            };
            for rel in &mut scope.relations[null_extended] {
                rel.null_extended = true;
            }
            plan = Plan::Join(Join {
                kind,
                left: Box::new(plan),
                right: Box::new(right),
                condition,
            });
        }
        Ok(plan)
    }

    /// `USING (names)`: equalities between the left and right columns of each name; the right
    /// columns are then merged away for unqualified references and `*`.
    fn using_condition(
        &mut self,
        scope: &mut Scope,
        split: usize,
        names: &[String],
    ) -> BuildResult<Expr> {
        let mut terms = Vec::new();
        for name in names {
            let find = |rels: &[Relation]| rels.iter().find_map(|r| r.column(name));
            let l = find(&scope.relations[..split]).ok_or_else(|| {
                PlanError::Invalid(format!("USING column {name} not found on the left"))
            })?;
            let r = find(&scope.relations[split..]).ok_or_else(|| {
                PlanError::Invalid(format!("USING column {name} not found on the right"))
            })?;
            terms.push(Expr::call(Op::Eq, vec![Expr::Column(l), Expr::Column(r)]));
            for rel in &mut scope.relations[split..] {
                if rel.column(name) == Some(r) {
                    rel.merged.push(r);
                }
            }
        }
        Ok(Expr::and(terms))
    }

    fn table_factor(&mut self, factor: &TableFactor, scope: &mut Scope) -> BuildResult<Plan> {
        deeper!(self, {
            match factor {
                TableFactor::Table {
                    name, alias, args, ..
                } => {
                    if args.is_some() {
                        return Err(PlanError::Unsupported(
                            "table-valued functions are not supported".into(),
                        ));
                    }
                    let table = object_name_last(name);
                    let rel_name = alias
                        .as_ref()
                        .map_or(table.clone(), |a| a.name.value.to_lowercase());
                    if let Some((index, q)) = self.cte(&table) {
                        // Each reference plans the CTE afresh, so its columns get their own ids.
                        let plan = self.cte_reference(index, &q, scope.parent)?;
                        self.add_relation(scope, rel_name, &plan, alias);
                        return Ok(plan);
                    }
                    let plan = self.table_scan(&table)?;
                    self.add_relation(scope, rel_name, &plan, alias);
                    Ok(plan)
                }
                TableFactor::Derived {
                    lateral,
                    subquery,
                    alias,
                    ..
                } => {
                    let plan = if *lateral {
                        self.query(subquery, Some(scope))?
                    } else {
                        self.query(subquery, scope.parent)?
                    };
                    let name = alias
                        .as_ref()
                        .map_or(String::new(), |a| a.name.value.to_lowercase());
                    self.add_relation(scope, name, &plan, alias);
                    Ok(plan)
                }
                TableFactor::NestedJoin {
                    table_with_joins,
                    alias,
                } => {
                    if alias.is_some() {
                        return Err(PlanError::Unsupported(
                            "aliased parenthesized joins are not supported".into(),
                        ));
                    }
                    self.table_with_joins(table_with_joins, scope)
                }
                other => Err(PlanError::Unsupported(format!(
                    "unsupported FROM item: {}",
                    other.to_string().chars().take(40).collect::<String>()
                ))),
            }
        })
    }

    /// A scan of schema table `table` with fresh column ids.
    fn table_scan(&mut self, table: &str) -> BuildResult<Plan> {
        let t = self
            .schema
            .table_index(table)
            .ok_or_else(|| PlanError::Invalid(format!("no such table: {table}")))?;
        let table_name = self.schema.tables[t].name.clone();
        let mut ids: Vec<ColumnId> = Vec::new();
        let key = &self.schema.tables[t].primary_key;
        let cols: Vec<_> = self.schema.tables[t]
            .columns
            .iter()
            .filter_map(|&c| Some((self.schema.columns.get(c).cloned()?, key.contains(&c))))
            .collect();
        for (col, in_key) in cols {
            // Declared NOT NULL, or part of the primary key: the SQL standard's rule, which
            // ParSEval's generated databases and real data (Spider's, BIRD's) follow; SQLite alone
            // lets a key column that is not INTEGER PRIMARY KEY hold NULL (plan/build/count.rs).
            let not_null = col.not_null || in_key;
            ids.push(self.columns.add(ColumnMeta {
                name: col.name.clone(),
                ty: declared_type(&col.ty),
                label: format!("{}.{}", table_name.to_lowercase(), col.norm),
                not_null,
                origin: Some((table_name.clone(), col.name.clone())),
            }));
        }
        if ids.is_empty() {
            // A table known only by name (inferred schema with no column referenced): one
            // stand-in column, so `*` and COUNT(*) over it still plan.
            ids.push(self.columns.add(ColumnMeta {
                name: "*".into(),
                ty: DataType::Any,
                label: format!("{}.*", table_name.to_lowercase()),
                not_null: false,
                origin: None,
            }));
        }
        self.check_columns()?;
        Ok(Plan::TableScan(TableScan {
            table: table_name,
            columns: ids,
        }))
    }

    fn add_relation(
        &mut self,
        scope: &mut Scope,
        name: String,
        plan: &Plan,
        alias: &Option<sqlparser::ast::TableAlias>,
    ) {
        let renames: Vec<String> = alias
            .as_ref()
            .map(|a| {
                a.columns
                    .iter()
                    .map(|c| c.name.value.to_lowercase())
                    .collect()
            })
            .unwrap_or_default();
        let columns = plan
            .output()
            .into_iter()
            .enumerate()
            .map(|(i, id)| {
                let n = renames
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| self.columns.name(id).to_lowercase());
                (n, id)
            })
            .collect();
        let table = match plan {
            Plan::TableScan(scan) => Some(scan.table.clone()),
            _ => None,
        };
        scope.relations.push(Relation {
            name,
            columns,
            merged: vec![],
            table,
            null_extended: false,
        });
    }
}

/// An inner join on TRUE (a comma in FROM).
pub(super) fn cross(left: Plan, right: Plan) -> Plan {
    Plan::Join(Join {
        kind: JoinKind::Inner,
        left: Box::new(left),
        right: Box::new(right),
        condition: Expr::TRUE,
    })
}
