import { html, type Html } from './html';
import { siteHeader } from './parts';

/** What a reader is told when there is nothing to show them, by status. */
const MESSAGES = {
  400: {
    title: 'This address is not valid',
    text: 'The link may have been cut short or changed. Check it and try again.',
  },
  404: {
    title: 'Nothing to see here',
    text: 'This profile or post does not exist, was deleted, or is only shown to people who are signed in.',
  },
} as const;

export type PageProblem = keyof typeof MESSAGES;

/** The page for an address with nothing to show: why, and the ways on. */
export function problemPage(status: PageProblem): { head: Html; content: Html } {
  const { title, text } = MESSAGES[status];
  return {
    head: html`<title>${title} · Perch</title>
      <meta name="description" content="${text}" />
      <meta name="robots" content="noindex" />`,
    content: html`${siteHeader()}
      <main class="public-main public-problem">
        <h1>${title}</h1>
        <p>${text}</p>
        <p><a href="/login">Sign in to Perch</a></p>
      </main>`,
  };
}
