//! The character encoder's features of each content text, computed once per text: where a model's
//! split files lie beside it (`models/gmn/split.py`: `NAME.chars.onnx`, the encoder, and
//! `NAME.main.onnx`, the rest), a pair runs the main graph on features looked up per node
//! instead of encoding every node's 64 characters again.
//!
//! A text's features are computed alone (a batch of one), so they never depend on which texts were
//! encoded before or beside it, and the main graph's score is the full model's, bit for bit
//! (tests/models/test_split.py, tests/sql/test_gmn.py).

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use ort::session::SessionInputValue;
use ort::value::Tensor;

use super::graph::Graph;
use super::runtime::{run_output, with_session, RuntimeError};
use super::{Model, MAX_CHARS};
use crate::cache::NamedCache;

/// The two files a full model `NAME.onnx` is split into.
#[derive(Debug, Clone, PartialEq)]
pub struct SplitFiles {
    /// `NAME.chars.onnx`: `g_types` [B, N], `g_chars` [B, N, 64] → `char_features` [B, N, C].
    pub chars: PathBuf,
    /// `NAME.main.onnx`: the model's inputs with `{g,p}_char_features` [B, N, C] for the chars.
    pub main: PathBuf,
}

/// The split files beside the full model at `full`, when both exist.
pub fn split_files(full: &Path) -> Option<SplitFiles> {
    let stem = full.to_str()?.strip_suffix(".onnx")?;
    let files = SplitFiles {
        chars: PathBuf::from(format!("{stem}.chars.onnx")),
        main: PathBuf::from(format!("{stem}.main.onnx")),
    };
    (files.chars.is_file() && files.main.is_file()).then_some(files)
}

/// [`split_files`] of `model`'s full file, looked up once per process and model.
pub fn split_files_of(model: Model, full: &Path) -> Option<SplitFiles> {
    static FOUND: [OnceLock<Option<SplitFiles>>; 2] = [OnceLock::new(), OnceLock::new()];
    FOUND[model as usize]
        .get_or_init(|| split_files(full))
        .clone()
}

/// Features per (model, text). A workload's content texts are its schemas' table and column names
/// and its queries' literals: a few thousand, each a few dozen floats.
static FEATURES: NamedCache<Result<Vec<f32>, RuntimeError>> =
    NamedCache::new("gmn_char_features", 65_536);

/// The features of `text` (a node's character codes; empty for computing nodes and padding).
fn features(model: Model, encoder: &Path, text: &[u8]) -> Arc<Result<Vec<f32>, RuntimeError>> {
    // the codes as Latin-1 characters: one character per code, so distinct texts never share a key
    let text_key: String = text.iter().map(|&c| char::from(c)).collect();
    let key = format!("{}\u{1}{text_key}", model.name());
    FEATURES
        .get()
        .get_or_insert_if(&key, || encode(encoder, text), Result::is_ok)
}

/// Runs the encoder on `text` alone.
fn encode(encoder: &Path, text: &[u8]) -> Result<Vec<f32>, RuntimeError> {
    let fail = |e: String| RuntimeError::Failed(format!("model {} failed: {e}", encoder.display()));
    let mut chars = vec![0i64; MAX_CHARS];
    for (slot, &c) in chars.iter_mut().zip(text) {
        *slot = i64::from(c);
    }
    let types = Tensor::from_array(([1usize, 1], vec![0i64])).map_err(|e| fail(e.to_string()))?;
    let chars =
        Tensor::from_array(([1usize, 1, MAX_CHARS], chars)).map_err(|e| fail(e.to_string()))?;
    let inputs: Vec<(String, SessionInputValue<'static>)> = vec![
        ("g_types".into(), types.into()),
        ("g_chars".into(), chars.into()),
    ];
    with_session(encoder, |session| {
        run_output(session, inputs, "char_features", encoder)
    })
}

/// One side's `[B, N, C]` features: each node's text's, the empty text's for padding nodes.
pub fn side_features(
    model: Model,
    encoder: &Path,
    graphs: &[&Graph],
    nodes: usize,
) -> Result<(usize, Vec<f32>), RuntimeError> {
    let empty = features(model, encoder, &[]);
    let empty = empty.as_ref().as_ref().map_err(Clone::clone)?;
    let width = empty.len();
    let mut out = Vec::with_capacity(graphs.len() * nodes * width);
    for g in graphs {
        for i in 0..nodes {
            match g.chars.get(i).filter(|c| !c.is_empty()) {
                Some(text) => {
                    let f = features(model, encoder, &text[..text.len().min(MAX_CHARS)]);
                    out.extend_from_slice(f.as_ref().as_ref().map_err(Clone::clone)?);
                }
                None => out.extend_from_slice(empty),
            }
        }
    }
    Ok((width, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_files_need_both_parts_beside_the_model() {
        let dir = std::env::temp_dir().join(format!("sqlsim_split_files_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let full = dir.join("m.onnx");
        assert_eq!(split_files(&full), None);
        std::fs::write(dir.join("m.chars.onnx"), b"").unwrap();
        assert_eq!(split_files(&full), None, "the main graph is missing");
        std::fs::write(dir.join("m.main.onnx"), b"").unwrap();
        let found = split_files(&full);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            found,
            Some(SplitFiles {
                chars: dir.join("m.chars.onnx"),
                main: dir.join("m.main.onnx"),
            })
        );
        assert_eq!(split_files(Path::new("m.params.npz")), None);
    }
}
