//! Lenient mode: rewrites a prediction the official parser rejects into the form it accepts, keeping its meaning.
//!
//! Applied only after the official parse failed, and only with `Options::lenient`. Rewrites (on Spider
//! tokens): backticks dropped; `<>` → `!=`; `LEFT`/`INNER`/`OUTER`/`CROSS`/`RIGHT`/`FULL`/`NATURAL`
//! before JOIN dropped; `FROM a, b` → `FROM a JOIN b`; a table alias without AS gets AS; a column
//! alias (`expr AS n`) is removed from the SELECT list and later uses of `n` are replaced by `expr`;
//! `IN (v1, v2, ...)` over literals → `IN v1` (values are not compared by default anyway);
//! `IS NULL` → `IS 0`, `IS NOT NULL` → `NOT IS 0`; trailing semicolons dropped.

use std::collections::HashMap;

/// Text-level fixes applied before tokenizing.
pub fn pre_tokenize(sql: &str) -> String {
    sql.replace('`', "")
}

fn reserved(t: &str) -> bool {
    super::keywords::is_keyword(t)
        || matches!(
            t,
            "left"
                | "right"
                | "inner"
                | "outer"
                | "cross"
                | "full"
                | "natural"
                | "using"
                | "offset"
                | "null"
        )
}

fn ident(t: &str) -> bool {
    !reserved(t)
        && !t.is_empty()
        && t.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !t.chars().next().is_some_and(|c| c.is_ascii_digit())
}

fn literal(t: &str) -> bool {
    t.contains('"') || super::python::py_float(t).is_some()
}

fn simple_fixes(toks: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i].as_str();
        let next = toks.get(i + 1).map(String::as_str);
        let next2 = toks.get(i + 2).map(String::as_str);
        match t {
            "<" if next == Some(">") => {
                out.push("!=".into());
                i += 2;
                continue;
            }
            "left" | "right" | "inner" | "outer" | "cross" | "full" | "natural"
                if matches!(next, Some("join" | "outer")) =>
            {
                i += 1;
                continue;
            }
            "is" if next == Some("null") => {
                out.extend(["is".to_string(), "0".to_string()]);
                i += 2;
                continue;
            }
            "is" if next == Some("not") && next2 == Some("null") => {
                out.extend(["not".to_string(), "is".to_string(), "0".to_string()]);
                i += 3;
                continue;
            }
            _ => out.push(t.to_string()),
        }
        i += 1;
    }
    while out.last().is_some_and(|t| t == ";") {
        out.pop();
    }
    out
}

/// Token-level rewrites (see the module note).
pub fn rewrite(toks: &[String]) -> Vec<String> {
    let toks = simple_fixes(toks);
    let mut r = Rewriter {
        out: Vec::with_capacity(toks.len() + 4),
        clause: vec![""],
        item_start: vec![0],
        aliases: HashMap::new(),
    };
    let mut i = 0;
    while i < toks.len() {
        // the clause the token is read in: before a JOIN or set operator changes it
        let cur = *r.clause.last().unwrap_or(&"");
        let consumed = match r.structure(&toks[i]) {
            Some(n) => Some(n),
            None => r.clause_rewrite(cur, &toks, i),
        };
        i += match consumed {
            Some(n) => n,
            None => {
                r.out.push(toks[i].clone());
                1
            }
        };
    }
    r.out
}

/// The state of one rewrite: tokens written so far and the clause structure around the next one.
struct Rewriter {
    out: Vec<String>,
    /// Clause in effect per parenthesis depth.
    clause: Vec<&'static str>,
    /// Start of the current SELECT item in `out`, per depth.
    item_start: Vec<usize>,
    /// Column alias → the tokens of its expression.
    aliases: HashMap<String, Vec<String>>,
}

