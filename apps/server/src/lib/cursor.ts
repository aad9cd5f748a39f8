import { badRequest } from './errors';

type CursorValue = string | number;

/** Cursors are opaque to clients: the keyset values of the last row of a page, base64url JSON. */
export function encodeCursor(values: CursorValue[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** Decodes a cursor made by encodeCursor with the given shape, or answers 400. */
export function decodeCursor<const Shape extends readonly ('string' | 'number')[]>(
  cursor: string,
  shape: Shape,
): { [K in keyof Shape]: Shape[K] extends 'number' ? number : string } {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('cursor is invalid.');
  }
  const valid =
    Array.isArray(values) &&
    values.length === shape.length &&
    values.every((value, i) =>
      shape[i] === 'number' ? Number.isFinite(value) : typeof value === 'string',
    );
  if (!valid) throw badRequest('cursor is invalid.');
  return values as { [K in keyof Shape]: Shape[K] extends 'number' ? number : string };
}

/** Splits the extra row fetched to learn whether another page exists. */
export function pageOf<Row>(
  rows: Row[],
  limit: number,
  cursorOf: (last: Row) => CursorValue[],
): { items: Row[]; nextCursor: string | null } {
  if (rows.length <= limit) return { items: rows, nextCursor: null };
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: last === undefined ? null : encodeCursor(cursorOf(last)) };
}
