import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * PostgreSQL plans every unnamed statement anew: for the short statements of a request (a like
 * runs about ten) parsing and planning cost the server more than running them. A named statement
 * is parsed once per connection and its plan reused (PostgreSQL's plan cache decides between a
 * plan for the values and one for any values). Each statement text with parameters gets a name;
 * texts are fixed per query shape (lists go as one array parameter, see idList), so the names
 * stay few. Past `max` texts a process names no more: those run as before.
 */
export function preparingClient(max: number): typeof pg.Client {
  const names = new Map<string, string>();

  function nameOf(text: string): string | undefined {
    const known = names.get(text);
    if (known !== undefined || names.size >= max) return known;
    const name = `q${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
    names.set(text, name);
    return name;
  }

  return class PreparingClient extends pg.Client {
    // The overloads pg declares are what Kysely calls; only the (text, values) form is named.
    override query(...args: unknown[]): never {
      const [text, values, callback] = args;
      if (typeof text === 'string' && Array.isArray(values) && values.length > 0 && !callback) {
        const name = nameOf(text);
        if (name !== undefined) return super.query({ name, text, values }) as never;
      }
      return (super.query as (...all: unknown[]) => unknown)(...args) as never;
    }
  };
}
