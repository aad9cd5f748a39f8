import { badRequest } from './errors';

type CursorValue = string | number;

/** Cursors are opaque to clients: the keyset values of the last row of a page, base64url JSON. */
export function encodeCursor(values: CursorValue[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/**
 * What each keyset value must be, as the column it is compared with can hold it (a forged cursor
 * must answer 400, not reach the database): `number` a time or other 8-byte integer, `count` a
 * 4-byte integer column, `string` text without NUL.
 */
export type CursorPart = 'string' | 'number' | 'count';

const INT4_MIN = -2_147_483_648;
const INT4_MAX = 2_147_483_647;

const fits: Record<CursorPart, (value: unknown) => boolean> = {
  number: (value) => Number.isSafeInteger(value),
  count: (value) =>
    Number.isInteger(value) && (value as number) >= INT4_MIN && (value as number) <= INT4_MAX,
  string: (value) => typeof value === 'string' && !value.includes('\0'),
};

/** Decodes a cursor made by encodeCursor with the given shape, or answers 400. */
export function decodeCursor<const Shape extends readonly CursorPart[]>(
  cursor: string,
  shape: Shape,
): { [K in keyof Shape]: Shape[K] extends 'string' ? string : number } {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('cursor is invalid.');
  }
  const valid =
    Array.isArray(values) &&
    values.length === shape.length &&
    values.every((value, i) => {
      const part = shape[i];
      return part !== undefined && fits[part](value);
    });
  if (!valid) throw badRequest('cursor is invalid.');
  return values as { [K in keyof Shape]: Shape[K] extends 'string' ? string : number };
}

/** Splits the extra row fetched to learn whether another page exists. */
export function pageOf<Row>(
  rows: Row[],
  limit: number,
  cursorOf: (last: Row) => CursorValue[],
): { items: Row[]; nextCursor: string | null } {
  return pageEnding(rows.slice(0, limit), rows.length > limit, cursorOf);
}

/** A page already cut to its size; `more` tells whether another page follows it. */
export function pageEnding<Row>(
  items: Row[],
  more: boolean,
  cursorOf: (last: Row) => CursorValue[],
): { items: Row[]; nextCursor: string | null } {
  const last = items[items.length - 1];
  return { items, nextCursor: more && last !== undefined ? encodeCursor(cursorOf(last)) : null };
}
