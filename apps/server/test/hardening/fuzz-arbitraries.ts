import { mastodon, RESERVED_USERNAMES } from '@perch/contract';
import fc from 'fast-check';
import type { FastifyInstance, HTTPMethods, LightMyRequestResponse } from 'fastify';
import { z } from 'zod';
import { inMastodonApi } from '../../src/app/plugins/error-handler';

export interface FuzzRoute {
  method: HTTPMethods;
  /** As the router knows it: `:name` for a parameter, `*` for a wildcard. */
  path: string;
}

/**
 * Every method and path the app routes, read from the router's own tree so that a route added
 * tomorrow is fuzzed without anyone listing it here. Each line of the tree adds its segment to
 * its parent's; a line without methods is only a shared prefix.
 */
export function routesOf(app: FastifyInstance): FuzzRoute[] {
  const routes: FuzzRoute[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes().split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const [, indent = '', segment = '', methods] = match;
    const depth = indent.length / 4;
    const path = (prefixes[depth - 1] ?? '') + segment;
    prefixes.length = depth;
    prefixes.push(path);
    for (const method of methods?.split(', ') ?? []) {
      routes.push({ method, path });
    }
  }
  return routes;
}

/** Real things the requests can name, so that some of them get past validation and lookups. */
export interface FuzzWorld {
  tokens: string[];
  /** Tokens that look right and are not: tampered, foreign, or of a member who does not exist. */
  badTokens: string[];
  postIds: string[];
  commentIds: string[];
  comments: { postId: string; commentId: string }[];
  userIds: string[];
  usernames: string[];
  cursors: string[];
  mediaUrls: string[];
  /** Image files to upload: sound ones and ones that only look like images. */
  images: Buffer[];
}

export interface FuzzRequest {
  method: HTTPMethods;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

// Characters with a meaning somewhere: in URLs, SQL, LIKE patterns, JSON, Unicode normalisation.
const oddChars = fc.constantFrom(
  '\u0000',
  '%',
  '/',
  '?',
  '#',
  '&',
  '=',
  '+',
  ' ',
  '.',
  '..',
  '\\',
  '\r\n',
  '\t',
  "'",
  '"',
  '<',
  '>',
  ';',
  '--',
  '*',
  '_',
  '%_',
  "' OR '1'='1",
  '\u202e',
  '\ufeff',
  '\u200b',
  '\uffff',
  'e\u0301',
  '\u0130',
  '😀',
  '👩‍👩‍👧',
  'é',
  '中',
);
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const oddUnit = fc.oneof(
  oddChars,
  loneSurrogate,
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
);

/** Strings of every kind: ASCII, any code point, graphemes, odd characters, up to 600 long. */
export const text: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: oddUnit, maxLength: 20 }),
  fc
    .tuple(
      fc.string({ unit: oddUnit, minLength: 1, maxLength: 3 }),
      fc.integer({ min: 60, max: 600 }),
    )
    .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length)),
);

/** Text at and just past the lengths the contract allows, in units that count differently. */
const sized = fc
  .tuple(
    fc.constantFrom('a', ' ', '😀', 'e\u0301', '\n'),
    fc.constantFrom(0, 1, 2, 3, 30, 31, 50, 51, 300, 301, 1000, 1001, 2000, 2001),
  )
  .map(([unit, count]) => unit.repeat(count));

const hex = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/** Like encodeURIComponent, but a lone surrogate does not throw (it becomes U+FFFD). */
export function percentEncode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(char) ? char : hex(byte);
  }
  return out;
}

const percentJunk = fc
  .array(
    fc.constantFrom(
      '%',
      '%0',
      '%00',
      '%zz',
      '%ff',
      '%FE',
      '%E0%A4%A',
      '%2F',
      '%2f',
      '%25',
      '%C0%AF',
      '%C0%80',
      '%ED%A0%80',
      '%F4%90%80%80',
      '%EF%BB%BF',
      '%u0041',
      '%%',
      '%2e%2e',
      '%5C',
      '%3F',
      '%23',
      '%20',
      '%0D%0A',
      'a',
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((parts) => parts.join(''));

/** Bytes that are not UTF-8, percent-encoded. */
const rawBytes = fc
  .uint8Array({ minLength: 1, maxLength: 12 })
  .map((bytes) => Array.from(bytes, hex).join(''));

/** A piece of a URL: encoded text, stray or broken escapes, or text as it is. */
const urlPart: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: text.map(percentEncode) },
  { weight: 2, arbitrary: percentJunk },
  { weight: 1, arbitrary: rawBytes },
  { weight: 2, arbitrary: text },
);

