//! Spider's tokenizer: string values become single tokens, the rest is split like NLTK's `word_tokenize`, lower-cased.
//!
//! process_sql.py turns every `'` into `"`, replaces each quoted span by a placeholder, runs NLTK's
//! `word_tokenize` (the `NLTKWordTokenizer` regex cascade), lower-cases the tokens, puts the quoted
//! spans back (original case, with `"` quotes) and glues `!`, `>`, `<` to a following `=`.
//! Since no quote survives into the NLTK step, only its quote-free rules matter; they are reproduced
//! here in the same order. Not reproduced: NLTK's Punkt sentence split that runs first (it only
//! matters for a `.`/`?`/`!` followed by whitespace and a capital, which SQL text practically never has).

use regex::Regex;
use std::sync::OnceLock;

/// One rewrite step of the NLTK cascade.
struct Rule {
    re: Regex,
    rep: &'static str,
}

fn rules() -> &'static [Rule] {
    static RULES: OnceLock<Vec<Rule>> = OnceLock::new();
    RULES.get_or_init(|| {
        // (pattern, replacement) in NLTK's order; quote rules are dropped (no quotes reach this step).
        let table: &[(&str, &str)] = &[
            // starting quotes: unicode quotes and backtick runs
            ("([«“‘„]|[`]+)", " $1 "),
            // punctuation
            (r#"([^\.])(\.)([\]\)}>"'»”’ ]*)\s*$"#, "$1 $2 $3 "),
            (r"([:,])([^\d])", " $1 $2"),
            (r"([:,])$", " $1 "),
            (r"\.{2,}", " $0 "),
            (r"[;@#$%&]", " $0 "),
            ("[\u{2012}-\u{2015}]", " $0 "),
            (r#"([^\.])(\.)([\]\)}>"']*)\s*$"#, "$1 $2$3 "),
            (r"[?!]", " $0 "),
            (r"[*]", " $0 "),
            // parentheses and brackets
            (r"[\]\[\(\)\{\}<>]", " $0 "),
            // double dashes
            (r"--", " -- "),
            // ending unicode quotes
            ("([»”’])", " $1 "),
            // contractions (MacIntyre), case-insensitive
            (r"(?i)\b(can)(not)\b", " $1 $2 "),
            (r"(?i)\b(gim)(me)\b", " $1 $2 "),
            (r"(?i)\b(gon)(na)\b", " $1 $2 "),
            (r"(?i)\b(got)(ta)\b", " $1 $2 "),
            (r"(?i)\b(lem)(me)\b", " $1 $2 "),
            (r"(?i)\b(wan)(na)(\s)", " $1 $2 $3"),
        ];
        table
            .iter()
            .filter_map(|(p, r)| Regex::new(p).ok().map(|re| Rule { re, rep: r }))
            .collect()
    })
}

/// NLTK `word_tokenize` on quote-free text (see the module note on what is reproduced).
pub fn word_tokenize(text: &str) -> Vec<String> {
    let mut t = std::borrow::Cow::Borrowed(text);
    for (i, rule) in rules().iter().enumerate() {
        if i == 13 {
            // NLTK pads with spaces before the ending-quote and contraction rules.
            t = std::borrow::Cow::Owned(format!(" {t} "));
        }
        if let std::borrow::Cow::Owned(s) = rule.re.replace_all(&t, rule.rep) {
            t = std::borrow::Cow::Owned(s);
        }
    }
    t.split_whitespace().map(str::to_string).collect()
}

/// process_sql.py `tokenize`: Err when the quotes are unbalanced (the official `assert`).
pub fn tokenize(sql: &str) -> Result<Vec<String>, String> {
    let chars: Vec<char> = sql
        .chars()
        .map(|c| if c == '\'' { '"' } else { c })
        .collect();
    let quotes: Vec<usize> = chars
        .iter()
        .enumerate()
        .filter(|(_, &c)| c == '"')
        .map(|(i, _)| i)
        .collect();
    if !quotes.len().is_multiple_of(2) {
        return Err("Unexpected quote".into());
    }
    let mut text = String::with_capacity(sql.len() + 16);
    let mut values: Vec<(String, String)> = Vec::with_capacity(quotes.len() / 2);
    let mut last = 0;
    for pair in quotes.chunks(2) {
        let (a, b) = (pair[0], pair[1]);
        text.extend(&chars[last..a]);
        let key = format!("__val_{a}_{b}__");
        text.push_str(&key);
        values.push((key, chars[a..=b].iter().collect()));
        last = b + 1;
    }
    text.extend(&chars[last..]);

    let mut toks: Vec<String> = word_tokenize(&text)
        .into_iter()
        .map(|w| {
            let w = w.to_lowercase();
            match values.iter().find(|(k, _)| *k == w) {
                Some((_, v)) => v.clone(),
                None => w,
            }
        })
        .collect();

    // Glue '!', '>', '<' to a following '='; indices taken once, processed from the end (as the original).
    let eq: Vec<usize> = toks
        .iter()
        .enumerate()
        .filter(|(_, t)| *t == "=")
        .map(|(i, _)| i)
        .collect();
    for &i in eq.iter().rev() {
        let n = toks.len();
        // Python's toks[i-1] wraps to the last token when i == 0.
        let prev = if i == 0 { n - 1 } else { i - 1 };
        if matches!(toks[prev].as_str(), "!" | ">" | "<") {
            let merged = format!("{}=", toks[prev]);
            // toks[:i-1] + [merged] + toks[i+1:]
            let head_end = if i == 0 { n - 1 } else { i - 1 };
            let mut out: Vec<String> = toks[..head_end].to_vec();
            out.push(merged);
            out.extend_from_slice(&toks[(i + 1).min(n)..]);
            toks = out;
        }
    }
    Ok(toks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tk(s: &str) -> Vec<String> {
        tokenize(s).unwrap()
    }

    #[test]
    fn basics() {
        assert_eq!(
            tk("SELECT count(*) FROM singer WHERE a >= 'Ab c'"),
            ["select", "count", "(", "*", ")", "from", "singer", "where", "a", ">=", "\"Ab c\""]
        );
        assert_eq!(tk("a != 1"), ["a", "!=", "1"]);
        assert_eq!(tk("x,y, 1,2"), ["x", ",", "y", ",", "1,2"]);
        assert_eq!(tk("T1.id=T2.id"), ["t1.id=t2.id"]);
        assert_eq!(tk("a <> b;"), ["a", "<", ">", "b", ";"]);
        assert_eq!(tk("select a."), ["select", "a", "."]);
        assert_eq!(tk("cannot"), ["can", "not"]);
        assert!(tokenize("a = 'x").is_err());
    }
}
