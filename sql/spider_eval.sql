-- Written by scripts/build/sql_hosts.py from sql/source/spider_eval.sql: edit that file, then run `make docs`.
-- The official Spider report (evaluation.py --etype match|exec|all) computed in DuckDB with sqlsim.
--
--   duckdb -unsigned -cmd "LOAD 'dist/sqlsim.duckdb_extension'" \
--     -cmd "SET VARIABLE gold = 'gold.txt'" -cmd "SET VARIABLE pred = 'pred.txt'" \
--     -cmd "SET VARIABLE tables = 'tables.json'" [-cmd "SET VARIABLE etype = 'exec'" \
--     -cmd "SET VARIABLE db = 'database'"] :memory: < sql/spider_eval.sql
--
-- or `make spider-eval GOLD=... PRED=... TABLES=... [ETYPE=exec|all DB=...]`. Files are read whole with
-- read_text, so quotes and tabs in the SQL need no escaping. etype (default match) must be match, exec
-- or all; exec and all need db.
--
-- Inputs are the official file formats: gold has `SQL<TAB>db_id` per line, pred one SQL per line
-- (text after a tab is ignored, as evaluation.py does), tables is a Spider tables.json. Lines are
-- stripped of surrounding whitespace and blank lines are skipped (they separate sessions in the
-- multi-turn format), so the n-th non-blank pred line is scored against the n-th non-blank gold line;
-- a missing pred line scores as an empty prediction.
--
-- Each example is evaluated once: spider_partial_match evaluates it, and spider_exact_match and
-- spider_hardness on the same row (listed after it) read sqlsim's per-example cache. Aggregation follows
-- evaluation.py: exact match averaged over the examples of a level; per component, acc averaged over
-- the examples whose pred_total > 0, rec over those whose label_total > 0 (0 when there are none), and
-- F1 = 2·acc·rec / (acc + rec) from those averages (1 when both are 0; 0 for an empty level).
-- A gold query the Spider parser rejects (evaluation.py would stop) is left out and counted on a
-- separate line.
--
-- etype exec and all add the execution accuracy row per hardness, exec leaves out the matching
-- sections. Execution is exec_match(db/<db_id>, gold, replace(pred, 'value', '1')): the folder
-- db/<db_id> is evaluation.py's database (every *.sqlite in it: one file for Spider, several for a test
-- suite, matching only if all match), the prediction gets evaluation.py's own `value` -> `1`
-- replacement, and the comparison is test-suite-sql-eval's (the default semantics, DISTINCT removed as
-- without --keep_distinct). A gold query that fails on its database (evaluation.py would stop with an
-- AssertionError) or a missing database scores as not matched and is counted on a line after the
-- report (the `exec` column is NULL there). After the script, temp tables spider_eval_pairs (the inputs
-- by line), spider_eval_examples (one row per example) and spider_eval_scores (level, metric, component,
-- value at full precision) remain for further queries.

.mode list
.headers off

