-- Evaluate text-to-SQL runs in the SQLite shell with sqlsim: the same workflow as
-- sql/evaluate_run.sql (DuckDB), read after sql/spider_eval_sqlite.sql (which reads the Spider files
-- and prints the official report), with the paths filled in by sed:
--
--   sed -e 's|{{GOLD}}|gold.txt|g' -e 's|{{PRED}}|pred.txt|g' -e 's|{{TABLES}}|tables.json|g' \
--       -e 's|{{BIRD_DEV}}|dev.json|g' -e 's|{{BIRD_PRED}}|pred_bird.txt|g' \
--       -e 's|{{BIRD_SCHEMA}}|schema.json|g' -e 's|{{RUNS}}|runs.jsonl|g' \
--       sql/spider_eval_sqlite.sql sql/evaluate_run_sqlite.sql | sqlite3 -bail -cmd ".load ./dist/sqlsim" :memory:
--
-- or `make evaluate-run-sqlite`. JSON files are read with the shell's readfile(); line files with
-- `.import` in ascii mode (one line per row, no quote processing). {{RUNS}} is one JSON-lines file
-- (concatenate several runs into it) with type (the model), db_id, gold, pred and label.

.mode box

-- 1. Spider: sqlsim's scores per hardness (the official report was printed just before).
DROP TABLE IF EXISTS temp.spider_scores;
CREATE TEMP TABLE spider_scores AS
SELECT e.line, e.db_id, e.hardness, e.exact, e.gold, e.pred, s.schema,
       sql_equivalent(e.gold, e.pred, s.schema) AS equivalent,
       sql_similarity(e.gold, e.pred, s.schema) AS similarity
FROM spider_eval_examples e LEFT JOIN spider_eval_schemas s USING (db_id);

SELECT hardness, count(*) AS n,
       round(avg(exact), 3) AS exact_match,
       round(avg(coalesce(equivalent, 0)), 3) AS proved_same,
       round(avg(coalesce(equivalent = 0, 0)), 3) AS disproved,
       round(avg(similarity), 3) AS similarity,
       round(avg(similarity >= 0.5), 3) AS accepted_at_half
FROM spider_scores
GROUP BY hardness
ORDER BY instr('easy medium hard extra', hardness);

-- The worst predictions that run: lowest similarity, with the reason.
SELECT line, db_id, round(similarity, 3) AS similarity, gold, pred,
       sql_equivalent_reason(gold, pred, schema) AS reason
FROM spider_scores
WHERE sql_parse_error(pred) IS NULL AND equivalent = 0
ORDER BY similarity, line
LIMIT 5;

-- The database that tells the worst one apart, with both queries' outputs on it.
SELECT c.table_name, c.row_number, c.row_json, c.gold_output, c.pred_output
FROM (SELECT gold, pred, schema FROM spider_scores
      WHERE sql_parse_error(pred) IS NULL AND equivalent = 0
      ORDER BY similarity, line LIMIT 1) AS w,
     sql_counterexample(w.gold, w.pred, w.schema) AS c;

-- 2. BIRD: per difficulty, with the DDL of each database as the schema.
DROP TABLE IF EXISTS temp.bird_pred_raw;
CREATE TEMP TABLE bird_pred_raw(text TEXT);
.mode ascii
.separator "\037" "\n"
.import --schema temp '{{BIRD_PRED}}' bird_pred_raw
.mode box

DROP TABLE IF EXISTS temp.bird_scores;
CREATE TEMP TABLE bird_scores AS
WITH dev AS (
    SELECT json_extract(value, '$.question_id') AS question_id, json_extract(value, '$.db_id') AS db_id,
           json_extract(value, '$.SQL') AS gold, json_extract(value, '$.difficulty') AS difficulty
    FROM json_each(readfile('{{BIRD_DEV}}'))
),
pred AS (SELECT rowid - 1 AS question_id, text AS pred FROM temp.bird_pred_raw),
schemas AS (SELECT key AS db_id, value AS schema FROM json_each(readfile('{{BIRD_SCHEMA}}')))
SELECT d.question_id, d.db_id, d.difficulty, d.gold, coalesce(p.pred, '') AS pred, s.schema,
       sql_equivalent(d.gold, coalesce(p.pred, ''), s.schema) AS equivalent,
       sql_similarity(d.gold, coalesce(p.pred, ''), s.schema) AS similarity
FROM dev d LEFT JOIN pred p USING (question_id) LEFT JOIN schemas s USING (db_id);

SELECT difficulty, count(*) AS n,
       round(avg(coalesce(equivalent, 0)), 3) AS proved_same,
       round(avg(coalesce(equivalent = 0, 0)), 3) AS disproved,
       round(avg(equivalent IS NULL), 3) AS undecided,
       round(avg(similarity), 3) AS similarity
FROM bird_scores
GROUP BY difficulty
ORDER BY instr('simple moderate challenging', difficulty);

-- 3. Several models side by side: an experiment table joined with the scores.
DROP TABLE IF EXISTS temp.runs_raw;
CREATE TEMP TABLE runs_raw(text TEXT);
.mode ascii
.separator "\037" "\n"
.import --schema temp '{{RUNS}}' runs_raw
.mode box

DROP TABLE IF EXISTS temp.run_scores;
CREATE TEMP TABLE run_scores AS
WITH runs AS (
    SELECT json_extract(text, '$.type') AS model, json_extract(text, '$.db_id') AS db_id,
           json_extract(text, '$.gold') AS gold, json_extract(text, '$.pred') AS pred,
           json_extract(text, '$.label') AS label
    FROM temp.runs_raw WHERE trim(text) <> ''
)
SELECT r.model, r.db_id, r.gold, r.pred, r.label, sql_similarity(r.gold, r.pred, s.schema) AS similarity
FROM runs r LEFT JOIN spider_eval_schemas s USING (db_id)
WHERE r.pred IS NOT NULL;

SELECT model, count(*) AS n,
       round(avg(similarity), 3) AS similarity,
       round(avg(similarity >= 0.5), 3) AS accepted_at_half,
       round(avg(label), 3) AS test_suite_label
FROM run_scores GROUP BY model ORDER BY model;

-- Per database, one column per model.
SELECT db_id,
       round(avg(CASE WHEN model = 'dev_gpt3.5' THEN similarity END), 3) AS "dev_gpt3.5",
       round(avg(CASE WHEN model = 'dev_gpt4' THEN similarity END), 3) AS dev_gpt4
FROM run_scores GROUP BY db_id ORDER BY db_id;
