//! process_sql.py's recursive-descent parser over Spider tokens, reproducing what it accepts and rejects.
//!
//! Every `assert`, `KeyError`, `IndexError` and `ValueError` of the original is an `Err` here, so a
//! prediction the official parser rejects is rejected too (and then scored as the empty SQL).
//! Quirks kept on purpose: FROM is parsed from the first `from` after the query start (before SELECT),
//! a column-valued operand is parsed from a slice that starts at the operand (so `(col)` fails),
//! text after a complete query is ignored, aliases are collected from every `x as y` in the whole text,
//! and an alias equal to a table name rejects the query. Nesting deeper than [`MAX_DEPTH`] is rejected.

use super::keywords::is_clause;
use std::collections::HashMap;

use super::ast::*;
use super::catalog::Resolver;
use super::python::py_float;
use super::SpiderError::{self, Assertion};

mod clauses;

/// Deepest query nesting accepted (the original is bounded only by Python's recursion limit).
pub const MAX_DEPTH: usize = 48;

type PResult<T> = Result<T, SpiderError>;

/// How LIMIT values are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitRule {
    /// test-suite-sql-eval's process_sql: any token after LIMIT is accepted and stored as 1.
    AlwaysOne,
    /// Spider's original process_sql: `int(token)`, failing otherwise.
    Int,
}

fn at(toks: &[String], i: usize) -> PResult<&str> {
    toks.get(i)
        .map(String::as_str)
        .ok_or(SpiderError::IndexOutOfRange)
}

fn is_join_kw(t: &str) -> bool {
    matches!(t, "join" | "on" | "as")
}

/// The parser state for one query text.
pub struct Parser<'r, R: Resolver> {
    res: &'r mut R,
    aliases: HashMap<String, String>,
    limit: LimitRule,
    depth: usize,
}

/// process_sql.py `get_sql`: scan aliases, then parse from token 0 (trailing tokens are ignored).
pub fn get_sql<R: Resolver>(res: &mut R, toks: &[String], limit: LimitRule) -> PResult<Sql> {
    let mut aliases = HashMap::new();
    for (i, t) in toks.iter().enumerate() {
        if t == "as" {
            let alias = at(toks, i + 1)?;
            // Python's toks[-1] when 'as' is the first token
            let target = if i == 0 {
                at(toks, toks.len() - 1)?
            } else {
                at(toks, i - 1)?
            };
            aliases.insert(alias.to_string(), target.to_string());
        }
    }
    for k in aliases.keys() {
        if res.is_schema_table(k) {
            return Err(Assertion(format!("Alias {k} has the same name in table")));
        }
    }
    let mut p = Parser {
        res,
        aliases,
        limit,
        depth: 0,
    };
    let (_, sql) = p.parse_sql(toks, 0)?;
    Ok(sql)
}

