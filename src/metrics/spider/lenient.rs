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
    let mut out: Vec<String> = Vec::with_capacity(toks.len() + 4);
    // clause in effect per parenthesis depth
    let mut clause: Vec<&str> = vec![""];
    // start of the current SELECT item in `out`, per depth
    let mut item_start: Vec<usize> = vec![0];
    let mut aliases: HashMap<String, Vec<String>> = HashMap::new();
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i].as_str();
        let cur = *clause.last().unwrap_or(&"");
        match t {
            "(" => {
                out.push(t.into());
                clause.push("");
                item_start.push(out.len());
                i += 1;
                continue;
            }
            ")" => {
                out.push(t.into());
                if clause.len() > 1 {
                    clause.pop();
                    item_start.pop();
                }
                i += 1;
                continue;
            }
            "select" | "from" | "where" | "group" | "having" | "order" | "limit" | "on" => {
                if let Some(c) = clause.last_mut() {
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
                out.push(t.into());
                if t == "select" {
                    if let Some(s) = item_start.last_mut() {
                        *s = out.len();
                    }
                }
                i += 1;
                continue;
            }
            "join" => {
                if let Some(c) = clause.last_mut() {
                    *c = "from";
                }
            }
            "intersect" | "union" | "except" => {
                if let Some(c) = clause.last_mut() {
                    *c = "";
                }
            }
            _ => {}
        }
        let next = toks.get(i + 1).map(String::as_str);
        match cur {
            "select" if t == "distinct" && item_start.last() == Some(&out.len()) => {
                out.push(t.into());
                if let Some(s) = item_start.last_mut() {
                    *s = out.len();
                }
                i += 1;
                continue;
            }
            "select" if t == "," => {
                out.push(t.into());
                if let Some(s) = item_start.last_mut() {
                    *s = out.len();
                }
                i += 1;
                continue;
            }
            "select" if t == "as" && next.is_some_and(ident) => {
                let start = item_start.last().copied().unwrap_or(0).min(out.len());
                aliases.insert(toks[i + 1].clone(), out[start..].to_vec());
                i += 2;
                continue;
            }
            "from" if t == "," => {
                out.push("join".into());
                i += 1;
                continue;
            }
            "from" if ident(t) && next.is_some_and(ident) => {
                // `table alias` → `table as alias` (only right after from/join/,)
                let prev = out.last().map(String::as_str);
                if matches!(prev, Some("from" | "join")) {
                    out.push(t.into());
                    out.push("as".into());
                    i += 1;
                    continue;
                }
            }
            "where" | "having" | "on" if t == "in" && next == Some("(") => {
                // IN (literal, literal, ...) → IN literal
                let mut j = i + 2;
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
                    out.push("in".into());
                    out.push(vals[0].clone());
                    i = j + 1;
                    continue;
                }
            }
            "order" | "having" | "group" if aliases.contains_key(t) => {
                if let Some(e) = aliases.get(t) {
                    out.extend(e.iter().cloned());
                }
                i += 1;
                continue;
            }
            _ => {}
        }
        out.push(t.into());
        i += 1;
    }
    out
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