CREATE OR REPLACE TEMP TABLE spider_eval_params AS
SELECT CASE WHEN e IN ('match', 'exec', 'all') THEN e
            ELSE error('spider_eval.sql: etype must be match, exec or all, got ''' || e || '''') END AS etype,
       CASE WHEN e = 'match' OR db IS NOT NULL THEN db
            ELSE error('spider_eval.sql: etype ' || e || ' needs the database folder (SET VARIABLE db = ''...'')') END AS db
FROM (SELECT coalesce(nullif(CAST(getvariable('etype') AS VARCHAR), ''), 'match') AS e,
             nullif(rtrim(CAST(getvariable('db') AS VARCHAR), '/'), '') AS db);

CREATE OR REPLACE TEMP TABLE spider_eval_pairs AS
WITH ws AS (SELECT ' ' || chr(9) || chr(10) || chr(11) || chr(12) || chr(13) AS chars),
gold_file AS (
    SELECT generate_subscripts(l, 1) AS physical, unnest(l) AS text
    FROM (SELECT string_split(content, chr(10)) AS l FROM read_text(getvariable('gold')))
),
pred_file AS (
    SELECT generate_subscripts(l, 1) AS physical, unnest(l) AS text
    FROM (SELECT string_split(content, chr(10)) AS l FROM read_text(getvariable('pred')))
),
gold_lines AS (
    SELECT row_number() OVER (ORDER BY physical) AS line, trim(text, ws.chars) AS text
    FROM gold_file, ws WHERE trim(text, ws.chars) <> ''
),
pred_lines AS (
    SELECT row_number() OVER (ORDER BY physical) AS line, trim(text, ws.chars) AS text
    FROM pred_file, ws WHERE trim(text, ws.chars) <> ''
),
pairs AS (
    SELECT g.line,
           split_part(g.text, chr(9), 1) AS gold,
           split_part(g.text, chr(9), 2) AS db_id,
           coalesce(split_part(p.text, chr(9), 1), '') AS pred
    FROM gold_lines g LEFT JOIN pred_lines p USING (line)
)
SELECT * FROM pairs ORDER BY line;

CREATE OR REPLACE TEMP TABLE spider_eval_schemas AS SELECT db_id, schema FROM spider_schemas(getvariable('tables'));

-- One row per example (the `sqlsim spider` command runs this statement on slices of
-- spider_eval_pairs, by line, to show progress; the marker below names the table it slices).
-- sqlsim-cli: slices spider_eval_pairs
CREATE OR REPLACE TEMP TABLE spider_eval_examples AS
SELECT p.line, p.db_id, p.gold, p.pred,
       spider_partial_match(p.gold, p.pred, s.schema) AS partial,
       spider_exact_match(p.gold, p.pred, s.schema) AS exact,
       spider_hardness(p.gold, s.schema) AS hardness,
       CASE WHEN prm.etype IN ('exec', 'all')
            THEN exec_match(prm.db || '/' || p.db_id, p.gold, replace(p.pred, 'value', '1')) END AS exec
FROM spider_eval_pairs p LEFT JOIN spider_eval_schemas s ON s.db_id = p.db_id, spider_eval_params prm
ORDER BY p.line;

CREATE OR REPLACE TEMP TABLE spider_eval_scores AS
WITH levels(level, li) AS (
    VALUES ('easy', 1), ('medium', 2), ('hard', 3), ('extra', 4), ('all', 5)
),
components(component, ci) AS (
    VALUES ('select', 1), ('select(no AGG)', 2), ('where', 3), ('where(no OP)', 4),
           ('group(no Having)', 5), ('group', 6), ('order', 7), ('and/or', 8), ('IUEN', 9),
           ('keywords', 10)
),
scored AS (SELECT * FROM spider_eval_examples WHERE hardness IS NOT NULL),
per_level AS (
    SELECT lv.level, count(e.line) AS n, coalesce(sum(e.exact), 0) AS exact_sum,
           coalesce(sum(e.exec), 0) AS exec_sum
    FROM levels lv LEFT JOIN scored e ON e.hardness = lv.level OR lv.level = 'all'
    GROUP BY lv.level
),
unpivoted AS (
    SELECT e.line, e.hardness, c.component,
           CAST(e.partial ->> ('$."' || c.component || '".acc') AS DOUBLE) AS acc,
           CAST(e.partial ->> ('$."' || c.component || '".rec') AS DOUBLE) AS rec,
           CAST(e.partial ->> ('$."' || c.component || '".label_total') AS BIGINT) AS label_total,
           CAST(e.partial ->> ('$."' || c.component || '".pred_total') AS BIGINT) AS pred_total
    FROM scored e, components c
),
averaged AS (
    SELECT lv.level, c.component, count(u.line) AS n,
           coalesce(avg(u.acc) FILTER (WHERE u.pred_total > 0), 0.0) AS acc,
           coalesce(avg(u.rec) FILTER (WHERE u.label_total > 0), 0.0) AS rec
    FROM levels lv CROSS JOIN components c
    LEFT JOIN unpivoted u ON u.component = c.component AND (u.hardness = lv.level OR lv.level = 'all')
    GROUP BY lv.level, c.component
)
SELECT level, 'count' AS metric, CAST(NULL AS VARCHAR) AS component, CAST(n AS DOUBLE) AS value FROM per_level
UNION ALL
SELECT level, 'exact', NULL, CASE WHEN n = 0 THEN 0.0 ELSE CAST(exact_sum AS DOUBLE) / n END FROM per_level
UNION ALL
SELECT level, 'exec', NULL, CASE WHEN n = 0 THEN 0.0 ELSE CAST(exec_sum AS DOUBLE) / n END
FROM per_level, spider_eval_params WHERE etype IN ('exec', 'all')
UNION ALL
SELECT level, 'acc', component, acc FROM averaged
UNION ALL
SELECT level, 'rec', component, rec FROM averaged
UNION ALL
SELECT level, 'f1', component,
       CASE WHEN n = 0 THEN 0.0
            WHEN acc = 0 AND rec = 0 THEN 1.0
            ELSE 2.0 * acc * rec / (acc + rec) END
FROM averaged;

-- The report, laid out like evaluation.py's print_scores.
WITH levels(level, li) AS (
    VALUES ('easy', 1), ('medium', 2), ('hard', 3), ('extra', 4), ('all', 5)
),
components(component, ci) AS (
    VALUES ('select', 1), ('select(no AGG)', 2), ('where', 3), ('where(no OP)', 4),
           ('group(no Having)', 5), ('group', 6), ('order', 7), ('and/or', 8), ('IUEN', 9),
           ('keywords', 10)
),
metrics(metric, mi, title) AS (
    VALUES ('count', 0, NULL),
           ('exact', 1, '====================== EXACT MATCHING ACCURACY ====================='),
           ('acc', 2, '---------------------PARTIAL MATCHING ACCURACY----------------------'),
           ('rec', 3, '---------------------- PARTIAL MATCHING RECALL ----------------------'),
           ('f1', 4, '---------------------- PARTIAL MATCHING F1 --------------------------')
),
wide AS (
    SELECT s.metric, coalesce(s.component, '') AS component,
           max(value) FILTER (WHERE level = 'easy') AS easy,
           max(value) FILTER (WHERE level = 'medium') AS medium,
           max(value) FILTER (WHERE level = 'hard') AS hard,
           max(value) FILTER (WHERE level = 'extra') AS extra,
           max(value) FILTER (WHERE level = 'all') AS all_
    FROM spider_eval_scores s GROUP BY s.metric, s.component
),
report(mi, ci, sub, line) AS (
    SELECT -1, 0, 0, printf('%-20s %-20s %-20s %-20s %-20s %-20s', '', 'easy', 'medium', 'hard', 'extra', 'all')
    UNION ALL
    SELECT 0, 0, 0, printf('%-20s %-20d %-20d %-20d %-20d %-20d', 'count',
                          CAST(easy AS BIGINT), CAST(medium AS BIGINT), CAST(hard AS BIGINT),
                          CAST(extra AS BIGINT), CAST(all_ AS BIGINT))
    FROM wide WHERE metric = 'count'
    UNION ALL
    SELECT 0, 1, 0, '=====================   EXECUTION ACCURACY     ====================='
    FROM wide WHERE metric = 'exec'
    UNION ALL
    SELECT 0, 1, 1, printf('%-20s %-20.3f %-20.3f %-20.3f %-20.3f %-20.3f', 'execution',
                          easy, medium, hard, extra, all_)
    FROM wide WHERE metric = 'exec'
    UNION ALL
    SELECT 1, 0, 0, printf('%-20s %-20.3f %-20.3f %-20.3f %-20.3f %-20.3f', 'exact match',
                          easy, medium, hard, extra, all_)
    FROM wide WHERE metric = 'exact'
    UNION ALL
    SELECT m.mi, c.ci, 0, printf('%-20s %-20.3f %-20.3f %-20.3f %-20.3f %-20.3f', w.component,
                                w.easy, w.medium, w.hard, w.extra, w.all_)
    FROM wide w JOIN metrics m USING (metric) JOIN components c USING (component)
    UNION ALL
    SELECT mi, -1, 1, title FROM metrics WHERE mi > 0
    UNION ALL
    SELECT 1, -1, 0, '' -- the blank lines evaluation.py prints before the exact and partial banners
    UNION ALL
    SELECT 2, -1, 0, ''
    UNION ALL
    SELECT 5, 0, 0, printf('%-20s %d', 'gold parse errors', count(*))
    FROM spider_eval_examples WHERE hardness IS NULL HAVING count(*) > 0
    UNION ALL
    SELECT 6, 0, 0, printf('%-20s %d', 'gold exec errors', count(*))
    FROM spider_eval_examples, spider_eval_params
    WHERE etype IN ('exec', 'all') AND hardness IS NOT NULL AND exec IS NULL HAVING count(*) > 0
)
SELECT line FROM report, spider_eval_params
WHERE etype IN ('match', 'all') OR mi NOT BETWEEN 1 AND 4
ORDER BY mi, ci, sub;
