/**
 * Answers whose parts were serialized ahead. A post card's JSON is mostly the same for every reader
 * and is kept with the cached card; writing a page then joins those strings instead of walking 21
 * objects again (JSON.stringify was a quarter of the home feed's CPU).
 *
 * A value registered here must not be changed afterwards: answers that add to a post (the
 * original API's embedded comments) make a new object through `extended`.
 */
// Kept on the value itself, hidden: a WeakMap's entry cost about 0.9 µs per post (most of it
// collecting them again), a property 0.15 µs. Not enumerable, so a spread copy does not take it.
const JSON_OF = Symbol('serialized JSON');
const descriptor = { value: '', configurable: true };

function registered(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null
    ? (value as { [JSON_OF]?: string })[JSON_OF]
    : undefined;
}

// JSON.stringify answers undefined for what it cannot write (undefined, functions).
const stringify: (value: unknown) => string | undefined = JSON.stringify;

/** Records `json` as the serialization of `value` and returns `value`. */
export function withJson<Value extends object>(value: Value, json: string): Value {
  descriptor.value = json;
  Object.defineProperty(value, JSON_OF, descriptor);
  return value;
}

/** The value's JSON: as registered, or written now. */
export function jsonOf(value: unknown): string | undefined {
  return registered(value) ?? stringify(value);
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
  const additionJson = writable ? partJson(addition) : undefined;
  if (additionJson === undefined) return copy;
  const json = jsonOf(value) ?? '{}';
  const separator = json === '{}' ? '' : ',';
  return withJson(copy, `${json.slice(0, -1)}${separator}${JSON.stringify(key)}:${additionJson}}`);
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

function partJson(value: unknown): string | undefined {
  if (!Array.isArray(value)) return jsonOf(value);
  let json = '[';
  for (let i = 0; i < value.length; i += 1) {
    const item: unknown = value[i];
    const known = registered(item);
    // In an array, JSON.stringify writes null for what it cannot write.
    json += (i === 0 ? '' : ',') + (known ?? stringify(item) ?? 'null');
  }
  return json + ']';
}

/**
 * Exactly what JSON.stringify(payload) writes, using the strings registered for the payload and
 * for its properties and their array items (one level down: pages, a post, a mutation's answer).
 */
export function stringifyAnswer(payload: unknown): string {
  const known = registered(payload);
  if (known !== undefined) return known;
  if (!isPlainObject(payload) || typeof payload.toJSON === 'function') {
    return JSON.stringify(payload);
  }
  const keys = Object.keys(payload);
  if (!keys.some((key) => holdsKnown(payload[key]))) return JSON.stringify(payload);
  let json = '';
  for (const key of keys) {
    const value = payload[key];
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    json += (json === '' ? '{' : ',') + JSON.stringify(key) + ':' + (partJson(value) ?? 'null');
  }
  return json === '' ? '{}' : json + '}';
}