// ULIDs' alphabet, in both cases and with the letters it leaves out.
const ulidLike = fc.stringMatching(/^[0-9A-Za-z]{26}$/);

const nonEmpty = (values: string[]) => (values.length > 0 ? values : ['x']);

/** Real values with small damage: another case, cut short, something added. */
const damaged = (values: string[]) =>
  fc.tuple(fc.constantFrom(...nonEmpty(values)), fc.nat(5), text).map(([value, how, extra]) => {
    switch (how) {
      case 0:
        return value.toLowerCase();
      case 1:
        return value.slice(0, -1);
      case 2:
        return `${value}${percentEncode(extra)}`;
      case 3:
        return `${value}%00`;
      case 4:
        return `${value}/..`;
      default:
        return ` ${value}`;
    }
  });

function paramValue(name: string, world: FuzzWorld): fc.Arbitrary<string> {
  const own: Record<string, string[]> = {
    postId: world.postIds,
    commentId: world.commentIds,
    userId: world.userIds,
    username: world.usernames,
  };
  const real = own[name] ?? [];
  const anyReal = [...world.postIds, ...world.commentIds, ...world.userIds, ...world.usernames];
  return fc.oneof(
    { weight: real.length > 0 ? 5 : 0, arbitrary: fc.constantFrom(...nonEmpty(real)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...nonEmpty(anyReal), ...RESERVED_USERNAMES, 'guest', 'me'),
    },
    { weight: 1, arbitrary: damaged(real.length > 0 ? real : anyReal) },
    { weight: 1, arbitrary: ulidLike },
    { weight: 6, arbitrary: urlPart },
  );
}

