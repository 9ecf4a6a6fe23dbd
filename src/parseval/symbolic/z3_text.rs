//! Text between Rust and Z3's string theory: Z3 reads and prints every character outside printable ASCII, and the backslash, as a `\u{hex}` escape, so text goes in escaped and comes out unescaped; a character beyond Z3's 8 bits goes in as a stand-in of its search's alphabet.

use std::cell::RefCell;
use std::fmt::Write;
use std::str::FromStr;

use z3::ast::String as ZString;

/// Z3's `encoding` parameter, set once per process (`search/solver.rs`): 8-bit characters, which keep
/// string checks fast; Z3's `unicode` encoding moved the verdicts of the SQL tests' text ranges.
pub const Z3_ENCODING: &str = "ascii";

/// The highest character [`Z3_ENCODING`] holds: Latin-1 (`é`, `ö`, `ñ`) is modelled as itself;
/// a character beyond it (`–`, `日本`) through a stand-in ([`STAND_INS`]).
const MAX_Z3_CHAR: u32 = 0xFF;

/// The 8-bit characters that stand for wider ones (Latin-1's C1 control characters, which no
/// query's text uses in practice): the first wide character a search meets is written as
/// U+0080, the next as U+0081, ... So `'l 13–10'` against `'L 13–10'` is modelled, and a
/// generated database can hold either text. Order comparisons between a stand-in and a Latin-1
/// letter may differ from SQLite's; every generated database is run, so that only guides the
/// search. Beyond 32 wide characters in one search a text is not modelled (execution decides).
const STAND_INS: std::ops::RangeInclusive<char> = '\u{80}'..='\u{9f}';

/// The stand-ins of the current search, in the order the wide characters were first met (each
/// `(wide, stand-in)`), and the stand-in characters some text used as themselves (never handed
/// out).
#[derive(Default)]
struct Alphabet {
    stand_ins: Vec<(char, char)>,
    literal: Vec<char>,
}

thread_local! {
    /// The alphabet of the search running on this thread (Z3's context is per thread too).
    static ALPHABET: RefCell<Alphabet> = RefCell::new(Alphabet::default());
}

/// A fresh alphabet of stand-ins for one search ([`crate::parseval::search::generate::generate`]), the previous one
/// restored when dropped: the same search hands out the same stand-ins whatever ran before it
/// on the thread.
pub struct AlphabetScope(Option<Alphabet>);

/// Starts an alphabet for one search; keep the scope alive until its results are read back.
pub fn alphabet_scope() -> AlphabetScope {
    AlphabetScope(Some(ALPHABET.with(|a| a.replace(Alphabet::default()))))
}

impl Drop for AlphabetScope {
    fn drop(&mut self) {
        if let Some(previous) = self.0.take() {
            ALPHABET.with(|a| *a.borrow_mut() = previous);
        }
    }
}

impl Alphabet {
    /// `text` in 8-bit characters, handing out stand-ins for its wide characters; None when a
    /// stand-in character would be ambiguous or none is left.
    fn encode(&mut self, text: &str) -> Option<String> {
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            let written = if STAND_INS.contains(&c) {
                if self.stand_ins.iter().any(|&(_, s)| s == c) {
                    return None;
                }
                if !self.literal.contains(&c) {
                    self.literal.push(c);
                }
                c
            } else if c as u32 <= MAX_Z3_CHAR {
                c
            } else {
                self.stand_in(c)?
            };
            out.push(written);
        }
        Some(out)
    }

    /// The stand-in of the wide character `c`, handing out the next free one on first sight.
    fn stand_in(&mut self, c: char) -> Option<char> {
        if let Some(&(_, s)) = self.stand_ins.iter().find(|&&(w, _)| w == c) {
            return Some(s);
        }
        let mut candidates = STAND_INS;
        let free = candidates
            .find(|s| !self.literal.contains(s) && !self.stand_ins.iter().any(|&(_, t)| t == *s))?;
        self.stand_ins.push((c, free));
        Some(free)
    }

    /// The character the 8-bit `c` stands for.
    fn decode(&self, c: char) -> char {
        self.stand_ins
            .iter()
            .find(|&&(_, s)| s == c)
            .map_or(c, |&(w, _)| w)
    }
}

/// Whether Z3 holds `text` in the current alphabet (handing out stand-ins for its wide
/// characters, as [`z3_string`] would): the texts [`z3_string`] writes.
pub fn z3_can_hold(text: &str) -> bool {
    ALPHABET.with(|a| a.borrow_mut().encode(text)).is_some()
}

