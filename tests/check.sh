#!/usr/bin/env bash
# `make check`: the tests of the code changed since the merge base with $CHECK_BASE (commits on
# this branch, staged, unstaged and untracked files), in a few minutes instead of `make test`'s all.
#
# Each changed path names modules:
#   src/<m>/... or src/<m>.rs        -> <m>   (e.g. src/plan/rules/x.rs -> plan; the name below it,
#                                              here rules, is one more keyword for pytest -k)
#   tests/integration/<f>.rs         -> <f>   tests/sql/test_<f>.py -> <f>   tests/golden/<d>/ -> <d>
# and the whole crate when src/lib.rs, src/ext, src/registry*, Cargo.toml, Cargo.lock or build.rs
# changed (every SQL test then runs). For those modules it runs
#   1. the library's unit tests under `<m>::`,
#   2. the integration tests (tests/integration; all of them, without the data-backed ones: they
#      take seconds once built),
#   3. the doctests of src/<m>/,
#   4. `pytest -k "<m> or ..."` over tests/sql (after `make all`, which rebuilds dist/ in release),
#      unless CHECK_SQL=0.
# CHECK_MODULES=plan,schema names the modules instead of asking git.
set -euo pipefail

CARGO=${CARGO:-cargo}
TEST_PROFILE=${TEST_PROFILE:-test-fast}
CHECK_BASE=${CHECK_BASE:-main}
CHECK_SQL=${CHECK_SQL:-1}
MAKE=${MAKE:-make}
PY=${PY:-.venv/bin/python}

modules=()
keywords=()
everything=0
if [ -n "${CHECK_MODULES:-}" ]; then
  IFS=, read -r -a modules <<< "$CHECK_MODULES"
else
  base=$(git merge-base HEAD "$CHECK_BASE")
  changed=$( { git diff --name-only "$base"; git ls-files --others --exclude-standard; } | sort -u)
  for path in $changed; do
    case "$path" in
      src/lib.rs | src/ext/* | src/registry* | Cargo.toml | Cargo.lock | build.rs) everything=1 ;;
      src/*/*)
        m=${path#src/}; modules+=("${m%%/*}")
        sub=${m#*/}; sub=${sub%%/*}; keywords+=("${sub%.rs}") ;;
      src/*.rs) m=${path#src/}; modules+=("${m%.rs}") ;;
      tests/integration/*.rs) m=${path#tests/integration/}; modules+=("${m%.rs}") ;;
      tests/sql/test_*.py) m=${path#tests/sql/test_}; modules+=("${m%.py}") ;;
      tests/golden/* | tests/fixtures/*) m=${path#tests/*/}; modules+=("${m%%/*}") ;;
    esac
  done
fi
# Unique, and nothing that is not a plain name (main.rs, conftest.py, ...).
mapfile -t modules < <(printf '%s\n' "${modules[@]}" | grep -E '^[a-z_][a-z0-9_]*$' | grep -vx 'main\|mod\|conftest' | sort -u)

if [ "$everything" = 0 ] && [ ${#modules[@]} = 0 ]; then
  echo "check: nothing changed since $(git merge-base HEAD "$CHECK_BASE" | cut -c1-12) ($CHECK_BASE) that tests cover"
  exit 0
fi
if [ "$everything" = 1 ]; then
  echo "check: the crate's root, host adapters, registry or build changed: all unit tests and SQL tests"
  lib_filters=()
  doc_filters=()
  sql_k=""
else
  echo "check: modules ${modules[*]}"
  lib_filters=()
  doc_filters=()
  for m in "${modules[@]}"; do
    lib_filters+=("$m::")
    doc_filters+=("src/$m/" "src/$m.rs")
  done
  mapfile -t keywords < <(printf '%s\n' "${modules[@]}" "${keywords[@]}" \
    | grep -E '^[a-z_][a-z0-9_]*$' | grep -vx 'mod\|tests' | sort -u)
  sql_k=$(printf ' or %s' "${keywords[@]}")
  sql_k=${sql_k# or }
fi

run() { echo "+ $*"; "$@"; }

# Unit tests of the modules, then every integration test but the data-backed (ignored) ones. A
# filter that matches no unit test (a module without tests) still builds and passes.
run "$CARGO" test --profile "$TEST_PROFILE" --lib -- "${lib_filters[@]}"
run "$CARGO" test --profile "$TEST_PROFILE" --test integration
run env LD_LIBRARY_PATH="${Z3_LIBRARY_PATH_OVERRIDE:-}" \
  "$CARGO" test --profile "$TEST_PROFILE" --doc -- "${doc_filters[@]}"

if [ "$CHECK_SQL" != 0 ]; then
  run "$MAKE" all
  # pytest exits 5 when -k selects no test: nothing of these modules is tested at the SQL level.
  set +e
  if [ -n "$sql_k" ]; then
    echo "+ $PY -m pytest -q tests/sql -k \"$sql_k\""
    "$PY" -m pytest -q tests/sql -k "$sql_k"
  else
    echo "+ $PY -m pytest -q tests/sql"
    "$PY" -m pytest -q tests/sql
  fi
  rc=$?
  set -e
  if [ "$rc" = 5 ]; then
    echo "check: no SQL test matches -k \"$sql_k\""
  elif [ "$rc" != 0 ]; then
    exit "$rc"
  fi
fi