/** What fills a `*` wildcard: several segments, some of them real stored file names. */
function wildcardValue(world: FuzzWorld): fc.Arbitrary<string> {
  const stored = world.mediaUrls.map((url) => url.replace(/^\/media\//, ''));
  const segment = fc.oneof(
    { weight: 3, arbitrary: urlPart },
    { weight: 1, arbitrary: fc.constantFrom('..', '.', '', '.tmp', '.well-known', 'etc') },
    { weight: stored.length > 0 ? 2 : 0, arbitrary: fc.constantFrom(...nonEmpty(stored)) },
  );
  return fc.array(segment, { maxLength: 4 }).map((segments) => segments.join('/'));
}

export function pathArbitrary(path: string, world: FuzzWorld): fc.Arbitrary<string> {
  const pieces = path.split(/(:[A-Za-z]+|\*)/).filter((piece) => piece !== '');
  const names = pieces.filter((piece) => piece.startsWith(':')).map((piece) => piece.slice(1));
  const independent: fc.Arbitrary<Record<string, string>> = fc.record(
    Object.fromEntries(names.map((name) => [name, paramValue(name, world)])),
  );
  // A comment and the post it is on: otherwise the two hardly ever meet.
  const pairs = names.includes('postId') && names.includes('commentId') ? world.comments : [];
  const params = fc.oneof(
    { weight: 1, arbitrary: independent },
    {
      weight: pairs.length > 0 ? 1 : 0,
      arbitrary: fc.constantFrom<Record<string, string>>(...(pairs.length > 0 ? pairs : [{}])),
    },
  );
  const ending = fc.oneof(
    { weight: 12, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom('/', '//', '/.') },
  );
  return fc
    .tuple(params, pieces.includes('*') ? wildcardValue(world) : fc.constant(''), ending)
    .map(
      ([values, wildcard, end]) =>
        pieces
          .map((piece) => {
            if (piece === '*') return wildcard;
            return piece.startsWith(':') ? (values[piece.slice(1)] ?? '') : piece;
          })
          .join('') + end,
    );
}

const oddNumbers = fc.constantFrom(
  '',
  ' ',
  '0',
  '-0',
  '-1',
  '1',
  '20',
  '50',
  '51',
  '1.5',
  '1e1',
  '1e400',
  '-1e400',
  'NaN',
  'Infinity',
  '0x10',
  '0b1',
  ' 5',
  '5 ',
  '٣',
  '9007199254740993',
  'null',
  'true',
  '[]',
  '{}',
);
const sorts = fc.constantFrom('latest', 'oldest', 'trending', 'LATEST', 'Latest ', 'random');

const cursorNumber = fc.oneof(
  fc.integer(),
  fc.maxSafeInteger(),
  fc.double(),
  fc.constantFrom(1e300, -1e300, 1.5, -0.5, 2 ** 31, 2 ** 53 + 2, 2 ** 63, 2 ** 64, 1e21, 5e-324),
);
const cursorString = fc.oneof(text, ulidLike);

/**
 * Cursors a client could forge: base64url JSON, mostly of the shapes the server issues (a number or
 * two and an id) with values it never would.
 */
export const forgedCursor: fc.Arbitrary<string> = fc
  .oneof(
    fc.tuple(cursorString),
    fc.tuple(cursorNumber, cursorString),
    fc.tuple(cursorNumber, cursorNumber, cursorString),
    fc.tuple(cursorNumber, cursorString, cursorNumber),
    fc.array(fc.oneof(cursorNumber, cursorString, fc.jsonValue({ maxDepth: 1 })), {
      maxLength: 4,
    }),
  )
  .map((values) => Buffer.from(JSON.stringify(values)).toString('base64url'));

function cursorValue(world: FuzzWorld): fc.Arbitrary<string> {
  const real = nonEmpty(world.cursors);
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...real) },
    { weight: 1, arbitrary: damaged(real) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...real)
        .map((cursor) => Buffer.from(cursor, 'base64url').toString('base64')),
    },
    { weight: 4, arbitrary: forgedCursor },
    { weight: 1, arbitrary: fc.base64String({ maxLength: 80 }) },
  );
}

const oddKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'hasOwnProperty',
    'limit[]',
    'limit[0]',
    'cursor[a]',
    'q[]',
    '',
  ),
  text,
);

function queryArbitrary(world: FuzzWorld): fc.Arbitrary<string> {
  const entry = (key: string, value: fc.Arbitrary<string>) =>
    fc.tuple(
      fc.constant(key),
      fc.oneof({ weight: 4, arbitrary: value }, { weight: 1, arbitrary: text }),
    );
  const keyAndValue = fc.oneof(
    { weight: 3, arbitrary: entry('cursor', cursorValue(world)) },
    { weight: 3, arbitrary: entry('limit', oddNumbers) },
    { weight: 2, arbitrary: entry('sort', sorts) },
    { weight: 2, arbitrary: entry('q', fc.oneof(text, sized)) },
    { weight: 1, arbitrary: entry('lastEventId', oddNumbers) },
    {
      weight: 2,
      arbitrary: fc.tuple(oddKey, fc.oneof(oddNumbers, sorts, cursorValue(world), text)),
    },
  );
  const pair = fc
    .tuple(keyAndValue, fc.constantFrom('encoded', 'encoded', 'raw', 'junk', 'bare'), percentJunk)
    .map(([[key, val], how, junk]) => {
      switch (how) {
        case 'raw':
          return `${key}=${val}`;
        case 'junk':
          return `${percentEncode(key)}=${junk}`;
        case 'bare':
          return percentEncode(key);
        default:
          return `${percentEncode(key)}=${percentEncode(val)}`;
      }
    });
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom('', '?', '?&', '?=', '?&&=&') },
    {
      weight: 6,
      arbitrary: fc
        .tuple(fc.array(pair, { minLength: 1, maxLength: 5 }), fc.constantFrom('&', '&', '&&', ';'))
        .map(([pairs, separator]) => `?${pairs.join(separator)}`),
    },
    {
      // A cursor alone, so that a forged one is not refused for the company it keeps.
      weight: 3,
      arbitrary: fc
        .tuple(cursorValue(world), fc.constantFrom('', '&sort=trending', '&limit=1'))
        .map(([cursor, rest]) => `?cursor=${cursor}${rest}`),
    },
  );
}

