//! Text rewrites the official execution evaluator applies before running queries.

use regex::Regex;
use std::sync::OnceLock;

/// `postprocess`: glue `> =`, `< =`, `! =`.
pub fn postprocess(q: &str) -> String {
    q.replace("> =", ">=")
        .replace("< =", "<=")
        .replace("! =", "!=")
}

/// `replace_cur_year`: `YEAR(CURDATE())` (any case and spacing) becomes `2020`.
pub fn replace_cur_year(q: &str) -> String {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    match RE.get_or_init(|| Regex::new(r"(?i)YEAR\s*\(\s*CURDATE\s*\(\s*\)\s*\)\s*").ok()) {
        Some(re) => re.replace_all(q, "2020").into_owned(),
        None => q.to_string(),
    }
}

/// `remove_distinct`: drops every DISTINCT keyword token (sqlparse tokens, so not inside quotes,
/// quoted identifiers or longer words); the rest of the text is kept byte for byte.
pub fn remove_distinct(q: &str) -> String {
    let b: Vec<char> = q.chars().collect();
    let mut out = String::with_capacity(q.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == '\'' || c == '"' || c == '`' || c == '[' {
            let close = if c == '[' { ']' } else { c };
            let start = i;
            i += 1;
            while i < b.len() && b[i] != close {
                i += 1;
            }
            i = (i + 1).min(b.len());
            out.extend(&b[start..i]);
            continue;
        }
        if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_' || b[i] == '$') {
                i += 1;
            }
            let w: String = b[start..i].iter().collect();
            if !w.eq_ignore_ascii_case("distinct") {
                out.push_str(&w);
            }
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites() {
        assert_eq!(
            remove_distinct("SELECT DISTINCT a, 'distinct' FROM t"),
            "SELECT  a, 'distinct' FROM t"
        );
        assert_eq!(
            remove_distinct("select count(distinct x) from distinctive"),
            "select count( x) from distinctive"
        );
        assert_eq!(postprocess("a > = 1"), "a >= 1");
        assert_eq!(replace_cur_year("year( curdate() ) - x"), "2020- x");
    }
}
