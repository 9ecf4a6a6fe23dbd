//! The vocabulary of generated queries: tables with their columns, Spider's concert_singer by
//! default.

/// The names a generated query draws on: tables with their columns.
#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    pub tables: Vec<(String, Vec<String>)>,
}

impl Vocabulary {
    /// A fixed vocabulary shaped like Spider's concert_singer (used when no schema is given).
    pub fn concert_singer() -> Self {
        let table = |name: &str, cols: &[&str]| {
            (
                name.to_string(),
                cols.iter().map(|c| c.to_string()).collect(),
            )
        };
        Vocabulary {
            tables: vec![
                table(
                    "stadium",
                    &["stadium_id", "location", "name", "capacity", "average"],
                ),
                table(
                    "singer",
                    &["singer_id", "name", "country", "age", "is_male"],
                ),
                table(
                    "concert",
                    &["concert_id", "concert_name", "stadium_id", "year"],
                ),
                table("singer_in_concert", &["concert_id", "singer_id"]),
            ],
        }
    }
}
