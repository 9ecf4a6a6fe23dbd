//! The computing-node vocabulary shared with the trained models (`models/vocab.json`, compiled in).

use std::collections::HashMap;
use std::sync::OnceLock;

/// The vocabulary file, a JSON list of labels; a label's id is its index.
pub const VOCAB_JSON: &str = include_str!("../../models/vocab.json");

/// Id of padding (never produced for a node).
#[cfg(test)]
pub const PAD: i64 = 0;
/// Id of a computing label missing from the vocabulary.
pub const UNK: i64 = 1;
/// Id of every content node (tables, columns, literals).
pub const CONTENT: i64 = 2;

fn table() -> &'static HashMap<String, i64> {
    static TABLE: OnceLock<HashMap<String, i64>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let labels: Vec<String> = serde_json::from_str(VOCAB_JSON).unwrap_or_default();
        labels
            .into_iter()
            .enumerate()
            .map(|(i, l)| (l, i as i64))
            .collect()
    })
}

/// The id of `label`, or `None` when it is not in the vocabulary.
pub fn lookup(label: &str) -> Option<i64> {
    table().get(label).copied()
}

/// The id of `label`, [`UNK`] when it is not in the vocabulary.
#[cfg(test)]
pub fn id(label: &str) -> i64 {
    lookup(label).unwrap_or(UNK)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_ids_and_plan_labels() {
        assert_eq!(lookup("<pad>"), Some(PAD));
        assert_eq!(lookup("<unk>"), Some(UNK));
        assert_eq!(lookup("<content>"), Some(CONTENT));
        assert!(table().len() > 100);
        for l in [
            "TableScan",
            "Join:inner",
            "COUNT DISTINCT",
            "=",
            "DESC",
            "ast:Select",
        ] {
            assert!(lookup(l).is_some(), "{l}");
        }
        assert_eq!(id("no such label"), UNK);
    }
}
