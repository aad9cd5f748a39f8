// Plain values only (no zod): clients import them without loading the schemas.

/**
 * Links in post text, as the server finds the one a post's preview card shows: an `http://` or
 * `https://` URL up to the next space, `<`, `>` or `"`, without the punctuation that usually ends
 * the sentence around it (`.`, `,`, `:`, `;`, `!`, `?`, quotes) nor a closing bracket it did not
 * open. Links longer than LINK_URL_MAX are not previewed.
 */
export const LINK_URL_MAX = 2048;

const HTTP_URL_PATTERN = /\bhttps?:\/\/[^\s<>"]+/giu;
const TRAILING_PUNCTUATION = /[.,:;!?'"’”…]+$/u;
const BRACKETS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

/** Drops trailing punctuation, and closing brackets that close nothing inside the link. */
function trimLinkEnd(raw: string): string {
  let link = raw;
  for (;;) {
    const trimmed = link.replace(TRAILING_PUNCTUATION, '');
    const last = trimmed.slice(-1);
    const opener = BRACKETS[last];
    if (opener !== undefined) {
      const opened = trimmed.split(opener).length - 1;
      const closed = trimmed.split(last).length - 1;
      if (closed > opened) {
        link = trimmed.slice(0, -1);
        continue;
      }
    }
    return trimmed;
  }
}

/** Every http(s) link of the text, in text order, as written (see above). */
export function findLinks(text: string): string[] {
  const links: string[] = [];
  for (const match of text.matchAll(HTTP_URL_PATTERN)) {
    const link = trimLinkEnd(match[0]);
    if (/^https?:\/\/[^/?#]/i.test(link)) links.push(link);
  }
  return links;
}

/**
 * The link a post's preview card shows: its text's first http(s) link that parses as a URL with a
 * host and is at most LINK_URL_MAX long, normalised as a URL (`HTTPS://Example.com` is
 * `https://example.com/`); null when there is none.
 */
export function firstLinkOf(text: string): string | null {
  for (const link of findLinks(text)) {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      continue;
    }
    if (url.hostname === '' || url.username !== '' || url.password !== '') continue;
    if (url.href.length <= LINK_URL_MAX) return url.href;
  }
  return null;
}
