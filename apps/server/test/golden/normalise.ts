/**
 * Makes recorded answers comparable across runs and databases: ids, cursors, image hashes and
 * tokens become placeholders numbered in order of first appearance, timestamps an offset from the
 * test's clock, and object keys are sorted. Everything else is kept as it was answered.
 */

const ULID = /\b[0-9A-HJKMNP-TV-Z]{26}\b/g;
const MEDIA_HASH = /\/media\/[0-9a-f]{2}\/([0-9a-f]{64})/g;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const JWT = /^[\w-]+\.[\w-]+\.[\w-]+$/;
const TOKEN_KEYS = new Set(['encodedToken', 'token']);
const CURSOR_KEYS = new Set(['nextCursor', 'cursor']);

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export class Normaliser {
  readonly #ids = new Map<string, string>();
  readonly #hashes = new Map<string, string>();

  /** @param clockStart the test clock's first moment: times are answered as offsets from it. */
  constructor(private readonly clockStart: number) {}

  #placeholder(map: Map<string, string>, kind: string, value: string): string {
    let known = map.get(value);
    if (known === undefined) {
      known = `<${kind}:${map.size + 1}>`;
      map.set(value, known);
    }
    return known;
  }

  /**
   * Cursors are opaque, and made differently by each database for some lists (search): they are
   * numbered by value within the list they page through (the request path), starting at 1.
   */
  #scope = '';
  #scopes = new Map<string, Map<string, string>>();

  within(path: string): this {
    this.#scope = path.split('?', 1)[0] ?? '';
    return this;
  }

  cursor(value: string): string {
    let cursors = this.#scopes.get(this.#scope);
    if (!cursors) {
      cursors = new Map();
      this.#scopes.set(this.#scope, cursors);
    }
    return this.#placeholder(cursors, 'cursor', value);
  }

  /** Ids and image hashes inside any text (paths, messages, URLs). */
  text(value: string): string {
    return value
      .replace(
        MEDIA_HASH,
        (_, hash: string) => `/media/${this.#placeholder(this.#hashes, 'hash', hash)}`,
      )
      .replace(ULID, (id) => this.#placeholder(this.#ids, 'id', id));
  }

  /** A request URL: ids in the path, cursors in the query. */
  url(url: string): string {
    const [path = '', query] = url.split('?', 2);
    if (query === undefined) return this.text(path);
    const params = new URLSearchParams(query);
    const kept = [...params].map(([key, value]) =>
      CURSOR_KEYS.has(key) ? `${key}=${this.cursor(value)}` : `${key}=${this.text(value)}`,
    );
    return `${this.text(path)}?${kept.join('&')}`;
  }

  time(value: string): string {
    const offset = Date.parse(value) - this.clockStart;
    return `<time:${offset < 0 ? '' : '+'}${offset}ms>`;
  }

  #string(key: string | null, value: string): string {
    if (key !== null && TOKEN_KEYS.has(key)) return '<token>';
    if (key !== null && CURSOR_KEYS.has(key)) return this.cursor(value);
    if (ISO_TIME.test(value)) return this.time(value);
    if (JWT.test(value) && value.startsWith('eyJ')) return '<token>';
    return this.text(value);
  }

  /** A JSON value with its keys sorted and its volatile parts replaced, walked in sorted order. */
  value(value: Json, key: string | null = null): Json {
    if (typeof value === 'string') return this.#string(key, value);
    if (Array.isArray(value)) return value.map((item) => this.value(item, key));
    if (value === null || typeof value !== 'object') return value;
    const sorted: Record<string, Json> = {};
    for (const name of Object.keys(value).sort()) {
      sorted[name] = this.value(value[name] as Json, name);
    }
    return sorted;
  }
}
