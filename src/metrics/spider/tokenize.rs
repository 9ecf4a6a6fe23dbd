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
enum Rule {
    /// A regex replacement, run only when `gate` (a necessary condition for a match) holds.
    Regex {
        re: Regex,
        rep: &'static str,
        gate: fn(&str) -> bool,
    },
    /// `[chars]` → ` $0 `: every listed character padded with spaces (done without a regex).
    Pad(&'static [char]),
    /// A literal replaced left to right, like the regex of the same literal.
    Literal(&'static str, &'static str),
}

/// The ASCII members of `chars` as a bit set, and whether it has non-ASCII members.
fn char_set(chars: &[char]) -> (u128, bool) {
    chars
        .iter()
        .fold((0, false), |(mask, wide), &c| match c.is_ascii() {
            true => (mask | 1 << (c as u32), wide),
            false => (mask, true),
        })
}

fn in_set(c: char, (mask, wide): (u128, bool), chars: &[char]) -> bool {
    match c.is_ascii() {
        true => mask >> (c as u32) & 1 == 1,
        false => wide && chars.contains(&c),
    }
}

/// Whether `t` contains any of `chars` (ASCII members tested on bytes).
fn has_any(t: &str, chars: &[char]) -> bool {
    let (mask, wide) = char_set(chars);
    t.bytes().any(|b| b < 128 && mask >> b & 1 == 1)
        || (wide && !t.is_ascii() && t.chars().any(|c| !c.is_ascii() && chars.contains(&c)))
}

/// Case-insensitive (ASCII) substring test; exact for the contraction rules, whose letters have no
/// non-ASCII case variants.
fn has_word(t: &str, word: &str) -> bool {
    t.as_bytes()
        .windows(word.len())
        .any(|w| w.eq_ignore_ascii_case(word.as_bytes()))
}

/// Necessary for the two final-period rules: after the last `.` only closing punctuation and space.
fn final_period(t: &str) -> bool {
    t.rfind('.').is_some_and(|i| {
        t[i + 1..]
            .chars()
            .all(|c| c.is_whitespace() || "])}>\"'»”’".contains(c))
    })
}

fn rules() -> &'static [Rule] {
    static RULES: OnceLock<Vec<Rule>> = OnceLock::new();
    RULES.get_or_init(|| {
        let re = |p: &str, rep: &'static str, gate: fn(&str) -> bool| {
            Regex::new(p).ok().map(|re| Rule::Regex { re, rep, gate })
        };
        // NLTK's order; quote rules are dropped (no quotes reach this step).
        [
            // starting quotes: unicode quotes and backtick runs
            re("([«“‘„]|[`]+)", " $1 ", |t| {
                has_any(t, &['«', '“', '‘', '„', '`'])
            }),
            // punctuation
            re(
                r#"([^\.])(\.)([\]\)}>"'»”’ ]*)\s*$"#,
                "$1 $2 $3 ",
                final_period,
            ),
            re(r"([:,])([^\d])", " $1 $2", |t| has_any(t, &[':', ','])),
            re(r"([:,])$", " $1 ", |t| t.ends_with([':', ','])),
            re(r"\.{2,}", " $0 ", |t| t.contains("..")),
            Some(Rule::Pad(&[';', '@', '#', '$', '%', '&'])),
            Some(Rule::Pad(&['\u{2012}', '\u{2013}', '\u{2014}', '\u{2015}'])),
            re(r#"([^\.])(\.)([\]\)}>"']*)\s*$"#, "$1 $2$3 ", final_period),
            Some(Rule::Pad(&['?', '!'])),
            Some(Rule::Pad(&['*'])),
            // parentheses and brackets
            Some(Rule::Pad(&[']', '[', '(', ')', '{', '}', '<', '>'])),
            // double dashes
            Some(Rule::Literal("--", " -- ")),
            // ending unicode quotes
            Some(Rule::Pad(&['»', '”', '’'])),
            // contractions (MacIntyre), case-insensitive
            re(r"(?i)\b(can)(not)\b", " $1 $2 ", |t| has_word(t, "cannot")),
            re(r"(?i)\b(gim)(me)\b", " $1 $2 ", |t| has_word(t, "gimme")),
            re(r"(?i)\b(gon)(na)\b", " $1 $2 ", |t| has_word(t, "gonna")),
            re(r"(?i)\b(got)(ta)\b", " $1 $2 ", |t| has_word(t, "gotta")),
            re(r"(?i)\b(lem)(me)\b", " $1 $2 ", |t| has_word(t, "lemme")),
            re(r"(?i)\b(wan)(na)(\s)", " $1 $2 $3", |t| {
                has_word(t, "wanna")
            }),
        ]
        .into_iter()
        .flatten()
        .collect()
    })
}

/// Applies one rule; `None` when the text is unchanged.
fn apply(rule: &Rule, t: &str) -> Option<String> {
    match rule {
        Rule::Regex { re, rep, gate } => match gate(t) {
            true => match re.replace_all(t, *rep) {
                std::borrow::Cow::Owned(s) => Some(s),
                std::borrow::Cow::Borrowed(_) => None,
            },
            false => None,
        },
        Rule::Pad(chars) => has_any(t, chars).then(|| {
            let set = char_set(chars);
            let mut out = String::with_capacity(t.len() + 16);
            for c in t.chars() {
                if in_set(c, set, chars) {
                    out.push(' ');
                    out.push(c);
                    out.push(' ');
                } else {
                    out.push(c);
                }
            }
            out
        }),
        Rule::Literal(from, to) => t.contains(from).then(|| t.replace(from, to)),
    }
}

/// NLTK `word_tokenize` on quote-free text (see the module note on what is reproduced).
pub fn word_tokenize(text: &str) -> Vec<String> {
    let mut t = std::borrow::Cow::Borrowed(text);
    for (i, rule) in rules().iter().enumerate() {
        if i == 13 {
            // NLTK pads with spaces before the ending-quote and contraction rules.
            t = std::borrow::Cow::Owned(format!(" {t} "));
        }
        if let Some(s) = apply(rule, &t) {
            t = std::borrow::Cow::Owned(s);
        }
    }
    t.split_whitespace().map(str::to_string).collect()
}

/// process_sql.py `tokenize`: Err when the quotes are unbalanced (the official `assert`).
pub fn tokenize(sql: &str) -> Result<Vec<String>, super::SpiderError> {
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
        return Err(super::SpiderError::UnbalancedQuotes);
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

    #[test]
    fn rules_without_regex_match_the_regex_cascade() {
        assert_eq!(
            tk("a;b@c#d$e%f&g"),
            ["a", ";", "b", "@", "c", "#", "d", "$", "e", "%", "f", "&", "g"]
        );
        assert_eq!(tk("x—y a?b!c"), ["x", "—", "y", "a", "?", "b", "!", "c"]);
        assert_eq!(
            tk("[a]{b}<c>"),
            ["[", "a", "]", "{", "b", "}", "<", "c", ">"]
        );
        assert_eq!(tk("a---b"), ["a", "--", "-b"]);
        assert_eq!(tk("x”y’"), ["x", "”", "y", "’"]);
        assert_eq!(tk("WannA go"), ["wan", "na", "go"]);
        assert_eq!(tk("t1.a, b.) "), ["t1.a", ",", "b", ".", ")"]);
        assert_eq!(tk("a.b c"), ["a.b", "c"]);
        assert_eq!(tk("a... b:"), ["a", "...", "b", ":"]);
    }
}