impl<R: Resolver> Parser<'_, R> {
    /// `tables_with_alias[name]`
    fn alias_target(&self, name: &str) -> PResult<String> {
        if let Some(t) = self.aliases.get(name) {
            return Ok(t.clone());
        }
        if self.res.open() || self.res.is_schema_table(name) {
            return Ok(name.to_string());
        }
        Err(SpiderError::KeyError(name.to_string()))
    }

    fn parse_col(
        &mut self,
        toks: &[String],
        start: usize,
        dt: &[String],
    ) -> PResult<(usize, ColRef)> {
        let tok = at(toks, start)?;
        if tok == "*" {
            return Ok((start + 1, ColRef::All));
        }
        if tok.contains('.') {
            let mut parts = tok.split('.');
            let (Some(alias), Some(col), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(SpiderError::TooManyValues(tok.to_string()));
            };
            let table = self.alias_target(alias)?;
            let id = self
                .res
                .qualified(&table, col)
                .ok_or_else(|| SpiderError::KeyError(format!("{table}.{col}")))?;
            return Ok((start + 1, ColRef::Col(id)));
        }
        if dt.is_empty() {
            return Err(Assertion(
                "Default tables should not be None or empty".into(),
            ));
        }
        let tables: Vec<String> = dt
            .iter()
            .map(|a| self.alias_target(a))
            .collect::<PResult<_>>()?;
        match self.res.unqualified(&tables, tok) {
            Some(id) => Ok((start + 1, ColRef::Col(id))),
            None => Err(Assertion(format!("Error col: {tok}"))),
        }
    }

    fn parse_col_unit(
        &mut self,
        toks: &[String],
        start: usize,
        dt: &[String],
    ) -> PResult<(usize, ColUnit)> {
        let len = toks.len();
        let mut idx = start;
        let mut block = false;
        let mut distinct = false;
        if at(toks, idx)? == "(" {
            block = true;
            idx += 1;
        }
        if let Some(agg) = Agg::from_token(at(toks, idx)?) {
            idx += 1;
            if !(idx < len && toks[idx] == "(") {
                return Err(Assertion("expected '(' after aggregate".into()));
            }
            idx += 1;
            if at(toks, idx)? == "distinct" {
                idx += 1;
                distinct = true;
            }
            let (i, col) = self.parse_col(toks, idx, dt)?;
            idx = i;
            if !(idx < len && toks[idx] == ")") {
                return Err(Assertion("expected ')' after aggregate argument".into()));
            }
            idx += 1;
            // as the original: an opening block parenthesis is not closed here
            return Ok((
                idx,
                ColUnit {
                    agg,
                    col,
                    distinct: Some(distinct),
                },
            ));
        }
        if at(toks, idx)? == "distinct" {
            idx += 1;
            distinct = true;
        }
        let (i, col) = self.parse_col(toks, idx, dt)?;
        idx = i;
        if block {
            if at(toks, idx)? != ")" {
                return Err(Assertion("expected ')'".into()));
            }
            idx += 1;
        }
        Ok((
            idx,
            ColUnit {
                agg: Agg::None,
                col,
                distinct: Some(distinct),
            },
        ))
    }

    fn parse_val_unit(
        &mut self,
        toks: &[String],
        start: usize,
        dt: &[String],
    ) -> PResult<(usize, ValUnit)> {
        let len = toks.len();
        let mut idx = start;
        let mut block = false;
        if at(toks, idx)? == "(" {
            block = true;
            idx += 1;
        }
        let (i, left) = self.parse_col_unit(toks, idx, dt)?;
        idx = i;
        let mut op = UnitOp::None;
        let mut right = None;
        if idx < len {
            if let Some(o) = UnitOp::from_token(&toks[idx]) {
                op = o;
                idx += 1;
                let (i, r) = self.parse_col_unit(toks, idx, dt)?;
                idx = i;
                right = Some(r);
            }
        }
        if block {
            if at(toks, idx)? != ")" {
                return Err(Assertion("expected ')'".into()));
            }
            idx += 1;
        }
        Ok((idx, ValUnit { op, left, right }))
    }

    fn parse_table_unit(&mut self, toks: &[String], start: usize) -> PResult<(usize, u32, String)> {
        let key = self.alias_target(at(toks, start)?)?;
        let idx = if start + 1 < toks.len() && toks[start + 1] == "as" {
            start + 3
        } else {
            start + 1
        };
        let id = self
            .res
            .table_id(&key)
            .ok_or_else(|| SpiderError::KeyError(key.to_string()))?;
        Ok((idx, id, key))
    }

    fn parse_value(
        &mut self,
        toks: &[String],
        start: usize,
        dt: &[String],
    ) -> PResult<(usize, Value)> {
        let len = toks.len();
        let mut idx = start;
        let mut block = false;
        if at(toks, idx)? == "(" {
            block = true;
            idx += 1;
        }
        let t = at(toks, idx)?;
        let val = if t == "select" {
            let (i, sql) = self.parse_sql(toks, idx)?;
            idx = i;
            Value::Sql(Box::new(sql))
        } else if t.contains('"') {
            idx += 1;
            Value::Str(t.to_string())
        } else if let Some(f) = py_float(t) {
            idx += 1;
            Value::Number(f)
        } else {
            let mut end = idx;
            while end < len {
                let e = toks[end].as_str();
                if e == "," || e == ")" || e == "and" || is_clause(e) || is_join_kw(e) {
                    break;
                }
                end += 1;
            }
            // the original parses toks[start_idx:end_idx] (from before any '(')
            let (_, cu) = self.parse_col_unit(&toks[start..end], 0, dt)?;
            idx = end;
            Value::Col(cu)
        };
        if block {
            if at(toks, idx)? != ")" {
                return Err(Assertion("expected ')' after value".into()));
            }
            idx += 1;
        }
        Ok((idx, val))
    }

    fn parse_condition(
        &mut self,
        toks: &[String],
        start: usize,
        dt: &[String],
    ) -> PResult<(usize, Condition)> {
        let len = toks.len();
        let mut idx = start;
        let mut cond = Condition::default();
        while idx < len {
            let (i, val_unit) = self.parse_val_unit(toks, idx, dt)?;
            idx = i;
            let mut not = false;
            if at(toks, idx)? == "not" {
                not = true;
                idx += 1;
            }
            let op = if idx < len {
                WhereOp::from_token(&toks[idx])
            } else {
                None
            };
            let Some(op) = op else {
                return Err(Assertion(format!("Error condition: idx: {idx}")));
            };
            idx += 1;
            let (val1, val2);
            if op == WhereOp::Between {
                let (i, v1) = self.parse_value(toks, idx, dt)?;
                idx = i;
                if at(toks, idx)? != "and" {
                    return Err(Assertion("expected 'and' in between".into()));
                }
                idx += 1;
                let (i, v2) = self.parse_value(toks, idx, dt)?;
                idx = i;
                val1 = Some(v1);
                val2 = Some(v2);
            } else {
                let (i, v1) = self.parse_value(toks, idx, dt)?;
                idx = i;
                val1 = Some(v1);
                val2 = None;
            }
            cond.units.push(CondUnit {
                not,
                op,
                val_unit,
                val1,
                val2,
            });
            if idx < len {
                let t = toks[idx].as_str();
                if is_clause(t) || t == ")" || t == ";" || is_join_kw(t) {
                    break;
                }
            }
            if idx < len {
                match toks[idx].as_str() {
                    "and" => {
                        cond.conj.push(Conj::And);
                        idx += 1;
                    }
                    "or" => {
                        cond.conj.push(Conj::Or);
                        idx += 1;
                    }
                    _ => {}
                }
            }
        }
        Ok((idx, cond))
    }

    fn parse_select(
        &mut self,
        toks: &[String],
        start: usize,
        dt: &[String],
    ) -> PResult<(usize, Select)> {
        let len = toks.len();
        let mut idx = start;
        if at(toks, idx)? != "select" {
            return Err(Assertion("'select' not found".into()));
        }
        idx += 1;
        let mut distinct = false;
        if idx < len && toks[idx] == "distinct" {
            idx += 1;
            distinct = true;
        }
        let mut items = Vec::new();
        while idx < len && !is_clause(&toks[idx]) {
            let mut agg = Agg::None;
            if let Some(a) = Agg::from_token(&toks[idx]) {
                agg = a;
                idx += 1;
            }
            let (i, vu) = self.parse_val_unit(toks, idx, dt)?;
            idx = i;
            items.push((agg, vu));
            if idx < len && toks[idx] == "," {
                idx += 1;
            }
        }
        Ok((
            idx,
            Select {
                distinct: Some(distinct),
                items,
            },
        ))
    }

    #[allow(clippy::type_complexity)]
    fn parse_from(
        &mut self,
        toks: &[String],
        start: usize,
    ) -> PResult<(usize, Vec<TableUnit>, Condition, Vec<String>)> {
        let len = toks.len();
        let Some(pos) = toks[start.min(len)..].iter().position(|t| t == "from") else {
            return Err(Assertion("'from' not found".into()));
        };
        let mut idx = start + pos + 1;
        let mut dt: Vec<String> = Vec::new();
        let mut units = Vec::new();
        let mut conds = Condition::default();
        while idx < len {
            let mut block = false;
            if at(toks, idx)? == "(" {
                block = true;
                idx += 1;
            }
            if at(toks, idx)? == "select" {
                let (i, sql) = self.parse_sql(toks, idx)?;
                idx = i;
                units.push(TableUnit::Sql(Box::new(sql)));
            } else {
                if idx < len && toks[idx] == "join" {
                    idx += 1;
                }
                let (i, id, name) = self.parse_table_unit(toks, idx)?;
                idx = i;
                units.push(TableUnit::Table(id));
                dt.push(name);
            }
            if idx < len && toks[idx] == "on" {
                idx += 1;
                let (i, c) = self.parse_condition(toks, idx, &dt)?;
                idx = i;
                if conds.raw_len() > 0 {
                    conds.conj.push(Conj::And);
                }
                conds.units.extend(c.units);
                conds.conj.extend(c.conj);
            }
            if block {
                if at(toks, idx)? != ")" {
                    return Err(Assertion("expected ')' in from".into()));
                }
                idx += 1;
            }
            if idx < len {
                let t = toks[idx].as_str();
                if is_clause(t) || t == ")" || t == ";" {
                    break;
                }
            }
        }
        Ok((idx, units, conds, dt))
    }

    fn skip_semicolon(toks: &[String], mut idx: usize) -> usize {
        while idx < toks.len() && toks[idx] == ";" {
            idx += 1;
        }
        idx
    }

    /// process_sql.py `parse_sql`.
    pub fn parse_sql(&mut self, toks: &[String], start: usize) -> PResult<(usize, Sql)> {
        if self.depth >= MAX_DEPTH {
            return Err(SpiderError::TooDeep);
        }
        self.depth += 1;
        let r = self.parse_sql_inner(toks, start);
        self.depth -= 1;
        r
    }

    fn parse_sql_inner(&mut self, toks: &[String], start: usize) -> PResult<(usize, Sql)> {
        let len = toks.len();
        let mut idx = start;
        let mut block = false;
        if at(toks, idx)? == "(" {
            block = true;
            idx += 1;
        }
        let (from_end, table_units, conds, dt) = self.parse_from(toks, start)?;
        let (_, select) = self.parse_select(toks, idx, &dt)?;
        let (idx, where_) = self.parse_where(toks, from_end, &dt)?;
        let (idx, group_by) = self.parse_group_by(toks, idx, &dt)?;
        let (idx, having) = self.parse_having(toks, idx, &dt)?;
        let (idx, order_by) = self.parse_order_by(toks, idx, &dt)?;
        let (idx, limit) = self.parse_limit(toks, idx)?;
        let mut sql = Sql {
            select,
            from: From { table_units, conds },
            where_,
            group_by,
            having,
            order_by,
            limit,
            ..Sql::default()
        };
        let mut idx = Self::skip_semicolon(toks, idx);
        if block {
            if at(toks, idx)? != ")" {
                return Err(Assertion("expected ')' closing the query".into()));
            }
            idx += 1;
        }
        idx = Self::skip_semicolon(toks, idx);
        if idx < len {
            let op = toks[idx].clone();
            if matches!(op.as_str(), "intersect" | "union" | "except") {
                let (i, sub) = self.parse_sql(toks, idx + 1)?;
                idx = i;
                let sub = Some(Box::new(sub));
                match op.as_str() {
                    "intersect" => sql.intersect = sub,
                    "union" => sql.union = sub,
                    _ => sql.except = sub,
                }
            }
        }
        Ok((idx, sql))
    }
}
