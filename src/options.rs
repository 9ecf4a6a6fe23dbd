//! Options JSON arguments: one JSON object of named settings, read the same way by every function
//! that takes one, with errors naming the function and the `options` argument. The dialect keys
//! (`dialect`, `gold_dialect`, `pred_dialect`) are common to every function that reads SQL: they
//! are read here ([`OptionsArg::dialects`]) and left out of the object each family reads.

use serde_json::{Map, Value as Json};

use crate::error::{Error, Result};
use crate::parse::dialect::Dialect;

/// The options every function that reads SQL takes: the dialect of its queries.
pub const DIALECT_KEYS: [&str; 3] = ["dialect", "gold_dialect", "pred_dialect"];

/// The dialects of a call's queries, from its options (SQLite when not given).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Dialects {
    /// `dialect`: every query's, unless one of the two below says otherwise.
    pub both: Option<Dialect>,
    /// `gold_dialect`.
    pub gold: Option<Dialect>,
    /// `pred_dialect`.
    pub pred: Option<Dialect>,
}

impl Dialects {
    /// The gold query's dialect.
    pub fn gold(&self) -> Dialect {
        self.gold.or(self.both).unwrap_or_default()
    }

    /// The predicted query's dialect.
    pub fn pred(&self) -> Dialect {
        self.pred.or(self.both).unwrap_or_default()
    }

    /// True when every query of the call is SQLite.
    pub fn all_sqlite(&self) -> bool {
        self.gold() == Dialect::Sqlite && self.pred() == Dialect::Sqlite
    }
}

/// The `options` argument of `function`, for error messages and checked reads.
#[derive(Clone, Copy)]
pub struct OptionsArg {
    pub function: &'static str,
}

impl OptionsArg {
    /// An `Error::Argument` on the `options` argument.
    pub fn error(self, message: String) -> Error {
        Error::Argument {
            function: self.function,
            argument: "options",
            message,
        }
    }

    /// The settings of `text` (None: no options given), which must be a JSON object, without
    /// the dialect keys ([`DIALECT_KEYS`], read by [`OptionsArg::dialects`]).
    pub fn object(self, text: Option<&str>) -> Result<Option<Map<String, Json>>> {
        let Some(mut map) = self.whole_object(text)? else {
            return Ok(None);
        };
        for key in DIALECT_KEYS {
            map.remove(key);
        }
        Ok(Some(map))
    }

    fn whole_object(self, text: Option<&str>) -> Result<Option<Map<String, Json>>> {
        let Some(text) = text else {
            return Ok(None);
        };
        let json: Json =
            serde_json::from_str(text).map_err(|e| self.error(format!("is not JSON: {e}")))?;
        match json {
            Json::Object(map) => Ok(Some(map)),
            _ => Err(self.error("must be a JSON object".into())),
        }
    }

    /// The dialect keys of `text`; an unknown dialect name is an error listing the known ones.
    pub fn dialects(self, text: Option<&str>) -> Result<Dialects> {
        let Some(map) = self.whole_object(text)? else {
            return Ok(Dialects::default());
        };
        let read = |key: &str| -> Result<Option<Dialect>> {
            match map.get(key) {
                None | Some(Json::Null) => Ok(None),
                Some(v) => v
                    .as_str()
                    .and_then(Dialect::from_name)
                    .map(Some)
                    .ok_or_else(|| {
                        self.error(format!(
                            "'{key}' must be one of {}, got {v}",
                            Dialect::names()
                        ))
                    }),
            }
        };
        Ok(Dialects {
            both: read("dialect")?,
            gold: read("gold_dialect")?,
            pred: read("pred_dialect")?,
        })
    }

    /// Setting `key` as an integer in [lo, hi].
    pub fn uint(self, key: &str, value: &Json, lo: u64, hi: u64) -> Result<u64> {
        value
            .as_u64()
            .filter(|v| (lo..=hi).contains(v))
            .ok_or_else(|| {
                self.error(format!(
                    "'{key}' must be an integer in [{lo}, {hi}], got {value}"
                ))
            })
    }

    /// Setting `key` as the one of `all` whose `name` is the JSON string `value`; else an error
    /// listing the allowed names, e.g. `'databases' must be 'both' or 'gold', got "pred"`.
    pub fn one_of<T: Copy>(
        self,
        key: &str,
        value: &Json,
        all: &[T],
        name: fn(T) -> &'static str,
    ) -> Result<T> {
        if let Some(found) = all
            .iter()
            .copied()
            .find(|&t| value.as_str() == Some(name(t)))
        {
            return Ok(found);
        }
        let quoted: Vec<String> = all.iter().map(|&t| format!("'{}'", name(t))).collect();
        let allowed = match quoted.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        };
        Err(self.error(format!("'{key}' must be {allowed}, got {value}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialect_keys_are_read_apart_from_the_rest() {
        let arg = OptionsArg { function: "f" };
        let text = Some(r#"{"dialect": "mysql", "pred_dialect": "PostgreSQL", "work": 5}"#);
        let d = arg.dialects(text).unwrap();
        assert_eq!((d.gold(), d.pred()), (Dialect::Mysql, Dialect::Postgres));
        let rest = arg.object(text).unwrap().unwrap();
        assert_eq!(rest.keys().collect::<Vec<_>>(), ["work"]);
        assert!(arg.dialects(None).unwrap().all_sqlite());
        let err = arg
            .dialects(Some(r#"{"dialect": "oracle"}"#))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("'dialect' must be one of sqlite, postgres"),
            "{err}"
        );
        assert!(arg.dialects(Some(r#"{"gold_dialect": 3}"#)).is_err());
    }
}
