import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

type FormValue = string | FormValue[] | { [key: string]: FormValue };

/** Sets `a[b][]`-style keys, as Rails reads them, into nested objects and lists. */
function assign(target: Record<string, FormValue>, key: string, value: string): void {
  const path = key.replace(/\]/g, '').split('[');
  let node: Record<string, FormValue> = target;
  path.forEach((part, index) => {
    const last = index === path.length - 1;
    const nextIsList = path[index + 1] === '';
    if (part === '') return;
    if (last) {
      node[part] = value;
    } else if (nextIsList && index + 1 === path.length - 1) {
      const list = Array.isArray(node[part]) ? node[part] : [];
      list.push(value);
      node[part] = list;
    } else {
      const child = node[part];
      const object =
        child !== undefined && typeof child === 'object' && !Array.isArray(child) ? child : {};
      node[part] = object;
      node = object;
    }
  });
}

/** A form body (application/x-www-form-urlencoded) as the object Mastodon's parameters name. */
export function parseForm(body: string): Record<string, FormValue> {
  const result: Record<string, FormValue> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    if (key.endsWith('[]') && !key.slice(0, -2).includes('[')) {
      const name = key.slice(0, -2);
      const list = Array.isArray(result[name]) ? result[name] : [];
      list.push(value);
      result[name] = list;
    } else {
      assign(result, key, value);
    }
  }
  return result;
}

/** Mastodon's methods take form bodies as well as JSON: this scope reads both. */
export function acceptForms(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 * 1024 },
    (_request, body, done) => {
      done(null, parseForm(body as string));
    },
  );
}

/** A boolean as JSON or a form sends it. */
export const formBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on', ''])])
  .transform((value) => value === true || value === 'true' || value === '1' || value === 'on');

/** A list as JSON or a form sends it (a form with one entry may send it without brackets). */
export const formList = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(item));
