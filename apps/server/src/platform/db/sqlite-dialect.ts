import { SqliteDialect, SqliteQueryCompiler, type LimitNode, type QueryCompiler } from 'kysely';

/**
 * Writes a query's LIMIT as an expression SQLite does not plan by.
 *
 * SQLite (3.53 here) reads the value bound to a bare `LIMIT ?` when it plans the statement, and
 * then throws the prepared statement away and prepares it again every time that parameter is
 * bound, even to the same value: every page of every list, since Perch binds its page sizes. On
 * the 1,000,000-post instance that was 5.3% of the main thread when reading members' posts
 * (sqlite3Reprepare under perf). `cast(? as integer)` is the same limit, evaluated when the
 * statement runs, and the statement stays prepared. The hot queries either read an index in the
 * order asked for or name their index (`indexedBy` in dialect.ts), so the limit never chose a plan:
 * their plans are the same either way.
 */
class UnplannedLimitCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    this.append('limit cast(');
    this.visitNode(node.limit);
    this.append(' as integer)');
  }
}

/** Kysely's SQLite dialect with its LIMITs written as UnplannedLimitCompiler writes them. */
export class PerchSqliteDialect extends SqliteDialect {
  override createQueryCompiler(): QueryCompiler {
    return new UnplannedLimitCompiler();
  }
}