impl Rewriter {
    /// Tracks parentheses and clause keywords. Some(tokens consumed) when the token was written
    /// here; None when it is left to the clause rewrites (JOIN and set operators only switch the
    /// clause).
    fn structure(&mut self, t: &str) -> Option<usize> {
        match t {
            "(" => {
                self.out.push(t.into());
                self.clause.push("");
                self.item_start.push(self.out.len());
                Some(1)
            }
            ")" => {
                self.out.push(t.into());
                if self.clause.len() > 1 {
                    self.clause.pop();
                    self.item_start.pop();
                }
                Some(1)
            }
            "select" | "from" | "where" | "group" | "having" | "order" | "limit" | "on" => {
                if let Some(c) = self.clause.last_mut() {
                    *c = match t {
                        "select" => "select",
                        "from" => "from",
                        "where" => "where",
                        "group" => "group",
                        "having" => "having",
                        "order" => "order",
                        "limit" => "limit",
                        _ => "on",
                    };
                }
                self.out.push(t.into());
                if t == "select" {
                    self.start_item();
                }
                Some(1)
            }
            "join" => {
                if let Some(c) = self.clause.last_mut() {
                    *c = "from";
                }
                None
            }
            "intersect" | "union" | "except" => {
                if let Some(c) = self.clause.last_mut() {
                    *c = "";
                }
                None
            }
            _ => None,
        }
    }

    /// The next SELECT item starts at the end of `out`.
    fn start_item(&mut self) {
        if let Some(s) = self.item_start.last_mut() {
            *s = self.out.len();
        }
    }

    /// The rewrites of token `i` in clause `cur`: column aliases recorded and dropped, `FROM a, b`
    /// and `table alias`, `IN (literals)`, later uses of an alias. Some(tokens consumed) when one
    /// applied.
    fn clause_rewrite(&mut self, cur: &str, toks: &[String], i: usize) -> Option<usize> {
        let t = toks[i].as_str();
        let next = toks.get(i + 1).map(String::as_str);
        match cur {
            "select" if t == "distinct" && self.item_start.last() == Some(&self.out.len()) => {
                self.out.push(t.into());
                self.start_item();
                Some(1)
            }
            "select" if t == "," => {
                self.out.push(t.into());
                self.start_item();
                Some(1)
            }
            "select" if t == "as" && next.is_some_and(ident) => {
                let start = self
                    .item_start
                    .last()
                    .copied()
                    .unwrap_or(0)
                    .min(self.out.len());
                self.aliases
                    .insert(toks[i + 1].clone(), self.out[start..].to_vec());
                Some(2)
            }
            "from" if t == "," => {
                self.out.push("join".into());
                Some(1)
            }
            "from" if ident(t) && next.is_some_and(ident) => {
                // `table alias` → `table as alias` (only right after from/join/,)
                let prev = self.out.last().map(String::as_str);
                if !matches!(prev, Some("from" | "join")) {
                    return None;
                }
                self.out.push(t.into());
                self.out.push("as".into());
                Some(1)
            }
            "where" | "having" | "on" if t == "in" && next == Some("(") => {
                // IN (literal, literal, ...) → IN literal
                let (first, close) = literal_list(toks, i + 2)?;
                self.out.push("in".into());
                self.out.push(first);
                Some(close + 1 - i)
            }
            "order" | "having" | "group" if self.aliases.contains_key(t) => {
                if let Some(e) = self.aliases.get(t) {
                    self.out.extend(e.iter().cloned());
                }
                Some(1)
            }
            _ => None,
        }
    }
}

/// A non-empty list of literals from `toks[start]` closed by `)`: its first value and the index
/// of the `)`.
fn literal_list(toks: &[String], start: usize) -> Option<(String, usize)> {
    let mut j = start;
    let mut vals = Vec::new();
    while j < toks.len() && literal(&toks[j]) {
        vals.push(toks[j].clone());
        j += 1;
        if toks.get(j).map(String::as_str) == Some(",") {
            j += 1;
        } else {
            break;
        }
    }
    if !vals.is_empty() && toks.get(j).map(String::as_str) == Some(")") {
        Some((vals.swap_remove(0), j))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rw(s: &str) -> String {
        rewrite(&super::super::tokenize::tokenize(&pre_tokenize(s)).unwrap()).join(" ")
    }

    #[test]
    fn rewrites() {
        assert_eq!(
            rw("SELECT count(*) AS n FROM t ORDER BY n;"),
            "select count ( * ) from t order by count ( * )"
        );
        assert_eq!(
            rw("SELECT s.a FROM stadium s LEFT JOIN c x ON s.id = x.id"),
            "select s.a from stadium as s join c as x on s.id = x.id"
        );
        assert_eq!(
            rw("SELECT a FROM t WHERE b IN ('x', 'y') AND c <> 1"),
            "select a from t where b in \"x\" and c != 1"
        );
        assert_eq!(
            rw("SELECT a FROM t, u WHERE b IS NOT NULL"),
            "select a from t join u where b not is 0"
        );
    }
}
