//! DDL text → its statements, each with its source text and kind, and the declared type text of a
//! column as written; sqlparser's tokenizer does the lexing, so `;` inside strings, quoted names and
//! comments never splits.

use std::collections::HashMap;

use sqlparser::dialect::{Dialect, GenericDialect, SQLiteDialect};
use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Location, Token, TokenWithSpan, Tokenizer};

use super::DdlError;

/// What a statement of DDL text is, from its first words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `CREATE [TEMP|TEMPORARY] TABLE`: builds a table.
    CreateTable,
    /// Other schema or schema-dump statements (`CREATE INDEX/VIEW/TRIGGER/VIRTUAL TABLE`, `DROP`,
    /// `ALTER`, `PRAGMA`, transactions, `INSERT`, `REPLACE`): ignored.
    Ignored,
    /// Anything else (a query, `UPDATE`, garbage): not DDL.
    NotDdl,
}

/// One statement of the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece<'a> {
    /// 1-based number among the non-empty statements of the text.
    pub number: usize,
    pub text: &'a str,
    pub kind: Kind,
}

/// Tokenizes `text`, SQLite dialect first and the generic one when SQLite's tokenizer rejects it.
pub fn tokenize(text: &str) -> Result<Vec<TokenWithSpan>, DdlError> {
    let with = |d: &dyn Dialect| Tokenizer::new(d, text).tokenize_with_location();
    with(&SQLiteDialect {})
        .or_else(|first| with(&GenericDialect {}).map_err(|_| first))
        .map_err(|e| DdlError::Syntax(e.to_string()))
}

/// Turns token locations (1-based line, character column) into byte offsets in O(1).
pub struct Lines<'a> {
    text: &'a str,
    /// Per line: its byte offset, and its character offset when the text is not ASCII.
    starts: Vec<(usize, usize)>,
    /// Byte offset of every character, only for non-ASCII text (ASCII: characters are bytes).
    char_bytes: Option<Vec<usize>>,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str) -> Lines<'a> {
        let mut starts = vec![(0, 0)];
        let char_bytes = if text.is_ascii() {
            starts.extend(text.match_indices('\n').map(|(i, _)| (i + 1, i + 1)));
            None
        } else {
            let mut bytes = Vec::with_capacity(text.len());
            for (n, (i, c)) in text.char_indices().enumerate() {
                bytes.push(i);
                if c == '\n' {
                    starts.push((i + 1, n + 1));
                }
            }
            Some(bytes)
        };
        Lines {
            text,
            starts,
            char_bytes,
        }
    }

    /// The byte offset of a location, clamped to the text (and to the end of its line's text).
    pub fn offset(&self, loc: Location) -> usize {
        let line = (loc.line.max(1) - 1) as usize;
        let Some(&(byte, chars)) = self.starts.get(line) else {
            return self.text.len();
        };
        let col = loc.column.max(1) as usize - 1;
        match &self.char_bytes {
            None => (byte + col).min(self.text.len()),
            Some(bytes) => bytes.get(chars + col).copied().unwrap_or(self.text.len()),
        }
    }
}

/// Token index by start location, so each column's name token is found in O(1).
pub fn token_index(tokens: &[TokenWithSpan]) -> HashMap<(u64, u64), usize> {
    tokens
        .iter()
        .enumerate()
        .map(|(i, t)| ((t.span.start.line, t.span.start.column), i))
        .collect()
}

fn significant(t: &TokenWithSpan) -> bool {
    !matches!(t.token, Token::Whitespace(_) | Token::EOF)
}

fn word(t: &Token) -> Option<Keyword> {
    match t {
        Token::Word(w) => Some(w.keyword),
        _ => None,
    }
}

