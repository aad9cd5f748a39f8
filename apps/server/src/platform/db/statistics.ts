import type SqliteDatabase from 'better-sqlite3';

/**
 * Keeps SQLite planning by its table statistics (`sqlite_stat1`) alone, never by the sampled
 * values of `sqlite_stat4`.
 *
 * better-sqlite3 builds SQLite with STAT4, so `ANALYZE` also samples index keys. A query planned
 * with those samples looks at the value bound to a parameter it compares with an indexed column,
 * and SQLite then throws the prepared statement away and prepares it again whenever that parameter
 * is bound: the pulled authors among a member's follows, for one, at every execution. On the
 * 1,000,000-post instance analysed with samples, 6.4% of the server's main thread during likes
 * went to preparing statements again, this cause and a bound LIMIT (see sqlite-dialect.ts)
 * together; with the samples removed, the feed, likes and comments took 10–20% less CPU. Without
 * samples a statement's plan depends on its text and the table statistics only, as SQLite's query
 * planner stability guarantee gives (which better-sqlite3 cannot switch on); the statements whose
 * plan the averages could get wrong name their index (`indexedBy` in dialect.ts).
 *
 * Perch itself never runs `ANALYZE`; an operator or a tool may. The writer removes the samples
 * when it opens the file and has its connection reload the statistics; connections opened after
 * it read them without samples.
 */
export function planWithoutValueSamples(sqlite: SqliteDatabase.Database): void {
  const sampled = sqlite
    .prepare("select 1 from sqlite_schema where type = 'table' and name = 'sqlite_stat4'")
    .get();
  if (!sampled) return;
  const { changes } = sqlite.prepare('delete from sqlite_stat4').run();
  // ANALYZE of the schema table reloads every statistics table into the connection.
  if (changes > 0) sqlite.exec('analyze sqlite_schema');
}
