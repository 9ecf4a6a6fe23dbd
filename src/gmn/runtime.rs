//! ONNX Runtime, loaded at run time: the library is looked for beside the loaded extension, then
//! at `ORT_DYLIB_PATH`; models beside the extension, then in `SQLSIM_MODEL_DIR`. The runtime is
//! loaded once (`ort::init_from`, never `ort::init`, which panics when it is missing); sessions are
//! pooled per model file. Every failure is an error message, never a panic.
//!
//! Host-independent: it never asks the dynamic loader where the extension lies; the host adapters
//! look that up once at load time (`src/ext/location.rs`) and hand it in through [`set_library_dir`].

use super::char_features::{side_features, split_files_of};
use super::graph::Graph;
use super::tensors::{side_tensors, SideTensors};
use super::{Model, PairGraph};
use ort::environment::Environment;
use ort::session::Session;
use ort::value::Tensor;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Prefix of the ONNX Runtime library's file name (`libonnxruntime.so.1.31.1`).
const RUNTIME_PREFIX: &str = "libonnxruntime.so";

/// Why a GMN score could not be computed; the message names what was missing or failed and
/// where it looked.
#[derive(Debug, Clone, PartialEq)]
pub enum RuntimeError {
    /// ONNX Runtime or a model file is not where sqlsim looks for it.
    Missing(String),
    /// ONNX Runtime was found but failed: it did not start, a model did not load or run.
    Failed(String),
}

impl std::fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RuntimeError::Missing(m) | RuntimeError::Failed(m) => write!(f, "{m}"),
        }
    }
}

/// The model file of `model`.
pub fn model_file(model: Model) -> &'static str {
    match model {
        Model::FuncEval => "funceval_gmn.onnx",
        Model::Hybrid => "hybrid_gmn.onnx",
    }
}

/// The directory the host adapter found the loaded extension in, set once at load time.
static LIBRARY_DIR: OnceLock<PathBuf> = OnceLock::new();

/// Records the directory of the loaded extension (called by the host adapters when the library is
/// loaded; the first directory set is kept). Without it, as when the crate is used from Rust, only
/// `ORT_DYLIB_PATH` and `SQLSIM_MODEL_DIR` are searched.
pub fn set_library_dir(dir: PathBuf) {
    let _ = LIBRARY_DIR.set(dir);
}

/// The directory of the loaded extension, when a host adapter has set it.
pub fn extension_dir() -> Option<PathBuf> {
    LIBRARY_DIR.get().cloned()
}

/// The ONNX Runtime library in `dir`, if there is one.
fn runtime_in(dir: &Path) -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(RUNTIME_PREFIX))
        })
        .collect();
    found.sort();
    found.pop()
}

/// Candidate runtime libraries in search order, and a description of where they were sought.
fn runtime_candidates() -> (Vec<PathBuf>, Vec<String>) {
    let (mut found, mut looked) = (Vec::new(), Vec::new());
    match extension_dir() {
        Some(dir) => {
            looked.push(format!("{}/{RUNTIME_PREFIX}*", dir.display()));
            found.extend(runtime_in(&dir));
        }
        None => looked.push("the extension's directory (unknown)".into()),
    }
    match std::env::var_os("ORT_DYLIB_PATH") {
        Some(p) if !p.is_empty() => {
            let p = PathBuf::from(p);
            looked.push(format!("ORT_DYLIB_PATH={}", p.display()));
            if p.is_dir() {
                found.extend(runtime_in(&p));
            } else if p.is_file() {
                found.push(p);
            }
        }
        _ => looked.push("ORT_DYLIB_PATH (unset)".into()),
    }
    (found, looked)
}

