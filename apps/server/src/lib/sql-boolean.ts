/** SQLite answers 0/1 for EXISTS, PostgreSQL true/false. */
export const sqlBoolean = (value: unknown): boolean =>
  value === true || value === 1 || value === '1';
