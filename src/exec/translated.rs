//! The SQLite texts execution runs for a pair of queries that may be written in another dialect
//! (tagged by the registry, `parse::dialect`), or why the pair cannot be run.

use std::borrow::Cow;

use crate::parse::translate::{sqlite_text, untranslated_construct};

/// Why a pair of queries has no SQLite texts to run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Untranslatable {
    /// The gold query does not parse in its dialect (the parser's message).
    GoldParse(String),
    /// The prediction does not parse in its dialect.
    PredParse(String),
    /// A query holds a construct without a faithful translation ("DATE_TRUNC in postgres").
    Construct(String),
}

impl Untranslatable {
    /// The reason, as the verdicts word it.
    pub(crate) fn describe(&self) -> String {
        match self {
            Untranslatable::GoldParse(m) => format!("gold does not parse: {m}"),
            Untranslatable::PredParse(m) => format!("pred does not parse: {m}"),
            Untranslatable::Construct(c) => format!("unknown: {c}"),
        }
    }
}

/// The SQLite texts of `gold` and `pred`: themselves when untagged (SQLite).
pub(crate) fn sqlite_pair<'a>(
    gold: &'a str,
    pred: &'a str,
) -> Result<(Cow<'a, str>, Cow<'a, str>), Untranslatable> {
    let gold = sqlite_text(gold).map_err(|e| Untranslatable::GoldParse(e.to_string()))?;
    let pred = sqlite_text(pred).map_err(|e| Untranslatable::PredParse(e.to_string()))?;
    for text in [&gold, &pred] {
        if let Cow::Owned(t) = text {
            if let Some(construct) = untranslated_construct(t) {
                return Err(Untranslatable::Construct(construct));
            }
        }
    }
    Ok((gold, pred))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::dialect::{tag, Dialect};

    #[test]
    fn sqlite_texts_pass_through_and_others_are_translated_or_refused() {
        let (g, p) = sqlite_pair("SELECT 1", "SELECT 2").unwrap();
        assert!(matches!(
            (g, p),
            (Cow::Borrowed("SELECT 1"), Cow::Borrowed("SELECT 2"))
        ));
        let pg = tag("SELECT x::INT FROM t", Dialect::Postgres);
        let (_, p) = sqlite_pair("SELECT 1", &pg).unwrap();
        assert_eq!(p, "SELECT CAST(x AS INTEGER) FROM t");
        let bad = tag("SELEC x FROM", Dialect::Postgres);
        assert!(matches!(
            sqlite_pair(&bad, "SELECT 1"),
            Err(Untranslatable::GoldParse(_))
        ));
        assert!(matches!(
            sqlite_pair("SELECT 1", &bad),
            Err(Untranslatable::PredParse(_))
        ));
        let json = tag("SELECT CAST(x AS JSON) FROM t", Dialect::Postgres);
        assert_eq!(
            sqlite_pair("SELECT 1", &json).unwrap_err().describe(),
            "unknown: CAST to JSON in postgres"
        );
    }
}