fn kind(words: &[Option<Keyword>]) -> Kind {
    use Keyword::*;
    let mut rest = words.iter().copied();
    match rest.next().flatten() {
        Some(CREATE) => {
            let mut next = rest.next().flatten();
            if matches!(next, Some(TEMP | TEMPORARY)) {
                next = rest.next().flatten();
            }
            if next == Some(TABLE) {
                Kind::CreateTable
            } else {
                Kind::Ignored
            }
        }
        Some(
            DROP | ALTER | PRAGMA | BEGIN | COMMIT | END | ROLLBACK | INSERT | REPLACE | ANALYZE
            | VACUUM | REINDEX | SAVEPOINT | RELEASE | ATTACH | DETACH,
        ) => Kind::Ignored,
        _ => Kind::NotDdl,
    }
}

/// True for `CREATE [TEMP] TRIGGER`, whose body holds `;`-terminated statements up to `END`.
fn is_trigger(words: &[Option<Keyword>]) -> bool {
    use Keyword::*;
    let w: Vec<Keyword> = words
        .iter()
        .take(3)
        .map(|k| k.unwrap_or(NoKeyword))
        .collect();
    matches!(
        w.as_slice(),
        [CREATE, TRIGGER, ..] | [CREATE, TEMP | TEMPORARY, TRIGGER]
    )
}

/// Splits `text` into its non-empty statements (comment-only and empty ones are skipped).
pub fn split<'a>(text: &'a str) -> Result<Vec<Piece<'a>>, DdlError> {
    let tokens = tokenize(text)?;
    let lines = Lines::new(text);
    let mut pieces = Vec::new();
    // Significant tokens of the statement being read: (first token, words so far, last token).
    let mut current: Vec<&TokenWithSpan> = Vec::new();
    let close = |current: &mut Vec<&TokenWithSpan>, pieces: &mut Vec<Piece<'a>>| {
        if let (Some(first), Some(last)) = (current.first(), current.last()) {
            let words: Vec<Option<Keyword>> =
                current.iter().take(3).map(|t| word(&t.token)).collect();
            let (start, end) = (lines.offset(first.span.start), lines.offset(last.span.end));
            pieces.push(Piece {
                number: pieces.len() + 1,
                text: text.get(start..end.max(start)).unwrap_or(""),
                kind: kind(&words),
            });
        }
        current.clear();
    };
    for t in tokens.iter().filter(|t| significant(t)) {
        if t.token == Token::SemiColon {
            let words: Vec<Option<Keyword>> =
                current.iter().take(3).map(|t| word(&t.token)).collect();
            let in_trigger_body = is_trigger(&words)
                && current
                    .last()
                    .is_none_or(|last| word(&last.token) != Some(Keyword::END));
            if !in_trigger_body {
                close(&mut current, &mut pieces);
                continue;
            }
        }
        current.push(t);
    }
    close(&mut current, &mut pieces);
    Ok(pieces)
}

/// Keywords that end a column's type name: the start of a column constraint.
fn ends_type(k: Keyword) -> bool {
    use Keyword::*;
    matches!(
        k,
        CONSTRAINT
            | PRIMARY
            | NOT
            | NULL
            | UNIQUE
            | CHECK
            | DEFAULT
            | COLLATE
            | REFERENCES
            | GENERATED
            | AS
            | AUTOINCREMENT
            | ON
    )
}