/// The ONNX Runtime environment, loaded on first use; the outcome (or why it failed) is kept.
fn environment() -> Result<&'static Environment, RuntimeError> {
    static ENV: OnceLock<Result<Environment, RuntimeError>> = OnceLock::new();
    ENV.get_or_init(|| {
        let (candidates, looked) = runtime_candidates();
        let mut failures = Vec::new();
        for path in candidates {
            match ort::init_from(&path) {
                Ok(builder) => {
                    return builder.with_name("sqlsim").build().map_err(|e| {
                        RuntimeError::Failed(format!(
                            "ONNX Runtime at {} failed to start: {e}",
                            path.display()
                        ))
                    });
                }
                Err(e) => failures.push(e.to_string()),
            }
        }
        let mut message = format!("ONNX Runtime not found: looked in {}", looked.join(", "));
        if !failures.is_empty() {
            message.push_str(&format!(" ({})", failures.join("; ")));
        }
        Err(RuntimeError::Missing(message))
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// The model file of `model`: beside the extension, then in `SQLSIM_MODEL_DIR`. A file once found
/// is remembered (every scored row asks), a missing one is looked for again on the next call.
pub fn model_path(model: Model) -> Result<PathBuf, RuntimeError> {
    static FOUND: [OnceLock<PathBuf>; 2] = [OnceLock::new(), OnceLock::new()];
    let slot = &FOUND[model as usize];
    if let Some(p) = slot.get() {
        return Ok(p.clone());
    }
    let found = look_for_model(model)?;
    Ok(slot.get_or_init(|| found).clone())
}

fn look_for_model(model: Model) -> Result<PathBuf, RuntimeError> {
    let file = model_file(model);
    let mut looked = Vec::new();
    let mut dirs = Vec::new();
    if let Some(d) = extension_dir() {
        dirs.push(d);
    }
    if let Some(d) = std::env::var_os("SQLSIM_MODEL_DIR").filter(|d| !d.is_empty()) {
        dirs.push(PathBuf::from(d));
    }
    for dir in dirs {
        let p = dir.join(file);
        if p.is_file() {
            return Ok(p);
        }
        looked.push(p.display().to_string());
    }
    if std::env::var_os("SQLSIM_MODEL_DIR").is_none() {
        looked.push("SQLSIM_MODEL_DIR (unset)".into());
    }
    Err(RuntimeError::Missing(format!(
        "model {file} not found: looked in {}",
        looked.join(", ")
    )))
}

/// Ok when the runtime loads and `model`'s file exists (what a score needs before any graph).
pub fn check(model: Model) -> Result<(), RuntimeError> {
    environment()?;
    model_path(model).map(|_| ())
}

/// Idle sessions of one model file; a caller takes one (or opens a new one) and gives it back.
struct Pool {
    idle: Mutex<Vec<Session>>,
}

fn pool(path: &Path) -> Arc<Pool> {
    static POOLS: OnceLock<Mutex<HashMap<PathBuf, Arc<Pool>>>> = OnceLock::new();
    let pools = POOLS.get_or_init(|| Mutex::new(HashMap::new()));
    let mut map = pools.lock().unwrap_or_else(|e| e.into_inner());
    map.entry(path.to_path_buf())
        .or_insert_with(|| {
            Arc::new(Pool {
                idle: Mutex::new(Vec::new()),
            })
        })
        .clone()
}

fn open_session(env: &Environment, path: &Path) -> Result<Session, RuntimeError> {
    let fail =
        |e: String| RuntimeError::Failed(format!("cannot load model {}: {e}", path.display()));
    Session::builder(env)
        .map_err(|e| fail(e.to_string()))?
        .with_intra_threads(1)
        .map_err(|e| fail(e.to_string()))?
        .with_inter_threads(1)
        .map_err(|e| fail(e.to_string()))?
        .commit_from_file(path)
        .map_err(|e| fail(e.to_string()))
}

/// One side's inputs; with `features` (their width and `[B, N, width]` values: the split model's
/// main graph) in place of the characters.
fn tensor_inputs(
    prefix: &str,
    t: SideTensors,
    features: Option<(usize, Vec<f32>)>,
) -> Result<Vec<(String, ort::session::SessionInputValue<'static>)>, RuntimeError> {
    let (b, n, r2) = (t.batch, t.nodes, 2 * t.relations);
    let err = |e: ort::Error| RuntimeError::Failed(format!("cannot build input tensors: {e}"));
    let chars = match features {
        Some((width, values)) => (
            format!("{prefix}_char_features"),
            Tensor::from_array(([b, n, width], values))
                .map_err(err)?
                .into(),
        ),
        None => (
            format!("{prefix}_chars"),
            Tensor::from_array(([b, n, super::MAX_CHARS], t.chars))
                .map_err(err)?
                .into(),
        ),
    };
    Ok(vec![
        (
            format!("{prefix}_types"),
            Tensor::from_array(([b, n], t.types)).map_err(err)?.into(),
        ),
        chars,
        (
            format!("{prefix}_adj"),
            Tensor::from_array(([b, r2, n, n], t.adj))
                .map_err(err)?
                .into(),
        ),
        (
            format!("{prefix}_mask"),
            Tensor::from_array(([b, n], t.mask)).map_err(err)?.into(),
        ),
        (
            format!("{prefix}_pe"),
            Tensor::from_array(([b, n, super::PE_STEPS], t.pe))
                .map_err(err)?
                .into(),
        ),
    ])
}

/// Scores of a batch of pairs of one model (the model's `score` output, clamped to [0, 1]).
pub fn score_batch(model: Model, pairs: &[&PairGraph]) -> Result<Vec<f64>, RuntimeError> {
    if pairs.is_empty() {
        return Ok(Vec::new());
    }
    environment()?;
    let path = model_path(model)?;
    let relations = model.relations();
    let gold: Vec<_> = pairs.iter().map(|p| &p.gold).collect();
    let pred: Vec<_> = pairs.iter().map(|p| &p.pred).collect();
    // where the model's split files lie beside it, the main graph runs on each text's features,
    // encoded once per text (char_features.rs); the scores are the full model's
    let split = split_files_of(model, &path);
    let side = |prefix: &str, graphs: &[&Graph]| {
        let t = side_tensors(graphs, relations);
        let features = match &split {
            Some(files) => Some(side_features(model, &files.chars, graphs, t.nodes)?),
            None => None,
        };
        tensor_inputs(prefix, t, features)
    };
    let mut inputs = side("g", &gold)?;
    inputs.extend(side("p", &pred)?);
    let path = split.map_or(path, |files| files.main);
    let batch = pairs.len();
    with_session(&path, |session| run(session, inputs, batch, &path))
}

/// Runs `f` on an idle session of the model file at `path` (one is opened when none is idle) and
/// gives the session back.
pub(super) fn with_session<R>(
    path: &Path,
    f: impl FnOnce(&mut Session) -> Result<R, RuntimeError>,
) -> Result<R, RuntimeError> {
    let env = environment()?;
    let pool = pool(path);
    let taken = pool.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
    let mut session = match taken {
        Some(s) => s,
        None => open_session(env, path)?,
    };
    let result = f(&mut session);
    pool.idle
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(session);
    result
}

/// Runs the model at `path` (`session`) on `inputs` and gives its float output `output`.
pub(super) fn run_output(
    session: &mut Session,
    inputs: Vec<(String, ort::session::SessionInputValue<'static>)>,
    output: &str,
    path: &Path,
) -> Result<Vec<f32>, RuntimeError> {
    let fail = |e: String| RuntimeError::Failed(format!("model {} failed: {e}", path.display()));
    let outputs = session.run(inputs).map_err(|e| fail(e.to_string()))?;
    let out = outputs
        .get(output)
        .ok_or_else(|| fail(format!("it has no output named '{output}'")))?;
    let (_, values) = out
        .try_extract_tensor::<f32>()
        .map_err(|e| fail(e.to_string()))?;
    Ok(values.to_vec())
}

fn run(
    session: &mut Session,
    inputs: Vec<(String, ort::session::SessionInputValue<'static>)>,
    batch: usize,
    path: &Path,
) -> Result<Vec<f64>, RuntimeError> {
    let fail = |e: String| RuntimeError::Failed(format!("model {} failed: {e}", path.display()));
    let values = run_output(session, inputs, "score", path)?;
    if values.len() != batch {
        return Err(fail(format!(
            "'score' has {} values for {batch} pairs",
            values.len()
        )));
    }
    Ok(values
        .iter()
        .map(|&v| {
            let v = f64::from(v);
            if v.is_nan() {
                0.0
            } else {
                v.clamp(0.0, 1.0)
            }
        })
        .collect())
}
