import escapeHtml from 'escape-html';

/** Markup that is already safe: built by `html`, never from a reader's text. */
export class Html {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

/** What `html` accepts in a hole: markup as it is, text escaped, nothing for null and false. */
export type HtmlPart = Html | string | number | null | undefined | false | readonly HtmlPart[];

function render(part: HtmlPart): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.markup;
  if (Array.isArray(part)) return (part as readonly HtmlPart[]).map(render).join('');
  return escapeHtml(String(part));
}

/**
 * A tagged template for pages: every value in a hole is escaped (escape-html: & < > " '), so text
 * is safe in element content and in double-quoted attributes, unless it is Html already.
 */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlPart[]): Html {
  let markup = strings[0] ?? '';
  values.forEach((value, index) => {
    markup += render(value) + (strings[index + 1] ?? '');
  });
  return new Html(markup);
}

/** Several parts as one, in order. */
export const join = (parts: readonly HtmlPart[]): Html => new Html(render(parts));