const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(null, true, false, 0, -1, 1e308, '', ' ', [], {}, [''], { '': '' }),
  text,
);

/** Mostly null: something that is usually absent. */
const rarely = <T>(arbitrary: fc.Arbitrary<T>, weight = 1) =>
  fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, { weight, arbitrary });

/** Mostly a value of the expected kind, sometimes anything at all. */
const maybe = (good: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 3, arbitrary: good }, { weight: 1, arbitrary: wrongValue });

const anyText = fc.oneof(text, sized);

function fieldsArbitrary(world: FuzzWorld): fc.Arbitrary<Record<string, unknown>> {
  const mediaUrl = fc.oneof(
    fc.constantFrom(
      ...world.mediaUrls,
      '',
      null,
      '/media/',
      '/media/../secret',
      '/media/x.webp',
      '/media/.tmp/x',
      'http://evil.example/x.png',
      '//evil.example/x.png',
      'javascript:alert(1)',
      '/media/%2e%2e/x',
    ),
    text,
  );
  const username = fc.oneof(
    fc.constantFrom(...nonEmpty(world.usernames), 'guest', ...RESERVED_USERNAMES),
    fc.stringMatching(/^[A-Za-z0-9_]{3,30}$/),
    anyText,
  );
  const password = fc.oneof(fc.constantFrom('correct horse battery', 'perch-guest-2026'), anyText);
  const email = fc.oneof(
    fc.emailAddress(),
    text.map((local) => `${local}@example.com`),
    anyText,
  );
  const name = fc.oneof(fc.constantFrom('Ada', 'Zoë', ' '), anyText);
  return fc.record(
    {
      postData: maybe(
        fc.record(
          { content: maybe(anyText), mediaURL: maybe(mediaUrl), likes: wrongValue },
          { requiredKeys: [] },
        ),
      ),
      commentData: maybe(fc.record({ text: maybe(anyText) }, { requiredKeys: [] })),
      userData: maybe(
        fc.record(
          {
            firstName: maybe(name),
            lastName: maybe(name),
            bio: maybe(anyText),
            avatarURL: maybe(mediaUrl),
            username: maybe(username),
          },
          { requiredKeys: [] },
        ),
      ),
      username: maybe(username),
      password: maybe(password),
      confirmPassword: maybe(password),
      firstName: maybe(name),
      lastName: maybe(name),
      email: maybe(email),
      purpose: maybe(fc.constantFrom('post', 'avatar', 'banner')),
    },
    { requiredKeys: [] },
  );
}

/**
 * A body every route accepts: each takes its own fields and ignores the others. Signing up takes a
 * fresh username, signing in a known one; either way one of the two is refused.
 */
function validBody(world: FuzzWorld): fc.Arbitrary<Record<string, unknown>> {
  const content = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 });
  return fc
    .record({
      content,
      mediaURL: fc.constantFrom(...world.mediaUrls, null, ''),
      firstName: fc.stringMatching(/^[A-Za-z]{1,20}$/),
      username: fc.oneof(
        fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{5,20}$/),
        fc.constantFrom(...nonEmpty(world.usernames)),
      ),
    })
    .map(({ content: text, mediaURL, firstName, username }) => ({
      postData: { content: text, mediaURL },
      commentData: { text: `${text}.` },
      userData: { firstName, lastName: 'Fuzz', bio: text },
      firstName,
      lastName: 'Fuzz',
      email: `${username}@example.com`,
      username,
      password: 'correct horse battery',
      confirmPassword: 'correct horse battery',
      purpose: 'post',
    }));
}

