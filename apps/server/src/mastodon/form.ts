import { z } from 'zod';

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
type FormObject = Record<string, FormValue>;

/** Names that would reach an object's prototype: never a parameter. */
const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);

const objectOf = (): FormObject => Object.create(null) as FormObject;

/** Sets `a[b][]`-style keys, as Rails reads them, into nested objects and lists. */
function assign(target: FormObject, key: string, value: string): void {
  const path = key.replace(/\]/g, '').split('[');
  if (path.some((part) => UNSAFE.has(part))) return;
  let node = target;
  path.forEach((part, index) => {
    if (part === '') return;
    const last = index === path.length - 1;
    if (last) {
      const known = node[part];
      // A plain name sent twice gives a list, as `name[]` does.
      node[part] = typeof known === 'string' && index === 0 ? [known, value] : value;
      if (Array.isArray(known) && index === 0) node[part] = [...known, value];
      return;
    }
    if (path[index + 1] === '' && index + 1 === path.length - 1) {
      const list = node[part];
      node[part] = Array.isArray(list) ? [...list, value] : [value];
      return;
    }
    const child = node[part];
    const object = child !== undefined && typeof child === 'object' && !Array.isArray(child);
    const next = object ? child : objectOf();
    node[part] = next;
    node = next;
  });
}

/**
 * A form-encoded body as the object Mastodon's parameters name: `name[]` and a repeated name give
 * lists, `poll[options][]` nests. Mastodon's clients send forms as often as JSON.
 */
export function parseForm(body: string): FormObject {
  const result = objectOf();
  for (const [key, value] of new URLSearchParams(body)) assign(result, key, value);
  return result;
}

/** A boolean as JSON or a form sends it. */
export const formBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on', ''])])
  .transform((value) => value === true || value === 'true' || value === '1' || value === 'on');

/** A list as JSON or a form sends it (a form with one entry may send it without brackets). */
export const formList = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(item));
