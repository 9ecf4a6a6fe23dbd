//! Text between Rust and Z3's string theory: Z3 reads and prints every character outside printable ASCII, and the backslash, as a `\u{hex}` escape, so text goes in escaped and comes out unescaped.

use std::fmt::Write;
use std::str::FromStr;

use z3::ast::String as ZString;

/// Z3's `encoding` parameter, set once per process (`solver.rs`): 8-bit characters, which keep
/// string checks fast; Z3's `unicode` encoding moved the verdicts of the SQL tests' text ranges.
pub const Z3_ENCODING: &str = "ascii";

/// The highest character [`Z3_ENCODING`] holds: Latin-1 (`é`, `ö`, `ñ`) is modelled, text with
/// a character beyond it (`–`, `日本`) is not.
const MAX_Z3_CHAR: u32 = 0xFF;

/// Whether Z3 holds every character of `text` under [`Z3_ENCODING`] (none beyond
/// [`MAX_Z3_CHAR`]): the texts [`z3_string`] writes.
pub fn z3_can_hold(text: &str) -> bool {
    text.chars().all(|c| c as u32 <= MAX_Z3_CHAR)
}

/// `text` as a Z3 string literal of the same characters: each character outside printable ASCII,
/// and the backslash, written as the escape Z3 reads as that one character (raw UTF-8 would
/// reach Z3 as one character per byte, so `'è'` could never equal the query's `'è'`). None when
/// Z3 cannot hold it ([`z3_can_hold`]): such text is not modelled (execution decides it).
pub fn z3_string(text: &str) -> Option<ZString> {
    if !z3_can_hold(text) {
        return None;
    }
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\\' || !(' '..='~').contains(&c) {
            // writing to a String cannot fail
            let _ = write!(escaped, "\\u{{{:x}}}", c as u32);
        } else {
            escaped.push(c);
        }
    }
    ZString::from_str(&escaped).ok()
}

/// The text a Z3 string value stands for: Z3 prints every character outside printable ASCII (and
/// the backslash) as `\u{hex}`, so a model's `"\u{0}"` is the one-character text NUL, not six
/// characters that sort after `'8'`. A malformed escape stays as it is.
pub fn unescape_z3_text(printed: &str) -> String {
    let mut out = String::with_capacity(printed.len());
    let mut rest = printed;
    while let Some(at) = rest.find("\\u{") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 3..];
        let decoded = after.find('}').and_then(|end| {
            let c = u32::from_str_radix(&after[..end], 16)
                .ok()
                .and_then(char::from_u32)?;
            Some((c, end))
        });
        match decoded {
            Some((c, end)) => {
                out.push(c);
                rest = &after[end + 1..];
            }
            None => {
                out.push_str(&rest[at..at + 3]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::Ast;
    use z3::{SatResult, Solver};

    #[test]
    fn z3_escapes_become_the_characters_they_stand_for() {
        assert_eq!(unescape_z3_text("\\u{0}"), "\0");
        assert_eq!(unescape_z3_text("a\\u{5c}b\\u{7f}"), "a\\b\u{7f}");
        assert_eq!(unescape_z3_text("plain 8"), "plain 8");
        assert_eq!(unescape_z3_text("\\u{zz} \\u{"), "\\u{zz} \\u{");
    }

    #[test]
    fn text_outside_ascii_keeps_its_characters_through_z3() {
        for text in [
            "Huitième édition",
            "Ola de frío",
            "a\\u{41}b",
            "Räikkönen ÿ",
        ] {
            let term = z3_string(text).unwrap();
            assert_eq!(
                term.length().simplify().as_i64(),
                Some(text.chars().count() as i64),
                "{text}"
            );
            let solver = Solver::new();
            let x = ZString::new_const("x");
            solver.assert(x.eq(&term));
            assert_eq!(solver.check(), SatResult::Sat);
            let value = solver.get_model().unwrap().eval(&x, true).unwrap();
            assert_eq!(unescape_z3_text(&value.as_string().unwrap()), text);
        }
        for beyond in ["日本", "l 13–10", "😀"] {
            assert!(z3_string(beyond).is_none(), "{beyond}");
            assert!(!z3_can_hold(beyond), "{beyond}");
        }
    }
}
