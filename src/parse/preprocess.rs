//! Lexical repairs applied to SQL text before sqlparser sees it (quoted text and comments untouched).
//!
//! - `a ! = b` (Spider gold writes `!=` with a space; Spider's own evaluator accepts it) → `a != b`;
//! - identifiers that start with digits, such as the Spider column `18_49_Rating_Share`, which SQLite
//!   only accepts quoted → `` `18_49_Rating_Share` ``.
//!
//! Everything else is copied byte for byte. The scan is a single pass without recursion.

/// Returns `sql` with the repairs above applied.
///
/// ```
/// use sqlsim::parse::preprocess::preprocess;
/// assert_eq!(preprocess("SELECT a FROM t WHERE b ! = 'x ! = y'"), "SELECT a FROM t WHERE b != 'x ! = y'");
/// assert_eq!(preprocess("SELECT 18_49_Rating_Share, 1e5 FROM t"), "SELECT `18_49_Rating_Share`, 1e5 FROM t");
/// ```
pub fn preprocess(sql: &str) -> String {
    let chars: Vec<char> = sql.chars().collect();
    let mut out = String::with_capacity(sql.len() + 8);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\'' | '"' | '`' => {
                let end = quoted_end(&chars, i, c);
                out.extend(&chars[i..end]);
                i = end;
            }
            '[' => {
                let end = quoted_end(&chars, i, ']');
                out.extend(&chars[i..end]);
                i = end;
            }
            '-' if chars.get(i + 1) == Some(&'-') => {
                let end = chars[i..]
                    .iter()
                    .position(|&ch| ch == '\n')
                    .map_or(chars.len(), |p| i + p);
                out.extend(&chars[i..end]);
                i = end;
            }
            '/' if chars.get(i + 1) == Some(&'*') => {
                let end = find_pair(&chars, i + 2, '*', '/').map_or(chars.len(), |p| p + 2);
                out.extend(&chars[i..end]);
                i = end;
            }
            '!' => {
                let mut j = i + 1;
                while j < chars.len() && chars[j].is_whitespace() {
                    j += 1;
                }
                if j > i + 1 && chars.get(j) == Some(&'=') {
                    out.push_str("!=");
                    i = j + 1;
                } else {
                    out.push('!');
                    i += 1;
                }
            }
            d if d.is_ascii_digit() && !continues_word(&chars, i) => {
                let mut j = i;
                while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
                    j += 1;
                }
                let word: String = chars[i..j].iter().collect();
                if is_digit_led_identifier(&word) {
                    out.push('`');
                    out.push_str(&word);
                    out.push('`');
                } else {
                    out.push_str(&word);
                }
                i = j;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// True when the character before `i` makes position `i` part of a longer word or number.
fn continues_word(chars: &[char], i: usize) -> bool {
    i > 0 && {
        let p = chars[i - 1];
        p.is_alphanumeric() || p == '_' || p == '$'
    }
}

/// `18_49_Rating_Share`: digits, then an underscore, then at least one letter somewhere.
/// Plain numbers (`12`, `1e5`, `0x1F`, `1_000` digit separators) are left alone.
fn is_digit_led_identifier(word: &str) -> bool {
    let digits = word.chars().take_while(|c| c.is_ascii_digit()).count();
    word[digits..].starts_with('_') && word[digits..].chars().any(|c| c.is_alphabetic())
}

/// Index just past the closing `close` of a quoted run starting at `start` (doubled quotes escape).
fn quoted_end(chars: &[char], start: usize, close: char) -> usize {
    let mut j = start + 1;
    while j < chars.len() {
        if chars[j] == close {
            if close != ']' && chars.get(j + 1) == Some(&close) {
                j += 2;
                continue;
            }
            return j + 1;
        }
        j += 1;
    }
    chars.len()
}

fn find_pair(chars: &[char], from: usize, a: char, b: char) -> Option<usize> {
    (from..chars.len().saturating_sub(1)).find(|&k| chars[k] == a && chars[k + 1] == b)
}

#[cfg(test)]
mod tests {
    use super::preprocess;

    #[test]
    fn leaves_ordinary_sql_alone() {
        for sql in [
            "SELECT a, 12, 1.5e3, 0x1F FROM t WHERE x != 3",
            "SELECT 'it''s ! = fine' -- ! = comment\nFROM t",
            "SELECT `1_a` /* 2_b ! = */ FROM t",
            "SELECT T1.a FROM t AS T1 WHERE T1.x2_y = 1",
        ] {
            assert_eq!(preprocess(sql), sql);
        }
    }

    #[test]
    fn repairs_quirks() {
        assert_eq!(preprocess("a !\n= b"), "a != b");
        assert_eq!(preprocess("t.18_49_x"), "t.`18_49_x`");
        assert_eq!(preprocess("'unterminated"), "'unterminated");
        assert_eq!(preprocess("é ! = ü"), "é != ü");
    }
}
