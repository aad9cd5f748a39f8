/**
 * Answers whose parts were serialized ahead. A post card's JSON is mostly the same for every reader
 * and is kept with the cached card; writing a page then joins those parts instead of walking 21
 * objects again (JSON.stringify was a quarter of the home feed's CPU).
 *
 * A part may be kept as UTF-8 bytes: an answer made only of strings is sent as one string, which
 * the server then walks twice (its byte length, then its encoding; a fifth of the home feed's CPU
 * once a page held an emoji), while bytes are copied once into the answer.
 *
 * A value registered here must not be changed afterwards: answers that add to a post (the
 * original API's embedded comments) make a new object through `extended`.
 */
import fastJson from 'fast-json-stringify';
import { z } from 'zod';

/** A piece of JSON: text, or its UTF-8 bytes. */
export type JsonPart = string | Uint8Array;
/** A value's JSON kept ahead: one string, or pieces that join into it. */
export type KeptJson = string | readonly JsonPart[];

// Kept on the value itself, hidden: a WeakMap's entry cost about 0.9 µs per post (most of it
// collecting them again), a property 0.15 µs. Not enumerable, so a spread copy does not take it.
const JSON_OF = Symbol('serialized JSON');
const descriptor: { value: KeptJson; configurable: boolean } = { value: '', configurable: true };

function registered(value: unknown): KeptJson | undefined {
  return typeof value === 'object' && value !== null
    ? (value as { [JSON_OF]?: KeptJson })[JSON_OF]
    : undefined;
}

// JSON.stringify answers undefined for what it cannot write (undefined, functions).
const stringify: (value: unknown) => string | undefined = JSON.stringify;

/** Records `json` as the serialization of `value` and returns `value`. */
export function withJson<Value extends object>(value: Value, json: KeptJson): Value {
  descriptor.value = json;
  Object.defineProperty(value, JSON_OF, descriptor);
  return value;
}

/**
 * The bytes in memory of their own, for a cache to keep: a small buffer is a slice of Node's
 * shared 8 KB pool, which stays whole for as long as any slice of it is kept.
 */
export function ownCopy(bytes: Uint8Array): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  copy.set(bytes);
  return copy;
}

function textOf(parts: readonly JsonPart[]): string {
  let text = '';
  for (const part of parts) {
    text +=
      typeof part === 'string'
        ? part
        : Buffer.from(part.buffer, part.byteOffset, part.length).toString();
  }
  return text;
}

/** The value's JSON: as registered, or written now. */
export function jsonOf(value: unknown): string | undefined {
  const known = registered(value);
  if (known === undefined) return stringify(value);
  return typeof known === 'string' ? known : textOf(known);
}

/** Adds the value's JSON to `parts`: as registered, or written now; false if it has none. */
function addJson(parts: JsonPart[], value: unknown): boolean {
  const known = registered(value);
  if (typeof known === 'string') {
    parts.push(known);
    return true;
  }
  if (known !== undefined) {
    for (const part of known) parts.push(part);
    return true;
  }
  const json = stringify(value);
  if (json === undefined) return false;
  parts.push(json);
  return true;
}

/**
 * Adds a property's JSON, using its array items' registered JSON; false if it has none. The
 * punctuation is text even between items kept as bytes: joined writes each run of text at once.
 */
function addPart(parts: JsonPart[], value: unknown): boolean {
  if (!Array.isArray(value)) return addJson(parts, value);
  parts.push('[');
  for (let i = 0; i < value.length; i += 1) {
    if (i > 0) parts.push(',');
    // In an array, JSON.stringify writes null for what it cannot write.
    if (!addJson(parts, value[i])) parts.push('null');
  }
  parts.push(']');
  return true;
}

/**
 * The pieces with each run of text between bytes joined into one string: measuring and encoding a
 * string is a call into C++ each, and a post with its embedded comments leaves about seven short
 * strings between one card's bytes and the next.
 */
function textRunsJoined(parts: readonly JsonPart[]): JsonPart[] {
  const runs: JsonPart[] = [];
  let text = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      text += part;
    } else {
      if (text !== '') runs.push(text);
      text = '';
      runs.push(part);
    }
  }
  if (text !== '') runs.push(text);
  return runs;
}

