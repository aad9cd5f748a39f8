import { monotonicFactory } from 'ulid';

const nextUlid = monotonicFactory();

/** Time-sortable, URL-safe, 26-character ids. */
export const newId = (at: number = Date.now()): string => nextUlid(at);
