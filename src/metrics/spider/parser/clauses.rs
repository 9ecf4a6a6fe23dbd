//! The clauses after FROM (process_sql.py `parse_where`, `parse_group_by`, `parse_having`, `parse_order_by`, `parse_limit`): each returns the index after it, and an empty value when its keyword is absent.

use super::super::ast::*;
use super::super::catalog::Resolver;
use super::super::keywords::is_clause;
use super::super::python::py_int;
use super::super::SpiderError::{self, Assertion};
use super::{at, LimitRule, PResult, Parser};

/// The end of a GROUP BY or ORDER BY list: a clause keyword, `)` or `;`.
fn list_end(t: &str) -> bool {
    is_clause(t) || t == ")" || t == ";"
}

impl<R: Resolver> Parser<'_, R> {
    pub(super) fn parse_where(
        &mut self,
        toks: &[String],
        idx: usize,
        dt: &[String],
    ) -> PResult<(usize, Condition)> {
        if idx < toks.len() && toks[idx] == "where" {
            return self.parse_condition(toks, idx + 1, dt);
        }
        Ok((idx, Condition::default()))
    }

    pub(super) fn parse_group_by(
        &mut self,
        toks: &[String],
        mut idx: usize,
        dt: &[String],
    ) -> PResult<(usize, Vec<ColUnit>)> {
        let len = toks.len();
        let mut group_by = Vec::new();
        if idx < len && toks[idx] == "group" {
            idx += 1;
            if at(toks, idx)? != "by" {
                return Err(Assertion("expected 'by' after 'group'".into()));
            }
            idx += 1;
            while idx < len && !list_end(&toks[idx]) {
                let (i, cu) = self.parse_col_unit(toks, idx, dt)?;
                idx = i;
                group_by.push(cu);
                if idx < len && toks[idx] == "," {
                    idx += 1;
                } else {
                    break;
                }
            }
        }
        Ok((idx, group_by))
    }

    pub(super) fn parse_having(
        &mut self,
        toks: &[String],
        idx: usize,
        dt: &[String],
    ) -> PResult<(usize, Condition)> {
        if idx < toks.len() && toks[idx] == "having" {
            return self.parse_condition(toks, idx + 1, dt);
        }
        Ok((idx, Condition::default()))
    }

    pub(super) fn parse_order_by(
        &mut self,
        toks: &[String],
        mut idx: usize,
        dt: &[String],
    ) -> PResult<(usize, Option<OrderBy>)> {
        let len = toks.len();
        if idx >= len || toks[idx] != "order" {
            return Ok((idx, None));
        }
        idx += 1;
        if at(toks, idx)? != "by" {
            return Err(Assertion("expected 'by' after 'order'".into()));
        }
        idx += 1;
        let mut ob = OrderBy {
            dir: Dir::Asc,
            units: Vec::new(),
        };
        while idx < len && !list_end(&toks[idx]) {
            let (i, vu) = self.parse_val_unit(toks, idx, dt)?;
            idx = i;
            ob.units.push(vu);
            if idx < len && (toks[idx] == "asc" || toks[idx] == "desc") {
                ob.dir = if toks[idx] == "asc" {
                    Dir::Asc
                } else {
                    Dir::Desc
                };
                idx += 1;
            }
            if idx < len && toks[idx] == "," {
                idx += 1;
            } else {
                break;
            }
        }
        Ok((idx, Some(ob)))
    }

    /// LIMIT and the token after it, read by the parser's [`LimitRule`].
    pub(super) fn parse_limit(&self, toks: &[String], idx: usize) -> PResult<(usize, Option<i64>)> {
        if idx >= toks.len() || toks[idx] != "limit" {
            return Ok((idx, None));
        }
        let idx = idx + 2;
        let limit = match self.limit {
            LimitRule::AlwaysOne => 1,
            LimitRule::Int => {
                let t = at(toks, idx - 1)?;
                py_int(t).ok_or_else(|| SpiderError::NotAnInt(t.to_string()))?
            }
        };
        Ok((idx, Some(limit)))
    }
}
