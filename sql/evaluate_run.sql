-- Evaluate text-to-SQL runs in DuckDB with sqlsim, from the official file formats, in plain SQL.
--
--   duckdb -unsigned -cmd "LOAD 'dist/sqlsim.duckdb_extension'" \
--     -cmd "SET VARIABLE gold = 'gold.txt'" -cmd "SET VARIABLE pred = 'pred.txt'" \
--     -cmd "SET VARIABLE tables = 'tables.json'" \
--     -cmd "SET VARIABLE bird_dev = 'dev.json'" -cmd "SET VARIABLE bird_pred = 'pred_bird.txt'" \
--     -cmd "SET VARIABLE bird_schema = 'schema.json'" \
--     -cmd "SET VARIABLE runs = 'runs/*.jsonl'" :memory: < sql/evaluate_run.sql
--
-- or `make evaluate-run` (the shared data's Spider example run, BIRD dev with DAIL-SQL's
-- predictions and two LLM runs). Inputs:
--   gold / pred / tables  Spider: `SQL<TAB>db_id` per line, one predicted SQL per line, tables.json;
--   bird_dev / bird_pred  BIRD: dev.json (question_id, db_id, SQL, difficulty) and one predicted SQL
--                         per line in question order (a BIRD predict_dev.json dict is read the same
--                         way after `jq -r '.[]' | cut -f1`);
--   bird_schema           {db_id: [CREATE TABLE ...]} (BIRD's DDL per database);
--   runs                  an experiment table: JSON lines with model/type, db_id, gold, pred.
-- Tables left behind: spider_scores, bird_scores, run_scores (one row per example with its scores).

.mode box

-- 1. Spider: the official report (exact match, partial match per hardness), then sqlsim's scores
-- per hardness. sql_equivalent and sql_similarity share one ParSEval verdict per pair (cache).
.read sql/spider_eval.sql
.mode box

CREATE OR REPLACE TEMP TABLE spider_scores AS
SELECT e.line, e.db_id, e.hardness, e.exact, e.gold, e.pred, s.schema,
       sql_equivalent(e.gold, e.pred, s.schema) AS equivalent,
       sql_similarity(e.gold, e.pred, s.schema) AS similarity
FROM spider_eval_examples e LEFT JOIN spider_schemas(getvariable('tables')) s USING (db_id);

SELECT hardness, count(*) AS n,
       round(avg(exact), 3) AS exact_match,
       round(avg(coalesce(equivalent, 0)), 3) AS proved_same,
       round(avg(CASE WHEN equivalent = 0 THEN 1 ELSE 0 END), 3) AS disproved,
       round(avg(similarity), 3) AS similarity,
       round(avg(CASE WHEN similarity >= 0.5 THEN 1 ELSE 0 END), 3) AS accepted_at_half
FROM spider_scores
GROUP BY hardness
ORDER BY list_position(['easy', 'medium', 'hard', 'extra'], hardness);

-- The worst predictions that run: lowest similarity, with the reason.
SELECT line, db_id, round(similarity, 3) AS similarity, gold, pred,
       sql_equivalent_reason(gold, pred, schema) AS reason
FROM spider_scores
WHERE sql_parse_error(pred) IS NULL AND equivalent = 0
ORDER BY similarity, line
LIMIT 5;

-- The database that tells the worst one apart, with both queries' outputs on it.
SET VARIABLE w_gold = (SELECT gold FROM spider_scores WHERE sql_parse_error(pred) IS NULL AND equivalent = 0 ORDER BY similarity, line LIMIT 1);
SET VARIABLE w_pred = (SELECT pred FROM spider_scores WHERE sql_parse_error(pred) IS NULL AND equivalent = 0 ORDER BY similarity, line LIMIT 1);
SET VARIABLE w_schema = (SELECT schema FROM spider_scores WHERE sql_parse_error(pred) IS NULL AND equivalent = 0 ORDER BY similarity, line LIMIT 1);
SELECT table_name, row_number, row_json, gold_output, pred_output
FROM sql_counterexample(getvariable('w_gold'), getvariable('w_pred'), schema := getvariable('w_schema'));

-- 2. BIRD: per difficulty, with the DDL of each database as the schema.
CREATE OR REPLACE TEMP TABLE bird_scores AS
WITH dev AS (
    SELECT question_id, db_id, "SQL" AS gold, difficulty FROM read_json(getvariable('bird_dev'))
),
pred AS (
    SELECT generate_subscripts(l, 1) - 1 AS question_id, unnest(l) AS pred
    FROM (SELECT string_split(rtrim(content, chr(10)), chr(10)) AS l FROM read_text(getvariable('bird_pred')))
),
schemas AS (
    SELECT k AS db_id, json_extract(j, '$."' || k || '"')::VARCHAR AS schema
    FROM (SELECT content::JSON AS j FROM read_text(getvariable('bird_schema'))), unnest(json_keys(j)) AS t(k)
)
SELECT d.question_id, d.db_id, d.difficulty, d.gold, coalesce(p.pred, '') AS pred, s.schema,
       sql_equivalent(d.gold, coalesce(p.pred, ''), s.schema) AS equivalent,
       sql_similarity(d.gold, coalesce(p.pred, ''), s.schema) AS similarity
FROM dev d LEFT JOIN pred p USING (question_id) LEFT JOIN schemas s USING (db_id);

SELECT difficulty, count(*) AS n,
       round(avg(coalesce(equivalent, 0)), 3) AS proved_same,
       round(avg(CASE WHEN equivalent = 0 THEN 1 ELSE 0 END), 3) AS disproved,
       round(avg(CASE WHEN equivalent IS NULL THEN 1 ELSE 0 END), 3) AS undecided,
       round(avg(similarity), 3) AS similarity
FROM bird_scores
GROUP BY difficulty
ORDER BY list_position(['simple', 'moderate', 'challenging'], difficulty);

-- 3. Several models side by side: an experiment table joined with the scores.
CREATE OR REPLACE TEMP TABLE run_scores AS
SELECT r."type" AS model, r.db_id, r.gold, r.pred, r.label,
       sql_similarity(r.gold, r.pred, s.schema) AS similarity
FROM read_json(getvariable('runs'), columns = {'type': 'VARCHAR', 'db_id': 'VARCHAR', 'gold': 'VARCHAR',
                                                'pred': 'VARCHAR', 'label': 'INTEGER'}) r
LEFT JOIN spider_schemas(getvariable('tables')) s USING (db_id)
WHERE r.pred IS NOT NULL;

SELECT model, count(*) AS n,
       round(avg(similarity), 3) AS similarity,
       round(avg(CASE WHEN similarity >= 0.5 THEN 1 ELSE 0 END), 3) AS accepted_at_half,
       round(avg(label), 3) AS test_suite_label
FROM run_scores GROUP BY ALL ORDER BY model;

-- Per database, one column per model.
PIVOT (SELECT model, db_id, similarity FROM run_scores) ON model USING round(avg(similarity), 3) ORDER BY db_id;
