//! Running one entry point over N inputs on a small-stack rayon pool: per-input random streams,
//! the last-input files that survive a crash, timing, finding deduplication and the report.

use crate::checks::{fixture_row, run_call};
use crate::entries::{generate, Call, Context};
use crate::Cli;
use proptest::test_runner::{RngAlgorithm, TestRng};
use rayon::prelude::*;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Inputs handed to a worker at a time.
const CHUNK: u64 = 64;
/// Slowest inputs kept for the report.
const SLOWEST: usize = 3;

/// The random stream of input `index` of `entry`: independent of threads and of other inputs.
pub fn input_rng(seed: u64, entry: &str, index: u64) -> TestRng {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&index.to_le_bytes());
    for (i, b) in entry.bytes().take(16).enumerate() {
        bytes[16 + i] = b;
    }
    TestRng::from_seed(RngAlgorithm::ChaCha, &bytes)
}

/// One distinct problem: first input that showed it, and how often it was seen.
#[derive(Debug, Clone)]
struct Finding {
    count: u64,
    index: u64,
    row: String,
}

/// What a set of inputs produced.
#[derive(Debug, Default)]
struct Stats {
    inputs: u64,
    calls: u64,
    findings: BTreeMap<String, Finding>,
    /// (time, index, first call's summary), slowest first.
    slowest: Vec<(Duration, u64, String)>,
}

impl Stats {
    fn note_time(&mut self, took: Duration, index: u64, calls: &[Call]) {
        if self.slowest.len() == SLOWEST && self.slowest.last().is_some_and(|s| s.0 >= took) {
            return;
        }
        let summary = calls
            .first()
            .map(|c| summarize(&fixture_row("", c)))
            .unwrap_or_default();
        self.slowest.push((took, index, summary));
        self.slowest
            .sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        self.slowest.truncate(SLOWEST);
    }

    fn note_finding(&mut self, message: String, index: u64, row: String) {
        let f = self.findings.entry(message).or_insert(Finding {
            count: 0,
            index,
            row,
        });
        f.count += 1;
        if index < f.index {
            f.index = index;
        }
    }

    fn merge(mut self, other: Stats) -> Stats {
        self.inputs += other.inputs;
        self.calls += other.calls;
        for (message, f) in other.findings {
            match self.findings.get_mut(&message) {
                Some(mine) => {
                    mine.count += f.count;
                    if f.index < mine.index {
                        mine.index = f.index;
                        mine.row = f.row;
                    }
                }
                None => {
                    self.findings.insert(message, f);
                }
            }
        }
        for s in other.slowest {
            self.slowest.push(s);
        }
        self.slowest
            .sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        self.slowest.truncate(SLOWEST);
        self
    }
}

fn summarize(row: &str) -> String {
    let row = row.trim_start_matches('\t');
    if row.chars().count() > 200 {
        format!("{}...", row.chars().take(200).collect::<String>())
    } else {
        row.to_string()
    }
}

/// Dedup key of a problem message: digits and quoted text replaced, so that one bug seen on many
/// inputs is one finding.
fn dedup_key(call: &Call, message: &str) -> String {
    let mut key = String::new();
    let mut in_quote = false;
    let mut last_digit = false;
    for c in message.chars().take(300) {
        if c == '\'' {
            in_quote = !in_quote;
            key.push(c);
        } else if in_quote {
            continue;
        } else if c.is_ascii_digit() && !key.ends_with(".rs:") {
            if !last_digit {
                key.push('#');
            }
            last_digit = true;
            continue;
        } else {
            key.push(c);
        }
        last_digit = false;
    }
    format!("{}: {key}", call.function)
}

fn last_input_path(dir: &Path, entry: &str, worker: usize) -> PathBuf {
    dir.join(format!("last-input.{entry}.{worker}"))
}

/// Removes the last-input files of a previous run of `entry`.
pub fn clear_last_inputs(dir: &Path, entry: &str) {
    for worker in 0..256 {
        let _ = std::fs::remove_file(last_input_path(dir, entry, worker));
    }
}

/// Prints the last-input files of `entry` (after its process died) with replay commands.
pub fn print_last_inputs(dir: &Path, entry: &str, seed: u64) {
    for worker in 0..256 {
        let path = last_input_path(dir, entry, worker);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let body = text.split("\n#end\n").next().unwrap_or_default();
        println!("  -- worker {worker} ({}):", path.display());
        for line in body.lines() {
            println!("     {}", summarize(line));
        }
        if let Some(index) = body.lines().next().and_then(|l| l.split("index=").nth(1)) {
            println!(
                "     replay: cargo run --release --example fuzz -- --entry {entry} --seed {seed} --only {}",
                index.trim()
            );
        }
    }
}

thread_local! {
    /// This worker's last-input file, opened on first use.
    static LAST_INPUT: RefCell<Option<File>> = const { RefCell::new(None) };
}

/// Records the input a worker is about to run: one positioned write, no open/close per input;
/// the page cache keeps it when the process dies.
fn record_last_input(dir: &Path, entry: &str, seed: u64, index: u64, calls: &[Call]) {
    let mut text = format!("entry={entry} seed={seed} index={index}\n");
    for c in calls {
        text.push_str(&fixture_row(entry, c));
        text.push('\n');
    }
    text.push_str("#end\n");
    LAST_INPUT.with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot.is_none() {
            let worker = rayon::current_thread_index().unwrap_or(0);
            *slot = File::create(last_input_path(dir, entry, worker)).ok();
        }
        if let Some(f) = slot.as_ref() {
            let _ = f.write_at(text.as_bytes(), 0);
        }
    });
}

