//! Fuzzing every entry point of the SQL surface on the stable toolchain:
//! `cargo run --release --example fuzz -- --entry NAME|all --inputs N --seed S`.
//!
//! Inputs come from a grammar-based SQL generator (`fuzz/sqlgen.rs`, with literals and
//! pathological shapes in `fuzz/lexicon.rs`), mutations of a seed corpus
//! taken from the project's fixtures (`fuzz/mutate.rs`) and generated or mutated schemas in the
//! three accepted forms (`fuzz/schemagen.rs`); `fuzz/entries.rs` turns each input into calls of
//! the registry (the host boundary) and a few direct core calls, `fuzz/checks.rs` judges them.
//! One entry per dialect other than SQLite (`fuzz/dialect_entries.rs`) sends queries written
//! for that engine (`fuzz/dialectgen.rs`) with the dialect options, and checks their
//! translation into SQLite (`fuzz/dialect_checks.rs`).
//!
//! Randomness: proptest's `TestRng` (already a dev-dependency; the ChaCha generator behind
//! proptest's own runs, seedable from bytes). Each input gets its own stream derived from
//! (seed, entry, index), so any input is reproduced alone with `--only INDEX`, whatever the
//! thread count. The grammar is hand-written over that stream rather than composed from
//! proptest `Strategy` combinators: a million recursive `prop_recursive` value trees per entry
//! cost far more than the calls they feed, and findings are minimized by hand (a failing call
//! prints as a fixture row) rather than by proptest's shrinking.
//!
//! Robustness: inputs run on a rayon pool whose threads have small stacks (`--stack-kib`,
//! default 1 MiB) like host threads. Each entry runs in a child process; before every input a
//! worker writes its index and calls to `target/fuzz/last-input.ENTRY.WORKER`, so when a stack
//! overflow or abort kills the child, the parent prints those files and how to replay them.
//! Report per entry: inputs, findings (deduplicated by message), inputs/s, the process's peak
//! memory (over `--max-rss-mib`, 4096 by default, a finding), slowest inputs.

#[path = "fuzz/checks.rs"]
mod checks;
#[path = "fuzz/dialect_checks.rs"]
mod dialect_checks;
#[path = "fuzz/dialect_entries.rs"]
mod dialect_entries;
#[path = "fuzz/dialectgen.rs"]
mod dialectgen;
#[path = "fuzz/entries.rs"]
mod entries;
#[path = "fuzz/lexicon.rs"]
mod lexicon;
#[path = "fuzz/mutate.rs"]
mod mutate;
#[path = "fuzz/runner.rs"]
mod runner;
#[path = "fuzz/schemagen.rs"]
mod schemagen;
#[path = "fuzz/sqlgen.rs"]
mod sqlgen;
#[path = "fuzz/vocabulary.rs"]
mod vocabulary;

use std::path::PathBuf;
use std::process::{Command, ExitCode};

/// Command-line options.
#[derive(Debug, Clone)]
pub struct Cli {
    pub entries: Vec<String>,
    pub inputs: u64,
    /// Index of the first input: `--first F --inputs N` runs inputs F..F+N, so a long run can
    /// be split into parts that together run the same inputs.
    pub first: u64,
    /// Inputs of the parseval entry, whose inputs cost a thousand times more (default: `inputs`).
    pub parseval_inputs: Option<u64>,
    pub seed: u64,
    pub threads: usize,
    pub stack_kib: usize,
    /// Run only this input index (prints its calls and each call's outcome).
    pub only: Option<u64>,
    /// An input that takes more CPU time than this (its thread's, not wall-clock) is a finding.
    pub slow_ms: u64,
    pub parseval_options: String,
    /// A peak resident memory of an entry's process above this (MiB) is a finding.
    pub max_rss_mib: u64,
    /// Set in the child process that runs one entry.
    pub child: bool,
    pub out_dir: PathBuf,
}

const USAGE: &str = "usage: fuzz [--entry parse|plan|spider|schema|parseval|gmn|postgres|mysql|duckdb|\
snowflake|bigquery|ansi|all] [--inputs N] [--first INDEX] \
[--parseval-inputs N] [--seed S] [--threads T] [--stack-kib K] [--only INDEX] [--slow-ms MS] [--parseval-options JSON] [--max-rss-mib MIB]";