/// `text` as a Z3 string literal of the same characters: each character outside printable ASCII,
/// and the backslash, written as the escape Z3 reads as that one character (raw UTF-8 would
/// reach Z3 as one character per byte, so `'è'` could never equal the query's `'è'`), a wide
/// character as its stand-in. None when Z3 cannot hold it ([`z3_can_hold`]): such text is not
/// modelled (execution decides it).
pub fn z3_string(text: &str) -> Option<ZString> {
    let narrow = ALPHABET.with(|a| a.borrow_mut().encode(text))?;
    let mut escaped = String::with_capacity(narrow.len());
    for c in narrow.chars() {
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
/// characters that sort after `'8'`; a stand-in becomes the wide character it stands for. A
/// malformed escape stays as it is.
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
    ALPHABET.with(|a| {
        let a = a.borrow();
        if a.stand_ins.is_empty() {
            out
        } else {
            out.chars().map(|c| a.decode(c)).collect()
        }
    })
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
            assert_eq!(solved(&term), text);
        }
    }

    /// What a solver's model gives back for `term`, read as the extension reads a generated value.
    fn solved(term: &ZString) -> String {
        let solver = Solver::new();
        let x = ZString::new_const("x");
        solver.assert(x.eq(term));
        assert_eq!(solver.check(), SatResult::Sat);
        let value = solver.get_model().unwrap().eval(&x, true).unwrap();
        unescape_z3_text(&value.as_string().unwrap())
    }

    #[test]
    fn wide_characters_go_through_z3_as_stand_ins() {
        let _scope = alphabet_scope();
        let texts = ["l 13–10", "L 13–10", "日本", "😀 – 日"];
        let terms: Vec<ZString> = texts.iter().map(|t| z3_string(t).unwrap()).collect();
        for (text, term) in texts.iter().zip(&terms) {
            assert_eq!(
                term.length().simplify().as_i64(),
                Some(text.chars().count() as i64),
                "{text}"
            );
            assert_eq!(solved(term), *text);
        }
        // two texts that differ only in letter case stay two texts
        let solver = Solver::new();
        solver.assert(terms[0].eq(&terms[1]));
        assert_eq!(solver.check(), SatResult::Unsat);
        // one wide character, one stand-in, whichever text met it first
        assert_eq!(
            ALPHABET.with(|a| a.borrow().stand_ins.clone()),
            vec![
                ('–', '\u{80}'),
                ('日', '\u{81}'),
                ('本', '\u{82}'),
                ('😀', '\u{83}')
            ]
        );
    }

    #[test]
    fn stand_ins_run_out_and_never_shadow_a_text_of_their_own() {
        let _scope = alphabet_scope();
        // a text that uses a stand-in character itself keeps it: the next one is handed out
        assert_eq!(solved(&z3_string("a\u{80}").unwrap()), "a\u{80}");
        assert_eq!(solved(&z3_string("–").unwrap()), "–");
        assert_eq!(
            ALPHABET.with(|a| a.borrow().stand_ins.clone()),
            vec![('–', '\u{81}')]
        );
        // once handed out, a stand-in character in a text would be read back as the wide one
        assert!(z3_string("b\u{81}").is_none());
        assert!(!z3_can_hold("b\u{81}"));
        // 32 stand-ins, one taken as itself: 30 more wide characters fit, the next does not
        let wide: String = ('\u{3b1}'..='\u{3ce}').take(30).collect();
        assert!(z3_can_hold(&wide));
        assert!(z3_string("\u{4e00}").is_none());
        assert_eq!(solved(&z3_string(&wide).unwrap()), wide);
    }

    #[test]
    fn each_search_starts_a_fresh_alphabet_and_restores_the_one_before() {
        let outer = alphabet_scope();
        assert!(z3_can_hold("日"));
        {
            let _inner = alphabet_scope();
            assert!(z3_can_hold("本"));
            assert_eq!(
                ALPHABET.with(|a| a.borrow().stand_ins.clone()),
                vec![('本', '\u{80}')]
            );
        }
        assert_eq!(
            ALPHABET.with(|a| a.borrow().stand_ins.clone()),
            vec![('日', '\u{80}')]
        );
        drop(outer);
        assert!(ALPHABET.with(|a| a.borrow().stand_ins.is_empty()));
    }
}
