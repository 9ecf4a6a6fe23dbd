//! Options JSON arguments: one JSON object of named settings, read the same way by every function
//! that takes one (`sql_equivalent` and its family, `exec_match`, `bird_ves`), with errors naming
//! the function and the `options` argument.

use serde_json::{Map, Value as Json};

use crate::error::{Error, Result};

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

    /// The settings of `text` (None: no options given), which must be a JSON object.
    pub fn object(self, text: Option<&str>) -> Result<Option<Map<String, Json>>> {
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
}