/** A valid body with one of its fields replaced by a fuzzed one. */
function nearlyValidBody(world: FuzzWorld): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(validBody(world), fieldsArbitrary(world), fc.nat())
    .map(([valid, fuzzed, pick]) => {
      const keys = Object.keys(fuzzed);
      const key = keys[pick % Math.max(1, keys.length)];
      return key === undefined ? valid : { ...valid, [key]: fuzzed[key] };
    });
}

const nested = fc
  .tuple(
    fc.integer({ min: 10, max: 20_000 }),
    fc.constantFrom('array', 'object', 'postData', 'commentData', 'userData'),
  )
  .map(([depth, where]) => {
    if (where === 'array') return `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const inner = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    return where === 'object' ? inner : `{"${where}":${inner}}`;
  });

const stringify = (value: unknown): string => JSON.stringify(value);

const brokenJson = fc.oneof(
  text,
  fc.jsonValue().map((value) => {
    const json = stringify(value);
    return json.slice(0, Math.max(1, json.length - 1));
  }),
  fc.constantFrom(
    '{',
    '}',
    '[',
    '{"postData":}',
    '{"postData":{"content":"x"}}garbage',
    '\ufeff{"postData":{"content":"x"}}',
    '{"a":1,"a":2}',
    '{/* comment */}',
    "{'postData':1}",
    'NaN',
    '-',
    '"\\ud800"',
    '"\\u0000"',
    '{"__proto__":{"admin":true}}',
    '{"constructor":{"prototype":{"admin":true}}}',
  ),
);

const jsonType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'APPLICATION/JSON',
      'application/json;',
      'application/json ; foo=bar',
      'application/vnd.api+json',
      'text/json',
    ),
  },
);

const otherType = fc.oneof(
  fc.constantFrom(
    'text/plain',
    'text/plain; charset=utf-8',
    'application/x-www-form-urlencoded',
    'application/octet-stream',
    'application/xml',
    'multipart/form-data',
    'multipart/form-data; boundary=',
    'multipart/mixed; boundary=x',
    'image/png',
    '*/*',
    '',
    ';',
    'application/',
  ),
  fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
);

interface Part {
  name: string;
  filename: string | null;
  type: string | null;
  data: Buffer;
}

function multipartBody(world: FuzzWorld): fc.Arbitrary<{ contentType: string; payload: Buffer }> {
  const boundaryText = fc.oneof(
    { weight: 4, arbitrary: fc.constant('perchfuzzboundary') },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 75 }) },
  );
  const data = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...world.images) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...world.images), fc.nat())
        .map(([image, cut]) => image.subarray(0, cut % image.length)),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes)) },
    { weight: 1, arbitrary: text.map((value) => Buffer.from(value)) },
  );
  const imageType = fc.constantFrom('image/png', 'image/jpeg', 'image/gif', 'text/plain');
  // Mostly the file the route asks for, so that some uploads get as far as the image decoder.
  const file: fc.Arbitrary<Part> = fc.record({
    name: fc.oneof({ weight: 6, arbitrary: fc.constant('file') }, { weight: 1, arbitrary: text }),
    filename: fc.oneof(
      { weight: 6, arbitrary: fc.constant('image.png') },
      { weight: 1, arbitrary: text },
      { weight: 1, arbitrary: fc.constant(null) },
    ),
    type: fc.option(imageType, { freq: 6 }),
    data,
  });
  const purpose: fc.Arbitrary<Part> = fc.record({
    name: fc.constant('purpose'),
    filename: rarely(fc.constant('purpose.txt')),
    type: fc.constant(null),
    data: fc
      .oneof(fc.constantFrom('post', 'avatar', 'banner', ''), text)
      .map((value) => Buffer.from(value)),
  });
  const other: fc.Arbitrary<Part> = fc.record({
    name: fc.oneof(fc.constantFrom('file', 'purpose', 'other', ''), text),
    filename: fc.option(fc.oneof(fc.constant('image.png'), text)),
    type: fc.option(imageType),
    data,
  });
  const parts = fc
    .tuple(
      rarely(purpose, 4),
      rarely(file, 24),
      rarely(fc.array(other, { minLength: 1, maxLength: 6 }), 3),
    )
    .map(([first, second, rest]) =>
      [first, second, ...(rest ?? [])].filter((part): part is Part => part !== null),
    );
  return fc
    .record({
      boundary: boundaryText,
      declared: rarely(boundaryText),
      parts,
      ending: fc.constantFrom('closed', 'closed', 'closed', 'closed', 'open', 'cut'),
    })
    .map(({ boundary, declared, parts, ending }) => {
      const chunks = parts.map(({ name, filename, type, data: bytes }) =>
        Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"` +
              (filename === null ? '' : `; filename="${filename}"`) +
              (type === null ? '' : `\r\nContent-Type: ${type}`) +
              '\r\n\r\n',
          ),
          bytes,
          Buffer.from('\r\n'),
        ]),
      );
      if (ending === 'closed') chunks.push(Buffer.from(`--${boundary}--\r\n`));
      const payload = Buffer.concat(chunks);
      return {
        contentType: `multipart/form-data; boundary=${declared ?? boundary}`,
        payload: ending === 'cut' ? payload.subarray(0, payload.length >> 1) : payload,
      };
    });
}

