-- sqlsim demo: predicted queries scored against gold queries on a small real schema, Spider's
-- concert_singer. Runs unchanged in the sqlite3 shell and the duckdb shell (`make demo` loads the
-- extension first and sets .mode box); takes a few seconds.

SELECT sqlsim_version() AS version;

-- The schema, as DDL (a Spider tables.json entry or BIRD's JSON array of DDL work as well).
CREATE TABLE schemas(db_id TEXT, ddl TEXT);
INSERT INTO schemas VALUES ('concert_singer', '
  CREATE TABLE stadium(stadium_id INTEGER PRIMARY KEY, location TEXT, name TEXT, capacity INTEGER,
                       highest INTEGER, lowest INTEGER, average INTEGER);
  CREATE TABLE singer(singer_id INTEGER PRIMARY KEY, name TEXT, country TEXT, song_name TEXT,
                      song_release_year TEXT, age INTEGER, is_male BOOLEAN);
  CREATE TABLE concert(concert_id INTEGER PRIMARY KEY, concert_name TEXT, theme TEXT,
                       stadium_id INTEGER REFERENCES stadium(stadium_id), year TEXT);
  CREATE TABLE singer_in_concert(concert_id INTEGER REFERENCES concert(concert_id),
                                 singer_id INTEGER REFERENCES singer(singer_id),
                                 PRIMARY KEY (concert_id, singer_id))');

-- Gold and predicted SQL, as a text-to-SQL model might write them.
CREATE TABLE pairs(id INTEGER, gold TEXT, pred TEXT);
INSERT INTO pairs VALUES
  (1, 'SELECT count(*) FROM singer',
      'select COUNT(*) from SINGER;'),
  (2, 'SELECT count(*) FROM singer WHERE country = ''France''',
      'SELECT count(singer_id) FROM singer WHERE country = "France"'),
  (3, 'SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id WHERE T2.capacity BETWEEN 5000 AND 10000',
      'SELECT stadium.name FROM stadium JOIN concert ON concert.stadium_id = stadium.stadium_id WHERE stadium.capacity >= 5000 AND stadium.capacity <= 10000'),
  (4, 'SELECT name FROM singer WHERE age > 30',
      'SELECT name FROM singer WHERE age >= 30'),
  (5, 'SELECT name FROM stadium ORDER BY capacity DESC LIMIT 1',
      'SELECT name FROM stadium WHERE capacity = (SELECT max(capacity) FROM stadium)'),
  (6, 'SELECT country, count(*) FROM singer GROUP BY country',
      'SELECT country FROM singer GROUP BY country HAVING count(*) > 1'),
  (7, 'SELECT name FROM singer WHERE age > 30',
      'SELEC name FROM singer WHERE');

-- 1. The recommended score, ParSEval's verdict (1: no generated database tells the queries apart,
--    0: one does) and Spider's exact match as the official evaluator computes it.
SELECT p.id,
       round(sql_similarity(p.gold, p.pred, s.ddl), 3) AS sql_similarity,
       sql_equivalent(p.gold, p.pred, s.ddl) AS equivalent,
       spider_exact_match(p.gold, p.pred, s.ddl) AS spider_exact,
       spider_hardness(p.gold, s.ddl) AS hardness
FROM pairs p, schemas s ORDER BY p.id;

-- 2. Why each verdict is what it is.
SELECT p.id, sql_equivalent_reason(p.gold, p.pred, s.ddl) AS reason
FROM pairs p, schemas s ORDER BY p.id;

-- 3. A counterexample: the database on which two queries return different rows, with both outputs.
--    Pair 2 without its schema: every column may then be NULL, and COUNT(singer_id) skips a NULL
--    that COUNT(*) counts; with the schema (singer_id is the primary key) 1. found them equivalent.
--    Table functions take the schema as a named argument in DuckDB (schema := '...') and
--    positionally in SQLite.
SELECT table_name, row_number, row_json, gold_output, pred_output
FROM sql_counterexample('SELECT count(*) FROM singer WHERE country = ''France''',
                        'SELECT count(singer_id) FROM singer WHERE country = "France"');

-- 4. The other metrics: AST-TE, ASTPM, RelPM and the two graph matching networks (structural
--    similarity in [0, 1]), the raw tree edit distance, and why a prediction scores 0.
SELECT p.id,
       round(ast_ted(p.gold, p.pred), 3) AS ast_ted,
       round(astpm(p.gold, p.pred), 3) AS astpm,
       round(relpm(p.gold, p.pred, s.ddl), 3) AS relpm,
       round(gmn_similarity(p.gold, p.pred, s.ddl), 3) AS gmn,
       round(hybrid_gmn_similarity(p.gold, p.pred, s.ddl), 3) AS hybrid_gmn,
       ast_ted_distance(p.gold, p.pred) AS ted,
       sql_parse_error(p.pred) AS pred_error
FROM pairs p, schemas s ORDER BY p.id;

-- 5. How sql_similarity got its scores: the verdict and its evidence choose a band, and the mean of
--    the structural scores places the pair inside it (sql_similarity_components returns it all as
--    JSON, components and work spent included).
SELECT id,
       c ->> '$.verdict' AS verdict,
       c ->> '$.evidence' AS evidence,
       c ->> '$.band' AS band,
       round(CAST(c ->> '$.structural' AS DOUBLE), 3) AS structural,
       round(CAST(c ->> '$.score' AS DOUBLE), 3) AS sql_similarity
FROM (SELECT p.id, sql_similarity_components(p.gold, p.pred, s.ddl) AS c FROM pairs p, schemas s) AS t
ORDER BY id;

-- 6. Spider's partial-match components for pair 6.
SELECT component, acc, rec, f1
FROM spider_partial('SELECT country, count(*) FROM singer GROUP BY country',
                    'SELECT country FROM singer GROUP BY country HAVING count(*) > 1');

-- 7. The optimized logical plan RelPM and the GMN models compare: pair 5's scalar subquery
--    becomes a join. (sql_plan returns one text; the CTE splits it into lines for display.)
WITH RECURSIVE plan_lines(n, line, rest) AS (
  SELECT 0, '', sql_plan(p.pred, s.ddl) FROM pairs p, schemas s WHERE p.id = 5
  UNION ALL
  SELECT n + 1, substr(rest, 1, instr(rest, '
') - 1), substr(rest, instr(rest, '
') + 1)
  FROM plan_lines WHERE instr(rest, '
') > 0)
SELECT line AS plan FROM plan_lines WHERE n > 0 ORDER BY n;

-- 8. Everything sqlsim offers (the README's function reference lists the same).
SELECT name, kind FROM sqlsim_functions();
