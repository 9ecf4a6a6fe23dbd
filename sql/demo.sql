-- sqlsim demo: scores for a handful of Spider-style gold/predicted pairs.
-- Runs unchanged in the sqlite3 shell and the duckdb shell (`make demo` loads the extension first).

SELECT sqlsim_version() AS version;

CREATE TABLE pairs(id INTEGER, gold TEXT, pred TEXT);
INSERT INTO pairs VALUES
  (1, 'SELECT count(*) FROM singer',
      'select COUNT(*) from SINGER;'),
  (2, 'SELECT T1.name FROM singer AS T1 JOIN concert AS T2 ON T1.singer_id = T2.singer_id',
      'SELECT singer.name FROM concert JOIN singer ON singer.singer_id = concert.singer_id'),
  (3, 'SELECT name FROM stadium WHERE capacity > 5000 AND city = ''Aberdeen''',
      'SELECT name FROM stadium WHERE city = "Aberdeen" AND capacity > 5000'),
  (4, 'SELECT name, age FROM singer ORDER BY age DESC',
      'SELECT name, age FROM singer ORDER BY age'),
  (5, 'SELECT country, count(*) FROM singer GROUP BY country',
      'SELECT country FROM singer GROUP BY country HAVING count(*) > 1'),
  (6, 'SELECT name FROM stadium ORDER BY capacity DESC LIMIT 1',
      'SELECT name FROM stadium WHERE capacity = (SELECT max(capacity) FROM stadium)'),
  (7, 'SELECT name FROM singer WHERE age > 30',
      'SELEC name FROM singer WHERE');

-- AST-TE similarity, ASTPM partial matching, raw tree edit distance, and why a prediction scores 0.
SELECT id,
       round(ast_ted(gold, pred), 3) AS ast_ted,
       round(astpm(gold, pred), 4) AS astpm,
       round(relpm(gold, pred), 4) AS relpm,
       ast_ted_distance(gold, pred) AS distance,
       sql_parse_error(pred) AS pred_error
FROM pairs ORDER BY id;

SELECT round(avg(ast_ted(gold, pred)), 3) AS mean_ast_ted FROM pairs;

-- The optimized logical plan RelPM compares (schema inferred from the query; pass DDL, a Spider
-- tables.json entry or a BIRD JSON array as the second argument for declared columns and keys).
SELECT sql_plan('SELECT name FROM stadium WHERE capacity BETWEEN 10 AND 20 AND stadium_id NOT IN (SELECT stadium_id FROM concert)',
                'CREATE TABLE stadium(stadium_id INTEGER PRIMARY KEY, name TEXT, capacity INT);
                 CREATE TABLE concert(concert_id INTEGER PRIMARY KEY, stadium_id INT NOT NULL REFERENCES stadium)') AS plan;

-- The normalized tree AST-TE compares, as rows.
SELECT node, parent, depth, label FROM sql_ast_nodes('SELECT T1.name FROM singer AS T1 WHERE T1.age > 20');

-- Everything sqlsim offers.
SELECT name, kind, signature FROM sqlsim_functions();
