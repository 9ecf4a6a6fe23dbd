# sqlsim: build both hosts' artifacts, run the demo, the tests, benchmarks and evaluations.
# `make demo` and `make test` are all a new user needs on a fresh Debian machine: missing system
# packages and the Python venv are installed on first use. The venv holds requirements-dev.txt
# (demo and tests); the GMN training stack (requirements-train.txt) and the reference benchmark
# stack (requirements-bench.txt) are added only by the targets that use them.
#
# `make help` lists every target: the `## ` line right above a target's rule is its description
# (tests/docs/test_make_help.py checks that every target has one, that .PHONY names them all, and
# that docs/development.md lists the same targets with the same descriptions).

SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
DUCKDB_CLI := $(VENV)/bin/duckdb
DATA ?= ../shared/data
# The metrics CI's quality floors evaluate (sql_similarity against its cheap components).
FLOOR_METRICS ?= ast_ted,relpm,sql_similarity
CARGO ?= cargo
DIST := dist
LIB := target/release/libsqlsim.so
VERSION := $(shell grep -m1 '^version' Cargo.toml | cut -d'"' -f2)
# No libsqlite3-dev: the one SQLite in the library is rusqlite's bundled copy (Cargo.toml).
DEBIAN_PACKAGES := libclang-dev sqlite3 python3-venv
SOURCES := $(shell find src vendor -name '*.rs') Cargo.toml build.rs vendor/sqlite3ext-sys/Cargo.toml
# Z3: the libz3 of the PyPI z3-solver wheel (pinned in requirements-dev.txt), copied out of the venv
# into .cache/z3 (where .cargo/config.toml also points plain cargo commands), linked by z3-sys
# without pkg-config (which would find Debian's 4.8.12) and shipped in dist/ beside the extension,
# which finds it through its $$ORIGIN run path. Test binaries get the directory as a run path from
# build.rs; doctests find it through LD_LIBRARY_PATH.
Z3_DIR := .cache/z3
Z3_SONAME := libz3.so.5.4
export Z3_LIBRARY_PATH_OVERRIDE := $(abspath $(Z3_DIR))
export Z3_SYS_Z3_VERSION := 5.4.0
export Z3_NO_PKG_CONFIG := 1
# ONNX Runtime: the libonnxruntime of the PyPI onnxruntime wheel (pinned in requirements-dev.txt),
# copied into .cache/ort and shipped in dist/ beside the extension, which loads it at run time
# (ort's load-dynamic: nothing links against it). The GMN models in models/*.onnx are copied beside
# it too; when there are none the build still succeeds and the GMN scores report the missing model.
ORT_DIR := .cache/ort
ORT_SONAME := libonnxruntime.so.1.31.1
MODELS := $(wildcard models/*.onnx)
DIST_MODELS := $(patsubst models/%,$(DIST)/%,$(MODELS))

.PHONY: help all deps venv train-venv bench-venv ray-venv z3 ort notices wheel demo docs \
  test test-rust test-data check test-sql test-duckdb-versions test-models test-models-jax test-docs \
  test-wheel test-python test-ray stress stress-short fuzz fuzz-short lint compare-builds \
  bench bench-scale eval eval-calcite eval-rewrites exec-agreement eval-floors spider-eval bird-eval \
  evaluate-run evaluate-run-sqlite train-gmn clean

# The licenses travel with the binaries: sqlsim's LICENSE, THIRD_PARTY_NOTICES (Z3, ONNX Runtime, SQLite,
# DuckDB, the Rust crates; `make notices` rewrites it) and ONNX Runtime's own third-party notices.
NOTICES := $(DIST)/LICENSE $(DIST)/THIRD_PARTY_NOTICES $(DIST)/ONNXRUNTIME_THIRD_PARTY_NOTICES.txt

## Build dist/: both extensions, libz3, ONNX Runtime, the GMN models and the notices
all: $(DIST)/sqlsim.so $(DIST)/sqlsim.duckdb_extension $(DIST)/$(Z3_SONAME) $(DIST)/$(ORT_SONAME) $(DIST_MODELS) $(NOTICES)

## List every target with its description
help:
	@awk '/^## /{doc=substr($$0, 4); next} \
	  doc != "" && /^[a-z][a-z0-9-]*:/{split($$0, t, ":"); printf "%-22s %s\n", t[1], doc} {doc=""}' $(firstword $(MAKEFILE_LIST))

# --- dependencies -----------------------------------------------------------------------------
# System packages: bindgen (sqlite-loadable) needs libclang; tests need the real sqlite3 shell.
.cache/deps.stamp:
	@missing=""; for p in $(DEBIAN_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi
	@mkdir -p .cache && touch $@

## Install the missing Debian packages (libclang-dev, sqlite3, python3-venv)
deps: .cache/deps.stamp

$(VENV)/.stamp: requirements-dev.txt .cache/deps.stamp
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements-dev.txt
	@touch $@

## Create .venv with requirements-dev.txt (the demo's and the tests' Python packages)
venv: $(VENV)/.stamp

# The GMN training stack (JAX, Optax, jax2onnx, SciPy): make train-gmn and make test-models-jax.
$(VENV)/.train.stamp: requirements-train.txt $(VENV)/.stamp
	$(PY) -m pip install -q --disable-pip-version-check -r requirements-train.txt
	@touch $@

## Add the GMN training stack (requirements-train.txt) to .venv
train-venv: $(VENV)/.train.stamp

# The reference AST-TE stack (sqlglot + zss) that make bench times sqlsim against.
$(VENV)/.bench.stamp: requirements-bench.txt $(VENV)/.stamp
	$(PY) -m pip install -q --disable-pip-version-check -r requirements-bench.txt
	@touch $@

## Add the reference AST-TE stack (requirements-bench.txt) to .venv
bench-venv: $(VENV)/.bench.stamp

# Ray Data for sqlsim.ray (make test-ray, make bench-scale).
$(VENV)/.ray.stamp: requirements-ray.txt $(VENV)/.stamp
	$(PY) -m pip install -q --disable-pip-version-check -r requirements-ray.txt
	@touch $@

## Add Ray Data (requirements-ray.txt) to .venv
ray-venv: $(VENV)/.ray.stamp

$(Z3_DIR)/$(Z3_SONAME): $(VENV)/.stamp
	@mkdir -p $(Z3_DIR)
	cp "$$($(PY) -c 'import os, z3; print(os.path.join(os.path.dirname(z3.__file__), "lib"))')/$(Z3_SONAME)" $@
	ln -sf $(Z3_SONAME) $(Z3_DIR)/libz3.so

## Copy libz3 out of the z3-solver wheel into .cache/z3 (what cargo links)
z3: $(Z3_DIR)/$(Z3_SONAME)

$(ORT_DIR)/$(ORT_SONAME): $(VENV)/.stamp
	@mkdir -p $(ORT_DIR)
	cp "$$($(PY) -c 'import os, onnxruntime; print(os.path.join(os.path.dirname(onnxruntime.__file__), "capi"))')/$(ORT_SONAME)" $@

$(ORT_DIR)/ThirdPartyNotices.txt: $(VENV)/.stamp
	@mkdir -p $(ORT_DIR)
	cp "$$($(PY) -c 'import os, onnxruntime; print(os.path.dirname(onnxruntime.__file__))')/ThirdPartyNotices.txt" $@

## Copy ONNX Runtime out of the onnxruntime wheel into .cache/ort
ort: $(ORT_DIR)/$(ORT_SONAME)

# --- build ------------------------------------------------------------------------------------
$(LIB): $(SOURCES) .cache/deps.stamp $(Z3_DIR)/$(Z3_SONAME)
	$(CARGO) build --release --lib

# Installed by rename, never overwritten in place: a process that has the old file loaded (a
# host in another terminal, a test run) keeps its mapping instead of crashing on the new bytes.
$(DIST)/sqlsim.so: $(LIB) $(DIST)/$(Z3_SONAME)
	@mkdir -p $(DIST)
	cp $(LIB) $@.tmp && mv -f $@.tmp $@

$(DIST)/$(Z3_SONAME): $(Z3_DIR)/$(Z3_SONAME)
	@mkdir -p $(DIST)
	cp $< $@

$(DIST)/$(ORT_SONAME): $(ORT_DIR)/$(ORT_SONAME)
	@mkdir -p $(DIST)
	cp $< $@

$(DIST)/%.onnx: models/%.onnx
	@mkdir -p $(DIST)
	cp $< $@

$(DIST)/LICENSE: LICENSE
	@mkdir -p $(DIST)
	cp $< $@

$(DIST)/THIRD_PARTY_NOTICES: THIRD_PARTY_NOTICES
	@mkdir -p $(DIST)
	cp $< $@

$(DIST)/ONNXRUNTIME_THIRD_PARTY_NOTICES.txt: $(ORT_DIR)/ThirdPartyNotices.txt
	@mkdir -p $(DIST)
	cp $< $@

## Rewrite THIRD_PARTY_NOTICES from the licenses of what dist/ and the wheel carry
notices:
	python3 scripts/build/notices.py

# --- Python wheel (docs/python.md) ----------------------------------------------------------------
# dist/sqlsim-<version>-py3-none-manylinux_*.whl: both extensions, libz3, ONNX Runtime, the models,
# the report scripts and the notices in one self-contained package with the `sqlsim` command
# (scripts/build/build_wheel.py: setuptools through `pip wheel`, the platform tag from `auditwheel show`).
# The build tools live in their own venv (requirements-wheel.txt), not in the project's.
WHEEL_TOOLS := .cache/wheel-tools
$(WHEEL_TOOLS)/.stamp: requirements-wheel.txt
	@test -x $(WHEEL_TOOLS)/bin/python || python3 -m venv $(WHEEL_TOOLS)
	$(WHEEL_TOOLS)/bin/python -m pip install -q --disable-pip-version-check -r requirements-wheel.txt
	@touch $@

## Build the Python wheel dist/sqlsim-<version>-*.whl (docs/python.md)
wheel: all $(WHEEL_TOOLS)/.stamp
	$(WHEEL_TOOLS)/bin/python scripts/build/build_wheel.py --dist $(DIST)

$(DIST)/sqlsim.duckdb_extension: $(LIB) scripts/build/duckdb_footer.py
	@mkdir -p $(DIST)
	python3 scripts/build/duckdb_footer.py $(LIB) $@.tmp --version v$(VERSION) --capi v1.2.0 --platform linux_amd64
	mv -f $@.tmp $@

# --- demo -------------------------------------------------------------------------------------
## Build dist/ and run sql/demo.sql in the sqlite3 and duckdb shells
demo: all venv
	@echo "== SQLite ($$(sqlite3 --version | cut -d' ' -f1)) =="
	sqlite3 -cmd ".load ./$(DIST)/sqlsim" -cmd ".mode box --wrap 100 --wordwrap on" :memory: < sql/demo.sql
	@echo "== DuckDB ($$($(DUCKDB_CLI) --version)) =="
	$(DUCKDB_CLI) -unsigned -cmd "LOAD '$(DIST)/sqlsim.duckdb_extension'" -cmd ".mode box" :memory: < sql/demo.sql

# --- tests ------------------------------------------------------------------------------------
## Every test but the long ones: Rust, SQL in both hosts, DuckDB versions, models, docs, wheel, stress, fuzz
test: all venv test-rust test-sql test-duckdb-versions test-models test-docs test-wheel test-python stress-short fuzz-short

# The Rust tests build in the release profile, the one `make all` builds dist/ in, so that the
# dependencies and the library compiled for dist/ serve the tests too (a fresh clone compiles them
# once): the library's unit tests, the one integration test crate (tests/integration/) and the
# doctests, each built once; examples are built only by the targets that run them. `make check`
# builds in Cargo.toml's test-fast profile instead (incremental: quicker after an edit).
# Tests that read $(DATA) are #[ignore]d: `make test-data` runs them.
TEST_PROFILE ?= release
TEST_CARGO = $(CARGO) test --profile $(TEST_PROFILE)
DATA_ABS = $(abspath $(DATA))
## Rust unit, integration and doc tests (release profile, shared with `make all`)
test-rust: .cache/deps.stamp $(Z3_DIR)/$(Z3_SONAME)
	$(TEST_CARGO) --lib --test integration
	LD_LIBRARY_PATH=$(Z3_LIBRARY_PATH_OVERRIDE) $(TEST_CARGO) --doc

# The #[ignore]d Rust tests that replay ../shared/data (DATA=...): they fail, never pass, without it.
## Rust tests that replay the public data sets in DATA (long; CI runs them)
test-data: .cache/deps.stamp $(Z3_DIR)/$(Z3_SONAME)
	@[ -d "$(DATA)" ] || { echo "test-data: $(DATA) is absent (set DATA=...)" >&2; exit 2; }
	SQLSIM_DATA=$(DATA_ABS) $(TEST_CARGO) --test integration -- --ignored

# The tests of what changed since the merge base with $(CHECK_BASE) (commits, staged, unstaged and
# untracked files): tests/check.sh maps each changed path to its top-level module under src/ and
# runs that module's unit tests, the integration tests (all but the data-backed ones), the doctests
# of changed files' modules and `pytest -k` over tests/sql for those module names (which builds
# dist/ first). CHECK_MODULES=plan,schema names the modules instead; CHECK_SQL=0 leaves out SQL.
CHECK_BASE ?= main
CHECK_MODULES ?=
CHECK_SQL ?= 1
CHECK_PROFILE ?= test-fast
## The tests of the modules changed since CHECK_BASE (tests/check.sh; test-fast profile)
check: .cache/deps.stamp $(Z3_DIR)/$(Z3_SONAME)
	CARGO="$(CARGO)" TEST_PROFILE=$(CHECK_PROFILE) CHECK_BASE=$(CHECK_BASE) CHECK_MODULES=$(CHECK_MODULES) \
	  CHECK_SQL=$(CHECK_SQL) MAKE="$(MAKE)" PY=$(PY) SQLSIM_DATA=$(DATA_ABS) bash tests/check.sh

## SQL-level tests of dist/ in both hosts (tests/sql)
test-sql: all venv
	SQLSIM_DATA=$(DATA) $(PY) -m pytest -q tests/sql

# The extension declares C API v1.2.0: check it loads in the oldest and newest DuckDB on PyPI.
## Load dist/'s DuckDB extension in DuckDB 1.3 through 2.0
test-duckdb-versions: all venv
	$(PY) tests/duckdb_versions.py $(DIST)/sqlsim.duckdb_extension

# Generator, tensor layout and ONNX-vs-JAX parity of the shipped GMN models (a few seconds). The
# parity test needs JAX, which make test's venv does not hold: there it skips, and
# test-models-jax (CI's .ci/run) installs the training stack and fails if it still cannot run.
## GMN model tests (the ONNX-vs-JAX parity test skips without JAX)
test-models: all venv
	SQLSIM_DATA=$(DATA) $(PY) -m pytest -q -rs tests/models

## GMN model tests with the training stack installed, parity required (CI)
test-models-jax: all train-venv
	SQLSIM_REQUIRE_JAX=1 SQLSIM_DATA=$(DATA) $(PY) -m pytest -q tests/models

# The documentation: every relative link and anchor of every Markdown file resolves, every path
# ARCHITECTURE.md, README.md and docs/ name exists, the README's function reference is what the
# built extension's sqlsim_functions() says, the generated SQL scripts are up to date, and
# `make help` agrees with docs/development.md.
## Documentation tests: links, generated parts up to date, make help vs docs/development.md
test-docs: all venv
	$(PY) -m pytest -q tests/docs

## Regenerate the generated files: README's function reference, sql/spider_eval*.sql
docs: all venv
	$(PY) scripts/build/function_reference.py --write README.md
	python3 scripts/build/sql_hosts.py

# The wheel installed into a fresh venv (in a temp folder, never the checkout on sys.path): the loader
# in apsw, DuckDB and the stdlib sqlite3, and every `sqlsim` command on tests/fixtures. The venv's
# dependencies come from .cache/wheelhouse (downloaded on the first run, offline afterwards).
## The wheel installed into a fresh venv: loader and every `sqlsim` command
test-wheel: wheel venv
	$(PY) -m pytest -q tests/wheel

## The Python package's RL reward against dist/ (tests/python/test_reward.py)
test-python: all venv
	$(PY) -m pytest -q tests/python/test_reward.py

# sqlsim.ray on a local 2-CPU Ray cluster (CI's .ci/run; installs requirements-ray.txt, fails if Ray
# still cannot be imported).
## sqlsim.ray on a local 2-CPU Ray cluster (CI)
test-ray: all ray-venv
	SQLSIM_REQUIRE_RAY=1 $(PY) -m pytest -q tests/python/test_ray.py

# Fresh processes over every host (Python duckdb, duckdb shell, sqlite3 shell, apsw, DuckDB cursors
# on threads) x thread setting x function family (two of them call every function with the dialect
# options on queries written for each dialect); fails on any crash, hang or SQL error
# (scripts/check/stress.py).
## Stress every host x threads 1 to 16 x function family in fresh processes (long)
stress: all venv
	$(PY) scripts/check/stress.py --dist $(DIST) --repeats 3

## The short stress run (threads 1, 3, 16)
stress-short: all venv
	$(PY) scripts/check/stress.py --dist $(DIST) --short

# Fuzzing every entry point (examples/fuzz.rs): grammar-generated and fixture-mutated queries and
# schemas through the registry (parse, plan, spider, schema, parseval, gmn, and one entry per
# dialect: postgres, mysql, duckdb, snowflake, bigquery, ansi, with the dialect options) on 1 MiB
# worker stacks; fails on an internal error or panic, a crashed process, a score outside [0, 1] or
# NaN, a broken identity, an input over FUZZ_SLOW_MS of CPU time (its thread's, so load does not
# matter), a ParSEval reason naming the wall-clock cap, an error that does not name its function
# and argument, or a dialect translation without `sqlsim_untranslated` that SQLite cannot read, and
# prints each finding as a row for tests/fixtures/fuzz_regressions.tsv with its replay command.
# `fuzz` runs FUZZ_INPUTS inputs per entry point (FUZZ_PARSEVAL_INPUTS for parseval, the slowest:
# docs/host-safety.md has the rates). `fuzz-short` runs 5,000 inputs per entry point (2,000 for
# parseval) with a 30 s CPU bound per input, built in $(TEST_PROFILE) like the tests, on the
# entries of FUZZ_SHORT_ENTRIES (every entry). Each entry's process peaking over 4 GiB of memory
# is a finding.
FUZZ_SHORT_ENTRIES ?= parse,plan,spider,schema,parseval,gmn,postgres,mysql,duckdb,snowflake,bigquery,ansi
FUZZ_INPUTS ?= 1000000
FUZZ_PARSEVAL_INPUTS ?= $(FUZZ_INPUTS)
FUZZ_SEED ?= 1
FUZZ_SLOW_MS ?= 5000
# index of the first input: FUZZ_FIRST=F FUZZ_INPUTS=N runs inputs F..F+N (a long run in parts)
FUZZ_FIRST ?= 0
## Fuzz every entry point, each dialect's too, with FUZZ_INPUTS inputs each (hours)
fuzz: $(Z3_DIR)/$(Z3_SONAME)
	$(CARGO) run --release --example fuzz -- --entry all --inputs $(FUZZ_INPUTS) --first $(FUZZ_FIRST) \
	  --parseval-inputs $(FUZZ_PARSEVAL_INPUTS) --seed $(FUZZ_SEED) --slow-ms $(FUZZ_SLOW_MS)

## The short fuzz run (5,000 inputs per entry point, 2,000 for ParSEval)
fuzz-short: $(Z3_DIR)/$(Z3_SONAME)
	$(CARGO) run --profile $(TEST_PROFILE) --example fuzz -- --entry $(FUZZ_SHORT_ENTRIES) --inputs 5000 --parseval-inputs 2000 \
	  --seed $(FUZZ_SEED) --slow-ms 30000

## rustfmt and clippy, warnings as errors
lint: $(Z3_DIR)/$(Z3_SONAME)
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings

# A refactor's behaviour check: every scalar metric of two builds on the public pairs, diffed
# (scripts/check/compare_builds.py; exits 1 when any row differs). BASE is the other build's dist/
# folder, e.g. a `make all` of the base commit in a worktree.
BASE ?=
COMPARE_SETS ?= gpt4,gpt3.5,codellama,spiderdk,wikisql
## Diff every metric of dist/ against BASE=<other dist/> on the public pairs
compare-builds: all venv
	@[ -n "$(BASE)" ] || { echo "compare-builds: needs BASE=<the other build's dist/>" >&2; exit 2; }
	$(PY) scripts/check/compare_builds.py --base $(BASE) --new $(DIST) --sets $(COMPARE_SETS) --data $(DATA)

# --- measurements (read ../shared/data) ----------------------------------------------------------
# Then sql_similarity at its default on Spider-DK, plain and 8 predictions per gold (DuckDB, 2
# threads, a fresh process each), with each stage's share of the time (SQLSIM_PROFILE=1).
## ast_ted, relpm, Spider match throughput beside the references; sql_similarity with its stages
bench: all bench-venv
	$(PY) scripts/bench/bench.py --data $(DATA)
	$(PY) scripts/bench/bench.py --data $(DATA) --metric relpm --no-reference
	$(PY) scripts/bench/bench_spider.py --data $(DATA)
	$(PY) scripts/bench/bench_similarity.py --data $(DATA) --metrics sql_similarity --profile

# Pairs/s of sql_similarity, sql_equivalent and the GMN scores in DuckDB (2 threads), plain and 8
# predictions per gold, with the order and single-row determinism checks; then 1 vs 2 Ray workers.
## sql_similarity, sql_equivalent and GMN pairs/s in DuckDB, determinism, Ray 1 vs 2 workers
bench-scale: all ray-venv
	$(PY) scripts/bench/bench_similarity.py --data $(DATA) --check
	$(PY) scripts/bench/ray_scale.py

# EVAL_TABLE: the file whose <!-- eval:begin --> ... <!-- eval:end --> table `make eval` rewrites
# (and its <!-- eval-bird:... --> tables: sql_similarity against the BIRD expert labels, by preset);
# ROC_DIR: one ROC figure per set (every metric on it, AUC with its bootstrap 95% interval).
EVAL_TABLE ?= docs/quality.md
ROC_DIR ?= docs/roc
## ROC AUC, Spearman, Kendall of every metric on the labeled sets; rewrites docs/quality.md
eval: all venv
	$(PY) scripts/eval/eval.py --data $(DATA) --readme $(EVAL_TABLE) --roc-dir $(ROC_DIR)
	$(PY) scripts/eval/bird_expert.py --data $(DATA) --readme $(EVAL_TABLE)
	$(PY) scripts/eval/plan_fidelity.py --data $(DATA) --examples 0

# The four Spider-based sets again, their gold printed in Calcite's style (the surface of the
# held-out Spider-Pair gold): scripts/eval/calcite_gold.py rewrites them into CALCITE_DATA, eval.py
# scores them; compare with make eval's table (docs/semantics.md, "Calcite-printed SQL").
CALCITE_DATA ?= /tmp/sqlsim-calcite-data
## make eval's Spider sets with the gold printed in Calcite's style
eval-calcite: all bench-venv
	$(PY) scripts/eval/calcite_gold.py --data $(DATA) --out $(CALCITE_DATA)
	$(PY) scripts/eval/eval.py --data $(CALCITE_DATA) --sets spiderdk,gpt4,gpt3.5,codellama --no-kendall

# Equivalent rewrites of the Spider dev gold (CTE and SELECT * wrappers, COUNT(1), aliases, EXISTS,
# ...) made with sqlglot, scored in DuckDB: how near 1 the structural scores put an equivalent
# rewrite, per kind (docs/plans-relpm.md, docs/normalize-ablation.md).
## Scores of equivalent rewrites of the Spider dev gold, per kind
eval-rewrites: all bench-venv
	$(PY) scripts/eval/rewrite_probe.py --data $(DATA)

# exec_match, BIRD EX and Soft-F1 against the official verdicts of tests/fixtures/exec_agreement
# (databases regenerated by scripts/eval/exec_dbgen.py); prints agreement per rule and benchmark, every
# disagreement, and throughput beside the official code's. Fails on any disagreement.
## exec_match and BIRD EX / Soft-F1 against the official verdicts of tests/fixtures
exec-agreement: all venv
	SQLSIM_DATA=$(DATA) $(PY) scripts/eval/exec_agreement.py --data $(DATA) --check

# CI's quality floors: ast_ted's ROC AUC at least the reference on every labeled public set,
# sql_similarity's at least that of each component evaluated beside it, and at least 99.8% of the
# queries SQLite accepts get a plan (measured: 99.99%).
## CI's quality floors on the public sets (fails below a floor)
eval-floors: all venv
	$(PY) scripts/eval/eval.py --data $(DATA) --no-kendall --floors --metrics $(FLOOR_METRICS)
	$(PY) scripts/eval/plan_fidelity.py --data $(DATA) --examples 0 --floor 0.998

# The official Spider report (evaluation.py --etype $(ETYPE)) from the official file formats, computed by
# sql/spider_eval.sql in DuckDB and by sql/spider_eval_sqlite.sql in SQLite (paths without ' or |).
# ETYPE=exec or all adds execution accuracy on DB=<db_dir> (db_dir/<db_id>/*.sqlite, as evaluation.py's --db).
GOLD ?= $(DATA)/spider/gold_example.txt
PRED ?= $(DATA)/spider/pred_example.txt
TABLES ?= $(DATA)/spider/tables.json
ETYPE ?= match
DB ?=
## The official Spider report from GOLD, PRED, TABLES [ETYPE, DB] in both hosts
spider-eval: all venv
	@case "$(ETYPE)" in match) ;; exec|all) [ -n "$(DB)" ] || { echo "spider-eval: ETYPE=$(ETYPE) needs DB=<db_dir>" >&2; exit 2; } ;; \
	  *) echo "spider-eval: ETYPE must be match, exec or all" >&2; exit 2 ;; esac
	@echo "== DuckDB: sql/spider_eval.sql =="
	@$(DUCKDB_CLI) -unsigned -cmd "LOAD '$(DIST)/sqlsim.duckdb_extension'" \
	  -cmd "SET VARIABLE gold = '$(GOLD)'" -cmd "SET VARIABLE pred = '$(PRED)'" \
	  -cmd "SET VARIABLE tables = '$(TABLES)'" -cmd "SET VARIABLE etype = '$(ETYPE)'" \
	  -cmd "SET VARIABLE db = '$(DB)'" :memory: < sql/spider_eval.sql
	@echo "== SQLite: sql/spider_eval_sqlite.sql =="
	@sed -e 's|{{GOLD}}|$(GOLD)|g' -e 's|{{PRED}}|$(PRED)|g' -e 's|{{TABLES}}|$(TABLES)|g' \
	  -e 's|{{ETYPE}}|$(ETYPE)|g' -e 's|{{DB}}|$(DB)|g' \
	  sql/spider_eval_sqlite.sql | sqlite3 -bail -cmd ".load ./$(DIST)/sqlsim" :memory:

# The BIRD report (EX, Soft-F1 and, with VES=1, R-VES per difficulty, laid out as BIRD prints them) from
# BIRD's prediction JSON, dev.json and db root (DB_ROOT/<db_id>/<db_id>.sqlite), by sql/bird_eval.sql in
# DuckDB. R-VES times every matching pair 100 times each way: slow, and noisy (docs/execution.md).
DEV ?= $(DATA)/bird/dev.json
DB_ROOT ?=
VES ?=
## The BIRD report (EX, Soft-F1 [R-VES]) from PRED, DB_ROOT [DEV, VES]
bird-eval: all venv
	@[ -n "$(filter command line environment environment override,$(origin PRED))" ] && [ -n "$(DB_ROOT)" ] || \
	  { echo "bird-eval: needs PRED=<predict_dev.json> DB_ROOT=<dir> [DEV=<dev.json>] [VES=1]" >&2; exit 2; }
	@$(DUCKDB_CLI) -unsigned -cmd "LOAD '$(DIST)/sqlsim.duckdb_extension'" \
	  -cmd "SET VARIABLE pred = '$(PRED)'" -cmd "SET VARIABLE dev = '$(DEV)'" \
	  -cmd "SET VARIABLE db_root = '$(DB_ROOT)'" -cmd "SET VARIABLE ves = '$(VES)'" :memory: < sql/bird_eval.sql

# --- GMN models (models/README.md) ---------------------------------------------------------------
# Retrains FuncEvalGMN and Hybrid GMN from scratch on CPU: synthetic pairs over the Spider/BIRD train
# schemas labelled by sql_equivalent, the WikiSQL train half and the BIRD DAIL pairs; graphs from
# sql_graph; then ONNX export to models/*.onnx. Intermediate files go to $(GMN_CACHE).
GMN_CACHE ?= /tmp/gmn_cache
GMN_PAIRS ?= 8000
GMN_SEED ?= 20261121
# Each model trains for its epochs or its minutes, whichever ends first (checked between batches),
# so that the whole pipeline stays under an hour on 2 cores; the phase lines time each step.
# An entry is model:epochs:minutes[:seeds[:dim]]; several seeds train an ensemble (models/README.md).
GMN_MODELS ?= funceval:16:22 hybrid:10:30
## Retrain both GMN models from scratch on CPU and export models/*.onnx (about an hour)
train-gmn: all train-venv
	mkdir -p $(GMN_CACHE)
	@date -u +"train-gmn phase labelling start %T"
	nice -n 10 $(PY) -m models.gmn.dataset --data $(DATA) --ext $(DIST)/sqlsim.so --n $(GMN_PAIRS) \
	  --seed $(GMN_SEED) --out $(GMN_CACHE)/pairs.jsonl
	@date -u +"train-gmn phase graphs start %T"
	nice -n 10 $(PY) -m models.gmn.graphs --data $(DATA) --ext $(DIST)/sqlsim.so --pairs $(GMN_CACHE)/pairs.jsonl \
	  --out $(GMN_CACHE)/graphs.jsonl --eval-out $(GMN_CACHE)/eval_graphs.jsonl
	for m in $(GMN_MODELS); do \
	  IFS=: read -r name epochs minutes seeds dim <<< "$$m"; \
	  date -u +"train-gmn phase $$name start %T"; \
	  nice -n 10 $(PY) -m models.gmn.train --model $$name --epochs $$epochs --max-minutes $$minutes --data $(DATA) \
	    --seeds $${seeds:-7} $${dim:+--dim $$dim} \
	    --pairs $(GMN_CACHE)/pairs.jsonl --graphs $(GMN_CACHE)/graphs.jsonl --eval-graphs $(GMN_CACHE)/eval_graphs.jsonl \
	    --out models/$${name}_gmn.onnx --report models/$${name}_gmn.report.json || exit 1; \
	done
	$(PY) -m models.gmn.split models/funceval_gmn.onnx models/hybrid_gmn.onnx
	@date -u +"train-gmn phase done %T"
	sha256sum models/*.onnx

# The evaluation workflow of docs/evaluate-run.md (sql/evaluate_run.sql, DuckDB): the Spider example run with
# the official report and sqlsim's scores per hardness, the worst predictions with a counterexample
# database, BIRD dev with DAIL-SQL's predictions per difficulty, and two LLM runs side by side.
## The evaluation workflow of docs/evaluate-run.md in DuckDB
evaluate-run: all venv
	$(DUCKDB_CLI) -unsigned -cmd "LOAD '$(DIST)/sqlsim.duckdb_extension'" \
	  -cmd "SET VARIABLE gold = '$(GOLD)'" -cmd "SET VARIABLE pred = '$(PRED)'" \
	  -cmd "SET VARIABLE tables = '$(TABLES)'" \
	  -cmd "SET VARIABLE bird_dev = '$(DATA)/bird/dev.json'" -cmd "SET VARIABLE bird_pred = '$(DATA)/bird/dail.txt'" \
	  -cmd "SET VARIABLE bird_schema = '$(DATA)/bird/schema.json'" \
	  -cmd "SET VARIABLE runs = '$(DATA)/spider_dev_llm_gpt*.nooverlap.jsonl'" :memory: < sql/evaluate_run.sql

# The same workflow in the SQLite shell (sql/spider_eval_sqlite.sql then sql/evaluate_run_sqlite.sql).
RUNS_FILE := .cache/evaluate_runs.jsonl
## The evaluation workflow of docs/evaluate-run.md in the SQLite shell
evaluate-run-sqlite: all venv
	cat $(DATA)/spider_dev_llm_gpt4.nooverlap.jsonl $(DATA)/spider_dev_llm_gpt3.5.nooverlap.jsonl > $(RUNS_FILE)
	@sed -e 's|{{GOLD}}|$(GOLD)|g' -e 's|{{PRED}}|$(PRED)|g' -e 's|{{TABLES}}|$(TABLES)|g' \
	  -e 's|{{BIRD_DEV}}|$(DATA)/bird/dev.json|g' -e 's|{{BIRD_PRED}}|$(DATA)/bird/dail.txt|g' \
	  -e 's|{{BIRD_SCHEMA}}|$(DATA)/bird/schema.json|g' -e 's|{{RUNS}}|$(RUNS_FILE)|g' \
	  sql/spider_eval_sqlite.sql sql/evaluate_run_sqlite.sql | sqlite3 -bail -cmd ".load ./$(DIST)/sqlsim" :memory:

## Remove dist/ and the release library
clean:
	rm -rf $(DIST) target/release/libsqlsim.so