/// The declared type of the column whose name token starts at `name_start`, as written in
/// `text`: the words after the name up to the first constraint keyword, with an optional
/// parenthesized size (`varchar(20)`, `DECIMAL(10, 2)`). `None` when the name token is not found.
pub fn column_type<'a>(
    text: &'a str,
    tokens: &[TokenWithSpan],
    index: &HashMap<(u64, u64), usize>,
    lines: &Lines<'_>,
    name_start: Location,
) -> Option<&'a str> {
    let at = *index.get(&(name_start.line, name_start.column))?;
    let mut rest = tokens[at + 1..]
        .iter()
        .filter(|t| significant(t))
        .peekable();
    let (mut first, mut last) = (None, None);
    while let Some(t) = rest.peek() {
        let part_of_type = match &t.token {
            Token::Word(w) => w.quote_style.is_some() || !ends_type(w.keyword),
            Token::SingleQuotedString(_) => true,
            _ => false,
        };
        if !part_of_type {
            break;
        }
        first = first.or(Some(t.span.start));
        last = Some(t.span.end);
        rest.next();
    }
    if first.is_some() && rest.peek().is_some_and(|t| t.token == Token::LParen) {
        for t in rest.by_ref() {
            if t.token == Token::RParen {
                last = Some(t.span.end);
                break;
            }
        }
    }
    match (first, last) {
        (Some(a), Some(b)) => text.get(lines.offset(a)..lines.offset(b)),
        _ => Some(""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(usize, Kind, &str)> {
        split(text)
            .unwrap()
            .into_iter()
            .map(|p| (p.number, p.kind, p.text))
            .collect()
    }

    #[test]
    fn splits_on_semicolons_outside_strings_and_comments() {
        let text = "-- header; not a statement\nCREATE TABLE a (x TEXT DEFAULT ';');\n;\n\
                    /* ; */ create index i on a(x);  CREATE TEMP TABLE \"b;c\" (y)";
        assert_eq!(
            kinds(text),
            [
                (1, Kind::CreateTable, "CREATE TABLE a (x TEXT DEFAULT ';')"),
                (2, Kind::Ignored, "create index i on a(x)"),
                (3, Kind::CreateTable, "CREATE TEMP TABLE \"b;c\" (y)"),
            ]
        );
        assert!(kinds("  -- only a comment\n ; ;").is_empty());
        assert_eq!(kinds("SELECT 1; garbage here")[0].1, Kind::NotDdl);
        assert_eq!(kinds("garbage here")[0].1, Kind::NotDdl);
    }

    #[test]
    fn trigger_bodies_stay_whole() {
        let text =
            "CREATE TRIGGER t AFTER INSERT ON a BEGIN UPDATE a SET x = 1; DELETE FROM a; END;\
                    CREATE TABLE z (q)";
        let k = kinds(text);
        assert_eq!(k.len(), 2, "{k:?}");
        assert_eq!(k[0].1, Kind::Ignored);
        assert!(k[0].2.ends_with("END"));
        assert_eq!(k[1].1, Kind::CreateTable);
    }

    #[test]
    fn type_text_as_written() {
        let text = "CREATE TABLE t (\n  `a b` varchar( 20 ) NOT NULL,\n  c unsigned big int primary key,\n  \
                    d, e DOUBLE PRECISION default 0, f \"my type\" UNIQUE, g DECIMAL(10, 2))";
        let tokens = tokenize(text).unwrap();
        let lines = Lines::new(text);
        let ty = |name: &str| {
            let t = tokens
                .iter()
                .find(|t| matches!(&t.token, Token::Word(w) if w.value == name))
                .unwrap();
            column_type(text, &tokens, &token_index(&tokens), &lines, t.span.start).unwrap()
        };
        assert_eq!(ty("a b"), "varchar( 20 )");
        assert_eq!(ty("c"), "unsigned big int");
        assert_eq!(ty("d"), "");
        assert_eq!(ty("e"), "DOUBLE PRECISION");
        assert_eq!(ty("f"), "\"my type\"");
        assert_eq!(ty("g"), "DECIMAL(10, 2)");
    }

    #[test]
    fn offsets_count_characters() {
        let ascii = Lines::new("ab\ncd");
        assert_eq!(ascii.offset(Location { line: 2, column: 2 }), 4);
        assert_eq!(ascii.offset(Location { line: 2, column: 9 }), 5);
        let text = "é\nxé y";
        let lines = Lines::new(text);
        // Line 2 starts at byte 3; its third character (the space) is at byte 6.
        assert_eq!(lines.offset(Location { line: 2, column: 3 }), 6);
        assert_eq!(&text[lines.offset(Location { line: 2, column: 4 })..], "y");
        assert_eq!(lines.offset(Location { line: 9, column: 1 }), text.len());
    }
}
