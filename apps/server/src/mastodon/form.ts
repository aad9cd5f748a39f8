/**
 * A form-encoded body as Mastodon reads it: a repeated name, or one ending in `[]`
 * (`redirect_uris[]=…`), gives an array.
 */
export function parseForm(body: string): Record<string, string | string[]> {
  // No prototype: a field named __proto__ is a field like any other.
  const form = Object.create(null) as Record<string, string | string[]>;
  for (const [rawName, value] of new URLSearchParams(body)) {
    const list = rawName.endsWith('[]');
    const name = list ? rawName.slice(0, -2) : rawName;
    const known = form[name];
    if (known === undefined) form[name] = list ? [value] : value;
    else form[name] = [known, value].flat();
  }
  return form;
}