/** Just past the body limit. */
const OVERSIZED = `{"postData":{"content":"${'a'.repeat(1024 * 1024)}"}}`;

interface Body {
  contentType?: string;
  payload?: string | Buffer;
  /** A Content-Length that does not match the payload. */
  misdeclared?: number;
}

function bodyArbitrary(route: FuzzRoute, world: FuzzWorld): fc.Arbitrary<Body> {
  const takesUpload = route.path.startsWith('/api/media');
  const json = (arbitrary: fc.Arbitrary<string>) =>
    fc.tuple(jsonType, arbitrary).map(([contentType, payload]): Body => ({ contentType, payload }));
  // Reads and deletes take no body; most of their requests come without one, as they should.
  const bodiless = ['GET', 'HEAD', 'DELETE'].includes(route.method);
  const body: fc.Arbitrary<Body> = fc.oneof(
    { weight: bodiless ? 30 : 3, arbitrary: fc.constant({}) },
    { weight: 4, arbitrary: json(fieldsArbitrary(world).map(stringify)) },
    { weight: 4, arbitrary: json(validBody(world).map(stringify)) },
    { weight: 6, arbitrary: json(nearlyValidBody(world).map(stringify)) },
    { weight: 2, arbitrary: json(fc.jsonValue().map(stringify)) },
    {
      weight: 1,
      arbitrary: json(
        fc
          .anything()
          .filter((value) => value !== undefined)
          .map(stringify),
      ),
    },
    { weight: 1, arbitrary: json(nested) },
    { weight: 2, arbitrary: json(brokenJson) },
    { weight: 1, arbitrary: fc.constant({ contentType: 'application/json', payload: '' }) },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 100 })
        .map((bytes): Body => ({ contentType: 'application/json', payload: Buffer.from(bytes) })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(otherType, fc.oneof(text, fieldsArbitrary(world).map(stringify)))
        .map(([contentType, payload]): Body => ({ contentType, payload })),
    },
    { weight: 1, arbitrary: text.map((payload): Body => ({ payload })) },
    { weight: takesUpload ? 40 : 1, arbitrary: multipartBody(world) },
    { weight: 1, arbitrary: fc.constant({ contentType: 'application/json', payload: OVERSIZED }) },
  );
  return fc.tuple(body, rarely(fc.integer({ min: -20, max: 20 }))).map(([chosen, offset]) => {
    if (offset === null || offset === 0 || chosen.payload === undefined) return chosen;
    const actual = Buffer.byteLength(chosen.payload);
    return { ...chosen, misdeclared: Math.max(0, actual + offset) };
  });
}

