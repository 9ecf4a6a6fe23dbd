-- The BIRD report (EX, Soft-F1 and R-VES per difficulty) from BIRD's official file formats, computed in
-- DuckDB with sqlsim.
--
--   duckdb -unsigned -cmd "LOAD 'dist/sqlsim.duckdb_extension'" \
--     -cmd "SET VARIABLE pred = 'predict_dev.json'" -cmd "SET VARIABLE dev = 'dev.json'" \
--     -cmd "SET VARIABLE db_root = 'dev_databases'" [-cmd "SET VARIABLE ves = 1"] :memory: < sql/bird_eval.sql
--
-- or `make bird-eval PRED=... DEV=... DB_ROOT=... [VES=1]`. Inputs:
-- - pred: BIRD's prediction JSON, {"0": "SQL\t----- bird -----\tdb_id", ...}. As in BIRD's code the entries
--   are taken in file order (the keys are not read) and the database is the one named after the separator
--   (a value without the separator is all SQL, on the dev.json entry's database; a value that is not a
--   string, an empty prediction).
-- - dev: dev.json (or mini-dev's), a JSON array of {question_id, db_id, SQL, difficulty, ...}; the n-th
--   entry is the gold query of the n-th prediction. A missing prediction scores 0; predictions beyond the
--   last entry are left out; both are counted on a line after the report.
-- - db_root: the folder of db_root/<db_id>/<db_id>.sqlite.
--
-- Metrics, as BIRD computes them (x100, two decimals, per difficulty simple/moderate/challenging and total):
-- - EX: exec_match(db, gold, pred, '{"semantics": "bird"}') (DAMO-ConvAI bird/llm/src/evaluation.py, mini-dev
--   evaluation_ex.py): set(pred rows) == set(gold rows);
-- - Soft-F1: bird_soft_f1(db, gold, pred) (mini-dev evaluation_f1.py);
-- - R-VES (only with ves set, since it times every matching pair 100 times each way): 100 * mean of
--   sqrt(bird_ves(db, gold, pred)) (mini-dev evaluation_ves.py's rewards 0 / 0.25 / 0.5 / 0.75 / 1 / 1.25).
--   It runs after EX and Soft-F1 with `SET threads = 1`, one pair at a time, as the official code runs with
--   num_cpus 1; timing is noisy (README, "Execution accuracy"): run it alone and twice.
-- BIRD's code scores a gold query that fails (or times out) as 0 for every metric; so does this report
-- (sqlsim's functions give NULL there), and it counts them on a line after the report, with the reason in
-- the table bird_eval_examples. A level with no examples prints 0.00 (BIRD's code divides by zero).
-- Temp tables bird_eval_pairs (the inputs by line), bird_eval_examples (one row per example: metrics, reasons)
-- and bird_eval_scores remain.

.mode list
.headers off

CREATE OR REPLACE TEMP TABLE bird_eval_params AS
SELECT rtrim(CAST(getvariable('db_root') AS VARCHAR), '/') AS db_root,
       coalesce(CAST(getvariable('ves') AS VARCHAR), '') NOT IN ('', '0', 'false') AS ves;

CREATE OR REPLACE TEMP TABLE bird_eval_pairs AS
WITH sep(s) AS (SELECT chr(9) || '----- bird -----' || chr(9)),
dev AS (
    SELECT generate_subscripts(l, 1) AS pos, unnest(l) AS j
    FROM (SELECT json_extract(content, '$[*]') AS l FROM read_text(getvariable('dev')))
),
pred_entries AS (
    SELECT generate_subscripts(e, 1) AS pos, unnest(e) AS kv
    FROM (SELECT map_entries(CAST(CAST(content AS JSON) AS MAP(VARCHAR, VARCHAR))) AS e
          FROM read_text(getvariable('pred')))
),
preds AS (
    SELECT pos, kv.key AS pred_key, kv.value AS text,
           CASE WHEN strpos(kv.value, sep.s) > 0 THEN kv.value[:strpos(kv.value, sep.s) - 1]
                ELSE coalesce(kv.value, '') END AS pred,
           CASE WHEN strpos(kv.value, sep.s) > 0 THEN kv.value[strpos(kv.value, sep.s) + length(sep.s):] END AS pred_db_id
    FROM pred_entries, sep
),
pairs AS (
    SELECT d.pos AS line,
           json_extract_string(d.j, '$.question_id') AS question_id,
           coalesce(p.pred_db_id, json_extract_string(d.j, '$.db_id')) AS db_id,
           json_extract_string(d.j, '$.difficulty') AS difficulty,
           json_extract_string(d.j, '$.SQL') AS gold,
           coalesce(p.pred, '') AS pred,
           p.pos IS NULL AS missing
    FROM dev d LEFT JOIN preds p USING (pos)
),
run AS (
    SELECT pr.*, prm.db_root || '/' || pr.db_id || '/' || pr.db_id || '.sqlite' AS db_path
    FROM pairs pr, bird_eval_params prm
)
SELECT * FROM run ORDER BY line;

-- One row per example (the `sqlsim bird` command runs this statement on slices of bird_eval_pairs,
-- by line, to show progress; the marker below names the table it slices).
-- sqlsim-cli: slices bird_eval_pairs
CREATE OR REPLACE TEMP TABLE bird_eval_examples AS
WITH scored AS (
    SELECT *, exec_match(db_path, gold, pred, '{"semantics": "bird"}') AS ex,
           bird_soft_f1(db_path, gold, pred) AS soft_f1
    FROM bird_eval_pairs
)
SELECT *, CASE WHEN ex IS NULL THEN exec_match_reason(db_path, gold, pred, '{"semantics": "bird"}') END AS reason,
       CAST(NULL AS DOUBLE) AS ves
FROM scored
ORDER BY line;

-- R-VES, one pair at a time (only pairs that match as BIRD EX can earn a reward).
SET threads = 1;
UPDATE bird_eval_examples e SET ves = coalesce(bird_ves(e.db_path, e.gold, e.pred), 0)
FROM bird_eval_params prm WHERE prm.ves AND e.ex = 1;
UPDATE bird_eval_examples e SET ves = 0 FROM bird_eval_params prm WHERE prm.ves AND e.ves IS NULL;
RESET threads;

CREATE OR REPLACE TEMP TABLE bird_eval_scores AS
WITH levels(level, li) AS (VALUES ('simple', 1), ('moderate', 2), ('challenging', 3), ('total', 4)),
per_level AS (
    SELECT lv.level, lv.li, count(e.line) AS n,
           coalesce(100 * avg(coalesce(e.ex, 0)), 0) AS ex,
           coalesce(100 * avg(coalesce(e.soft_f1, 0)), 0) AS soft_f1,
           coalesce(avg(100 * sqrt(e.ves)), 0) AS r_ves
    FROM levels lv LEFT JOIN bird_eval_examples e ON e.difficulty = lv.level OR lv.level = 'total'
    GROUP BY lv.level, lv.li
)
SELECT level, li, 'count' AS metric, CAST(n AS DOUBLE) AS value FROM per_level
UNION ALL SELECT level, li, 'EX', ex FROM per_level
UNION ALL SELECT level, li, 'Soft-F1', soft_f1 FROM per_level
UNION ALL SELECT level, li, 'R-VES', r_ves FROM per_level, bird_eval_params WHERE ves;

-- The report: one block per metric, laid out like BIRD's print_data (mini-dev evaluation_utils.py).
WITH metrics(metric, mi) AS (VALUES ('EX', 1), ('Soft-F1', 2), ('R-VES', 3)),
wide AS (
    SELECT metric,
           max(value) FILTER (WHERE level = 'simple') AS simple,
           max(value) FILTER (WHERE level = 'moderate') AS moderate,
           max(value) FILTER (WHERE level = 'challenging') AS challenging,
           max(value) FILTER (WHERE level = 'total') AS total
    FROM bird_eval_scores GROUP BY metric
),
counts AS (SELECT * FROM wide WHERE metric = 'count'),
report(mi, sub, line) AS (
    SELECT m.mi, 0, '' FROM metrics m JOIN wide USING (metric) WHERE m.mi > 1
    UNION ALL
    SELECT m.mi, 1, printf('%-20s %-20s %-20s %-20s %-20s', '', 'simple', 'moderate', 'challenging', 'total')
    FROM metrics m JOIN wide USING (metric)
    UNION ALL
    SELECT m.mi, 2, printf('%-20s %-20d %-20d %-20d %-20d', 'count', CAST(c.simple AS BIGINT),
                           CAST(c.moderate AS BIGINT), CAST(c.challenging AS BIGINT), CAST(c.total AS BIGINT))
    FROM metrics m JOIN wide USING (metric), counts c
    UNION ALL
    SELECT m.mi, 3, '======================================    ' || m.metric || '    ====================================='
    FROM metrics m JOIN wide USING (metric)
    UNION ALL
    SELECT m.mi, 4, printf('%-20s %-20.2f %-20.2f %-20.2f %-20.2f', m.metric, w.simple, w.moderate, w.challenging, w.total)
    FROM metrics m JOIN wide w USING (metric)
    UNION ALL
    SELECT m.mi, 5, repeat('=', 91) FROM metrics m JOIN wide USING (metric)
    UNION ALL
    SELECT 9, 0, printf('%-20s %d', 'gold exec errors', count(*))
    FROM bird_eval_examples WHERE ex IS NULL HAVING count(*) > 0
    UNION ALL
    SELECT 9, 1, printf('%-20s %d', 'missing predictions', count(*))
    FROM bird_eval_examples WHERE missing HAVING count(*) > 0
    UNION ALL
    SELECT 9, 2, printf('%-20s %d', 'extra predictions', n - m)
    FROM (SELECT len(json_keys(CAST(content AS JSON))) AS n,
                 (SELECT count(*) FROM bird_eval_examples WHERE NOT missing) AS m
          FROM read_text(getvariable('pred')))
    WHERE n > m
)
SELECT line FROM report ORDER BY mi, sub;