fn parse_cli() -> Result<Cli, String> {
    let mut cli = Cli {
        entries: entries::ENTRIES.iter().map(|e| e.to_string()).collect(),
        inputs: 1_000_000,
        first: 0,
        parseval_inputs: None,
        seed: 1,
        threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
        stack_kib: 1024,
        only: None,
        slow_ms: 5_000,
        parseval_options: r#"{"work":2000000,"max_rows":3}"#.into(),
        max_rss_mib: 4096,
        child: false,
        out_dir: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/fuzz"),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--child" {
            cli.child = true;
            continue;
        }
        let value = args
            .next()
            .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
        let number = |v: &str| v.parse::<u64>().map_err(|e| format!("{flag} {v}: {e}"));
        match flag.as_str() {
            "--entry" if value == "all" => {}
            "--entry" => {
                let names: Vec<String> = value.split(',').map(str::to_string).collect();
                if let Some(bad) = names
                    .iter()
                    .find(|n| !entries::ENTRIES.contains(&n.as_str()))
                {
                    return Err(format!("unknown entry '{bad}'\n{USAGE}"));
                }
                cli.entries = names;
            }
            "--inputs" => cli.inputs = number(&value)?,
            "--first" => cli.first = number(&value)?,
            "--parseval-inputs" => cli.parseval_inputs = Some(number(&value)?),
            "--seed" => cli.seed = number(&value)?,
            "--threads" => cli.threads = number(&value)?.max(1) as usize,
            "--stack-kib" => cli.stack_kib = number(&value)?.max(64) as usize,
            "--only" => cli.only = Some(number(&value)?),
            "--slow-ms" => cli.slow_ms = number(&value)?,
            "--parseval-options" => cli.parseval_options = value,
            "--max-rss-mib" => cli.max_rss_mib = number(&value)?,
            "--out-dir" => cli.out_dir = PathBuf::from(value),
            _ => return Err(format!("unknown flag {flag}\n{USAGE}")),
        }
    }
    Ok(cli)
}

/// Runs each entry in a child process (this program with `--child`) so that a crash is reported
/// with the inputs in flight instead of ending the whole run.
fn supervise(cli: &Cli) -> ExitCode {
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("fuzz: cannot find own executable: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut failed = false;
    for entry in &cli.entries {
        runner::clear_last_inputs(&cli.out_dir, entry);
        let inputs = match (entry.as_str(), cli.parseval_inputs) {
            ("parseval", Some(n)) => n,
            _ => cli.inputs,
        };
        let status = Command::new(&exe)
            .args(["--child", "--entry", entry])
            .args([
                "--inputs",
                &inputs.to_string(),
                "--seed",
                &cli.seed.to_string(),
                "--first",
                &cli.first.to_string(),
            ])
            .args(["--threads", &cli.threads.to_string()])
            .args(["--stack-kib", &cli.stack_kib.to_string()])
            .args(["--slow-ms", &cli.slow_ms.to_string()])
            .args(["--parseval-options", &cli.parseval_options])
            .args(["--max-rss-mib", &cli.max_rss_mib.to_string()])
            .arg("--out-dir")
            .arg(&cli.out_dir)
            .status();
        match status {
            Ok(s) if s.success() => {}
            Ok(s) if s.code().is_some() => failed = true,
            Ok(s) => {
                failed = true;
                println!("== {entry}: the process died ({s}); inputs in flight:");
                runner::print_last_inputs(&cli.out_dir, entry, cli.seed);
            }
            Err(e) => {
                failed = true;
                println!("== {entry}: could not start: {e}");
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn main() -> ExitCode {
    let cli = match parse_cli() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if !cli.child && cli.only.is_none() {
        return supervise(&cli);
    }
    checks::install_quiet_panic_hook();
    let corpus = mutate::Corpus::load(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
    if corpus.queries.is_empty() {
        eprintln!("fuzz: no seed queries found under tests/");
        return ExitCode::from(2);
    }
    let ctx = entries::Context {
        corpus,
        parseval_options: cli.parseval_options.clone(),
    };
    let mut clean = true;
    for entry in &cli.entries {
        clean &= match cli.only {
            Some(index) => runner::replay_one(&cli, &ctx, entry, index),
            None => runner::run_entry(&cli, &ctx, entry),
        };
    }
    if clean {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