function authorization(world: FuzzWorld, anonymousOnly: boolean): fc.Arbitrary<string | null> {
  const tokens = nonEmpty(world.tokens);
  const bad = fc.oneof(
    fc.constantFrom(...nonEmpty(world.badTokens), 'x', 'Bearer', 'Bearer ', 'null', 'undefined'),
    fc.constantFrom(...tokens).map((token) => `Basic ${token}`),
    fc.constantFrom(...tokens).map((token) => token.split('.').slice(0, 2).join('.')),
    fc.string({ unit: 'grapheme-ascii', maxLength: 80 }),
  );
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(null) },
    { weight: anonymousOnly ? 0 : 10, arbitrary: fc.constantFrom(...tokens) },
    {
      weight: anonymousOnly ? 0 : 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom('Bearer ', 'bearer ', 'BEARER\t', ' Bearer  '),
          fc.constantFrom(...tokens),
        )
        .map(([scheme, token]) => `${scheme}${token} `),
    },
    { weight: 2, arbitrary: bad },
  );
}

export interface RequestOptions {
  /** No member's credentials: for routes that would otherwise stream without end. */
  anonymousOnly?: boolean;
}

export function requestArbitrary(
  route: FuzzRoute,
  world: FuzzWorld,
  options: RequestOptions = {},
): fc.Arbitrary<FuzzRequest> {
  const anonymousOnly = options.anonymousOnly ?? false;
  const cookie = fc.oneof(
    { weight: 8, arbitrary: fc.constant(null) },
    {
      weight: anonymousOnly ? 0 : 1,
      arbitrary: fc
        .constantFrom(...nonEmpty(world.tokens))
        .map((token) => `perch_session=${token}`),
    },
    {
      weight: 1,
      arbitrary: fc
        .oneof(fc.constantFrom(...nonEmpty(world.badTokens)), fc.string({ unit: 'grapheme-ascii' }))
        .map((value) => `perch_session=${value}`),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 60 }) },
  );
  const headerValue = rarely(
    fc.oneof(
      fc.constantFrom('return=minimal', 'return=representation', 'x, return=minimal', '0', '-1'),
      fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
    ),
    3,
  );
  return fc
    .record({
      path: pathArbitrary(route.path, world),
      query: fc.oneof(
        { weight: 2, arbitrary: fc.constant('') },
        { weight: 3, arbitrary: queryArbitrary(world) },
      ),
      authorization: authorization(world, anonymousOnly),
      cookie,
      prefer: headerValue,
      lastEventId: headerValue,
      body: bodyArbitrary(route, world),
    })
    .map(
      ({ path, query, authorization: auth, cookie: cookieHeader, prefer, lastEventId, body }) => {
        const headers: Record<string, string> = {};
        if (auth !== null) headers.authorization = auth;
        if (cookieHeader !== null) headers.cookie = cookieHeader;
        if (prefer !== null) headers.prefer = prefer;
        if (lastEventId !== null) headers['last-event-id'] = lastEventId;
        if (body.contentType !== undefined) headers['content-type'] = body.contentType;
        if (body.misdeclared !== undefined) headers['content-length'] = String(body.misdeclared);
        const request: FuzzRequest = { method: route.method, url: `${path}${query}`, headers };
        if (body.payload !== undefined) request.payload = body.payload;
        return request;
      },
    );
}

const errorBodySchema = z
  .object({
    errors: z
      .array(z.string().refine((message) => message.trim() !== '', 'an empty message'))
      .min(1),
  })
  .strict();

/** The server-rendered pages for readers without an account (modules/pages): HTML, not JSON. */
const PUBLIC_PAGES = new Set(['/@:username', '/@:username/:postId']);

/** A public page answers a page (or moves), 404 or 400 as HTML, whatever comes in. */
function checkPublicPage(
  request: FuzzRequest,
  response: LightMyRequestResponse,
  fail: (what: string) => never,
): void {
  if (![200, 301, 400, 404].includes(response.statusCode)) fail('unexpected status for a page');
  if (response.statusCode === 301) {
    if (!response.headers.location?.startsWith('/@')) fail('a page moved somewhere else');
    return;
  }
  if (response.headers['content-type'] !== 'text/html; charset=utf-8') fail('page is not HTML');
  if (request.method === 'HEAD') {
    if (response.body !== '') fail('HEAD answered a body');
  } else if (!response.body.startsWith('<!doctype html>')) {
    fail('page is not a document');
  }
}

