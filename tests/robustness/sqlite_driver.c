/*
 * sqlite_driver.c - a deterministic SQL workload over the SQLite
 * amalgamation, for the robustness suite: every loop of sqlite3.c is
 * instrumented (-fplugin-arg-capture_window-all-loops) and the output must
 * be byte-identical to a plain build's.
 *
 *   sqlite_driver DBFILE [SCALE]
 *
 * Tables, inserts, indexes, joins, aggregates, window functions, a
 * recursive CTE, transactions with rollback and savepoints, and errors
 * (syntax, constraint, missing table); every result row and every error
 * message is printed.  DBFILE is created afresh (the pager, journal and
 * OS layer run too); SCALE (default 200) sizes the tables.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sqlite3.h"

static int print_row(void *tag, int n, char **values, char **names) {
  printf("%s:", (const char *)tag);
  for (int i = 0; i < n; i++) printf(" %s=%s", names[i], values[i] ? values[i] : "NULL");
  printf("\n");
  return 0;
}

/* Run SQL, print its rows under TAG, and its error if any. */
static void run(sqlite3 *db, const char *tag, const char *sql) {
  char *err = NULL;
  int rc = sqlite3_exec(db, sql, print_row, (void *)tag, &err);
  if (rc != SQLITE_OK) {
    printf("%s: error %d (%s): %s\n", tag, rc, sqlite3_errstr(rc), err ? err : "?");
    sqlite3_free(err);
  }
}

static void fill(sqlite3 *db, int scale) {
  sqlite3_stmt *st;
  run(db, "begin", "BEGIN");
  sqlite3_prepare_v2(db, "INSERT INTO item(id, name, price, cat) VALUES(?,?,?,?)", -1, &st, NULL);
  for (int i = 1; i <= scale; i++) {
    char name[32];
    snprintf(name, sizeof name, "item-%04d", (i * 7919) % (scale * 3));
    sqlite3_bind_int(st, 1, i);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(st, 3, (i * 37 % 1000) / 10.0);
    sqlite3_bind_int(st, 4, i % 7);
    if (sqlite3_step(st) != SQLITE_DONE) printf("insert %d: %s\n", i, sqlite3_errmsg(db));
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  sqlite3_prepare_v2(db, "INSERT INTO sale(item, qty, day) VALUES(?,?,?)", -1, &st, NULL);
  for (int i = 0; i < scale * 3; i++) {
    sqlite3_bind_int(st, 1, 1 + (i * 31) % scale);
    sqlite3_bind_int(st, 2, 1 + i % 5);
    sqlite3_bind_int(st, 3, i % 30);
    sqlite3_step(st);
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  run(db, "commit", "COMMIT");
}

int main(int argc, char **argv) {
  sqlite3 *db;
  int scale = argc > 2 ? atoi(argv[2]) : 200;
  if (argc < 2) {
    fprintf(stderr, "usage: %s DBFILE [SCALE]\n", argv[0]);
    return 2;
  }
  remove(argv[1]);
  if (sqlite3_open(argv[1], &db) != SQLITE_OK) {
    printf("open: %s\n", sqlite3_errmsg(db));
    return 1;
  }
  printf("sqlite %s\n", sqlite3_libversion());
  run(db, "schema",
      "PRAGMA journal_mode=DELETE;"
      "CREATE TABLE cat(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL);"
      "CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
      "  price REAL CHECK(price >= 0), cat INTEGER REFERENCES cat(id));"
      "CREATE TABLE sale(id INTEGER PRIMARY KEY, item INTEGER, qty INTEGER,"
      "  day INTEGER);"
      "WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM c WHERE i<6)"
      "  INSERT INTO cat SELECT i, 'cat' || i FROM c;");
  fill(db, scale);
  run(db, "index",
      "CREATE INDEX item_cat ON item(cat, price);"
      "CREATE INDEX sale_item ON sale(item); ANALYZE;");
  run(db, "count", "SELECT count(*) n, sum(qty) q FROM sale");
  run(db, "join",
      "SELECT c.name, count(*) n, round(sum(s.qty * i.price), 2) revenue "
      "FROM sale s JOIN item i ON i.id = s.item JOIN cat c ON c.id = i.cat "
      "GROUP BY c.name ORDER BY revenue DESC");
  run(db, "left",
      "SELECT i.id, i.name, count(s.id) sold FROM item i LEFT JOIN sale s "
      "ON s.item = i.id WHERE i.id % 17 = 0 GROUP BY i.id ORDER BY i.id");
  run(db, "window",
      "SELECT day, total, sum(total) OVER (ORDER BY day) running, "
      "rank() OVER (ORDER BY total DESC) r FROM "
      "(SELECT day, sum(qty) total FROM sale GROUP BY day) ORDER BY day LIMIT 10");
  run(db, "cte",
      "WITH RECURSIVE fib(n, a, b) AS (SELECT 1, 0, 1 UNION ALL "
      "SELECT n+1, b, a+b FROM fib WHERE n < 40) SELECT n, a FROM fib WHERE n % 8 = 0");
  run(db, "strings",
      "SELECT upper(substr(name, 1, 6)) u, length(name) l, name LIKE '%-00%' z, "
      "printf('%08.3f|%-6s|%x', price, cat, id) p, hex(zeroblob(3)) h "
      "FROM item WHERE id IN (1, 2, 3, 50)");
  run(db, "json",
      "SELECT json_object('a', 1, 'b', json_array(1, 2, 'x')) j, "
      "json_extract('{\"k\":[5,6]}', '$.k[1]') e");
  run(db, "distinct", "SELECT DISTINCT cat FROM item ORDER BY cat DESC");
  run(db, "subquery",
      "SELECT id, price FROM item WHERE price > (SELECT avg(price) FROM item) "
      "AND cat = 3 ORDER BY price DESC, id LIMIT 5");
  /* Transactions: a rollback, a savepoint released and one rolled back. */
  run(db, "rollback",
      "BEGIN; DELETE FROM sale; UPDATE item SET price = 0;"
      "ROLLBACK; SELECT count(*) after_rollback FROM sale");
  run(db, "savepoint",
      "BEGIN; SAVEPOINT a; INSERT INTO cat VALUES(100, 'extra');"
      "SAVEPOINT b; DELETE FROM item WHERE cat = 1; ROLLBACK TO b; RELEASE a;"
      "COMMIT; SELECT count(*) items, (SELECT name FROM cat WHERE id=100) c FROM item");
  run(db, "update",
      "UPDATE item SET price = price * 1.1 WHERE cat = 2;"
      "SELECT round(sum(price), 3) total FROM item");
  /* Errors: each prints its message; the database stays usable. */
  run(db, "syntax", "SELEKT * FROM item");
  run(db, "missing", "SELECT * FROM nowhere");
  run(db, "unique", "INSERT INTO cat VALUES(200, 'cat1')");
  run(db, "check", "INSERT INTO item VALUES(99999, 'bad', -1, 0)");
  run(db, "pk", "INSERT INTO item(id, name) VALUES(1, 'dup')");
  run(db, "abort",
      "BEGIN; INSERT INTO cat VALUES(300, 'x'); "
      "INSERT INTO cat VALUES(301, 'x'); COMMIT");
  run(db, "after_abort", "ROLLBACK; SELECT count(*) n FROM cat");
  run(db, "integrity", "PRAGMA integrity_check");
  run(db, "vacuum", "DROP INDEX sale_item; VACUUM; SELECT count(*) FROM sale");
  sqlite3_close(db);
  remove(argv[1]);
  printf("done\n");
  return 0;
}
