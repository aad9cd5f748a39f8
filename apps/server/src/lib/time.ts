/**
 * Times formatted once are kept: member lists format the same members' two times on every read
 * (6–7% of a page of suggestions or member search went to formatting). Bounded; started over when
 * full.
 */
const formatted = new Map<number, string>();
const FORMATTED_MAX = 20_000;

export function toIso(ms: number): string {
  let iso = formatted.get(ms);
  if (iso === undefined) {
    iso = new Date(ms).toISOString();
    if (formatted.size >= FORMATTED_MAX) formatted.clear();
    formatted.set(ms, iso);
  }
  return iso;
}