/// CPU time of the calling thread: what an input costs, whatever else the machine is doing (a
/// wall-clock threshold made the short run fail on a loaded CI machine). Every call of an input
/// runs on the worker thread that generated it (the registry's scalar path spawns no threads).
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec and CLOCK_THREAD_CPUTIME_ID is supported on Linux.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Runs input `index`; its problems go into `stats`.
fn run_input(cli: &Cli, ctx: &Context, entry: &str, index: u64, stats: &mut Stats) {
    let mut rng = input_rng(cli.seed, entry, index);
    let calls = generate(entry, &mut rng, ctx);
    record_last_input(&cli.out_dir, entry, cli.seed, index, &calls);
    let start = thread_cpu_time();
    for call in &calls {
        if let Err(problem) = run_call(call) {
            stats.note_finding(dedup_key(call, &problem), index, fixture_row(entry, call));
        }
    }
    let took = thread_cpu_time().saturating_sub(start);
    if took > Duration::from_millis(cli.slow_ms) {
        let call = calls.first().cloned();
        if let Some(c) = call {
            stats.note_finding(
                format!("slow: an input took over {} ms of CPU", cli.slow_ms),
                index,
                fixture_row(entry, &c),
            );
        }
    }
    stats.inputs += 1;
    stats.calls += calls.len() as u64;
    stats.note_time(took, index, &calls);
}

/// Runs `cli.inputs` inputs of `entry` from index `cli.first` and prints its report; true when
/// there was no finding.
pub fn run_entry(cli: &Cli, ctx: &Context, entry: &str) -> bool {
    let _ = std::fs::create_dir_all(&cli.out_dir);
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(cli.threads)
        .stack_size(cli.stack_kib * 1024)
        .thread_name(|i| format!("fuzz-worker-{i}"))
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("fuzz: cannot build the thread pool: {e}");
            return false;
        }
    };
    let start = Instant::now();
    let chunks = cli.inputs.div_ceil(CHUNK);
    // about ten progress lines on long runs, none on short ones
    let progress_every = if cli.inputs >= 100_000 {
        chunks / 10
    } else {
        u64::MAX
    };
    let chunks_done = AtomicU64::new(0);
    let stats = pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map(|chunk| {
                let mut stats = Stats::default();
                let end = ((chunk + 1) * CHUNK).min(cli.inputs);
                for index in cli.first + chunk * CHUNK..cli.first + end {
                    run_input(cli, ctx, entry, index, &mut stats);
                }
                let done = chunks_done.fetch_add(1, Ordering::Relaxed) + 1;
                if done.is_multiple_of(progress_every) {
                    eprintln!(
                        "   {entry}: {} of {} inputs from index {}, {:.0} s",
                        (done * CHUNK).min(cli.inputs),
                        cli.inputs,
                        cli.first,
                        start.elapsed().as_secs_f64()
                    );
                }
                stats
            })
            .reduce(Stats::default, Stats::merge)
    });
    let mut stats = stats;
    report(cli, entry, &mut stats, start.elapsed());
    stats.findings.is_empty()
}

/// Peak resident memory of this process in MiB (`VmHWM`), when the system says.
fn peak_rss_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

fn report(cli: &Cli, entry: &str, stats: &mut Stats, took: Duration) {
    let secs = took.as_secs_f64().max(1e-9);
    let peak = peak_rss_mib();
    if let Some(mib) = peak.filter(|&m| m > cli.max_rss_mib) {
        // one process per entry: its peak is this entry's
        stats.note_finding(
            format!(
                "memory: the entry's process peaked at {mib} MiB, over {} MiB",
                cli.max_rss_mib
            ),
            0,
            String::new(),
        );
    }
    println!(
        "== {entry}: {} inputs from index {} ({} calls) in {secs:.1} s: {:.0} inputs/s on {} threads with {} KiB stacks; peak memory {} MiB; findings: {}",
        stats.inputs,
        cli.first,
        stats.calls,
        stats.inputs as f64 / secs,
        cli.threads,
        cli.stack_kib,
        peak.map_or("?".into(), |m| m.to_string()),
        stats.findings.len()
    );
    for (took, index, summary) in &stats.slowest {
        println!(
            "   slow: {:.1} ms CPU  #{index}  {summary}",
            took.as_secs_f64() * 1e3
        );
    }
    for (message, f) in &stats.findings {
        println!("   FINDING ({}x, first #{}): {message}", f.count, f.index);
        println!("     fixture row: {}", summarize(&f.row));
        println!(
            "     replay: cargo run --release --example fuzz -- --entry {entry} --seed {} --only {}",
            cli.seed, f.index
        );
    }
}

/// Runs input `index` alone on one small-stack thread, printing every call in full with its
/// outcome; true when nothing misbehaved.
pub fn replay_one(cli: &Cli, ctx: &Context, entry: &str, index: u64) -> bool {
    let mut rng = input_rng(cli.seed, entry, index);
    let calls = generate(entry, &mut rng, ctx);
    let worker = std::thread::Builder::new()
        .stack_size(cli.stack_kib * 1024)
        .spawn(move || {
            let mut clean = true;
            for call in &calls {
                let start = Instant::now();
                let cpu_start = thread_cpu_time();
                let outcome = run_call(call);
                println!("{}", fixture_row("", call).trim_start_matches('\t'));
                match outcome {
                    Ok(result) => println!(
                        "  -> ok ({:.1} ms, {:.1} ms CPU): {result}",
                        start.elapsed().as_secs_f64() * 1e3,
                        thread_cpu_time().saturating_sub(cpu_start).as_secs_f64() * 1e3
                    ),
                    Err(e) => {
                        clean = false;
                        println!("  -> PROBLEM: {e}");
                    }
                }
            }
            clean
        });
    matches!(worker.map(|h| h.join()), Ok(Ok(true)))
}