/** The member and tag feeds and the sitemap (modules/feeds): XML, or a plain-text 404. */
const FEEDS = new Set([
  '/@:username.rss',
  '/@:username.atom',
  '/tags/:tag.rss',
  '/sitemap.xml',
  '/sitemaps/:page.xml',
]);

/** A feed answers its XML document, or 404 as text, whatever comes in. */
function checkFeed(
  request: FuzzRequest,
  response: LightMyRequestResponse,
  fail: (what: string) => never,
): void {
  const contentType = String(response.headers['content-type']);
  if (response.statusCode === 404) {
    if (!contentType.startsWith('text/plain')) fail('a missing feed is not plain text');
    return;
  }
  if (response.statusCode !== 200) fail('unexpected status for a feed');
  if (!/^application\/((rss|atom)\+)?xml; charset=utf-8$/.test(contentType))
    fail('feed is not XML');
  if (request.method === 'HEAD') {
    if (response.body !== '') fail('HEAD answered a body');
  } else if (!response.body.startsWith('<?xml')) {
    fail('feed is not an XML document');
  }
}

/**
 * The properties of every answer: never a server error, JSON throughout, and every refusal in the
 * one error shape. File answers (stored media, a member's export) are the 2xx that are not JSON;
 * they hold the file.
 */
export function checkAnswer(
  route: FuzzRoute,
  request: FuzzRequest,
  response: LightMyRequestResponse,
): void {
  const { statusCode } = response;
  const contentType = response.headers['content-type'];
  const fail = (what: string) => {
    throw new Error(
      `${what}\n${request.method} ${request.url}\n→ ${statusCode} ${String(contentType)} ` +
        response.body.slice(0, 500),
    );
  };
  if (statusCode >= 500) fail('server error');
  if (statusCode < 200) fail('unexpected status');
  const success = statusCode < 300;
  if (statusCode === 204) {
    if (response.rawPayload.length > 0) fail('204 answered a body');
    return;
  }
  // What the router refuses before the page's route runs (an address that does not decode, a
  // segment too long for any route) is answered as the API answers it, and checked as such below.
  if (PUBLIC_PAGES.has(route.path) && !String(contentType).startsWith('application/json')) {
    checkPublicPage(request, response, fail);
    return;
  }
  // robots.txt is text; what does not reach it (`/robots.txt/`) is answered as the API answers.
  if (route.path === '/robots.txt' && String(contentType).startsWith('text/plain')) {
    if (statusCode !== 200) fail('robots.txt');
    if (request.method === 'GET' && !response.body.includes('User-agent:')) fail('robots.txt');
    return;
  }
  if (FEEDS.has(route.path) && !String(contentType).startsWith('application/json')) {
    // An address cut short by a '#' or '?' in the name reaches a page instead: `/@#.rss` is `/@`.
    if (String(contentType).startsWith('text/html')) checkPublicPage(request, response, fail);
    else checkFeed(request, response, fail);
    return;
  }
  if (success && route.path.startsWith('/media/')) {
    if (request.method === 'GET' && response.rawPayload.length === 0) fail('file answer is empty');
    return;
  }
  if (success && route.path === '/api/users/me/export') {
    if (contentType !== 'application/zip') fail('export is not a zip');
    // Local file header signature: the archive begins with its first entry.
    if (!response.rawPayload.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'))) {
      fail('export does not begin like a zip');
    }
    return;
  }
  if (typeof contentType !== 'string' || !/^application\/json(;|$)/.test(contentType)) {
    fail('answer is not JSON');
  }
  if (request.method === 'HEAD') {
    if (response.body !== '') fail('HEAD answered a body');
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    fail('answer does not parse as JSON');
  }
  // Where the request arrives once its dot segments are resolved (`/nodeinfo/%2e%2e` is `/`).
  const arrived = new URL(request.url, 'http://perch.test').pathname;
  const shape = inMastodonApi(arrived) ? mastodon.errorSchema : errorBodySchema;
  if (!success && !shape.safeParse(body).success) fail('error not in the error shape');
}

/** Rejects when the promise has not settled within `ms`: a hang fails rather than stalls. */
export async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`no answer within ${ms} ms: ${what}`));
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