/** The pieces joined: a string if they all are, else their UTF-8 bytes. */
function joined(pieces: readonly JsonPart[]): string | Buffer {
  if (pieces.every((part) => typeof part === 'string')) return pieces.join('');
  const parts = textRunsJoined(pieces);
  let length = 0;
  for (const part of parts)
    length += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
  const bytes = Buffer.allocUnsafe(length);
  let at = 0;
  for (const part of parts) {
    if (typeof part === 'string') {
      at += bytes.write(part, at);
    } else {
      bytes.set(part, at);
      at += part.length;
    }
  }
  return bytes;
}

/**
 * `{ ...value, [key]: addition }`, registered with its JSON: the value's (as registered, or written
 * now) with the addition's after it, where JSON.stringify writes a new key. An array added uses
 * its items' registered JSON (a profile's followers and following).
 */
export function extended<Value extends object, Key extends string, Addition>(
  value: Value,
  key: Key,
  addition: Addition,
): Value & Record<Key, Addition> {
  const copy = { ...value, [key]: addition } as Value & Record<Key, Addition>;
  const writable =
    isPlainObject(value) &&
    typeof value.toJSON !== 'function' &&
    !Object.hasOwn(value, key) &&
    // JSON.stringify writes integer-like keys first, whatever their order.
    !/^\d+$/.test(key);
  if (!writable) return copy;
  const additionParts: JsonPart[] = [];
  if (!addPart(additionParts, addition)) return copy;
  const parts: JsonPart[] = [];
  addJson(parts, value);
  // Every object's JSON ends with its closing brace, which now follows the addition.
  const last = parts.pop() ?? '{}';
  const open = typeof last === 'string' ? last.slice(0, -1) : last.subarray(0, -1);
  parts.push(open, `${parts.length === 0 && open === '{' ? '' : ','}${JSON.stringify(key)}:`);
  for (const part of additionParts) parts.push(part);
  parts.push('}');
  return withJson(copy, parts.every((part) => typeof part === 'string') ? parts.join('') : parts);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isKnown(value: unknown): boolean {
  return registered(value) !== undefined;
}

/** Whether the value, or an item of it, was serialized ahead. */
function holdsKnown(value: unknown): boolean {
  return Array.isArray(value) ? value.some(isKnown) : isKnown(value);
}

/**
 * Exactly what JSON.stringify(payload) writes, as text or as its UTF-8 bytes, using the JSON
 * registered for the payload and for its properties and their array items (one level down: pages,
 * a post, a mutation's answer).
 */
export function answerJson(payload: unknown): string | Buffer {
  const known = registered(payload);
  if (known !== undefined) return typeof known === 'string' ? known : joined(known);
  if (!isPlainObject(payload) || typeof payload.toJSON === 'function') {
    return JSON.stringify(payload);
  }
  const keys = Object.keys(payload);
  if (!keys.some((key) => holdsKnown(payload[key]))) return JSON.stringify(payload);
  const parts: JsonPart[] = [];
  for (const key of keys) {
    const value = payload[key];
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    parts.push(`${parts.length === 0 ? '{' : ','}${JSON.stringify(key)}:`);
    if (!addPart(parts, value)) parts.push('null');
  }
  if (parts.length === 0) return '{}';
  parts.push('}');
  return joined(parts);
}

/**
 * A serializer compiled by fast-json-stringify from a contract schema (its output shape, in JSON
 * Schema draft 7): it writes the schema's properties, in the schema's order, and nothing else.
 */
export function compileJson<Schema extends z.ZodType>(
  schema: Schema,
): (value: z.output<Schema>) => string {
  const json: Record<string, unknown> = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'output',
    unrepresentable: 'any',
  });
  delete json.$schema;
  return fastJson(json) as (value: z.output<Schema>) => string;
}

/** Two objects' JSON joined into one object's, as UTF-8, and where the second one's fields start. */
export function joinedObjects(first: string, second: string): { json: Buffer; secondAt: number } {
  if (first === '{}') return { json: Buffer.from(second), secondAt: 1 };
  const text = second === '{}' ? first : `${first.slice(0, -1)},${second.slice(1)}`;
  // From Node's shared pool: see `ownCopy` for the bytes a cache keeps.
  const json = Buffer.from(text);
  return { json, secondAt: json.length - Buffer.byteLength(second) + 1 };
}
