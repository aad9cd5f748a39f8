import type { Post } from '@perch/contract';
import { html, type Html } from './html';
import { displayName, postPath, profilePath, richText, timeOf, type PageContext } from './parts';

/**
 * The post a post quotes, as a blockquote linking to it; "This post is unavailable." when it is
 * deleted or its author keeps their pages from people who are not signed in. Its content warning
 * keeps its text closed, as on its own page.
 */
export function quoteBlock(post: Post, context: PageContext): Html | null {
  const { quote } = post;
  if (quote === null) return null;
  if (quote.state === 'unavailable' || !context.linkable.has(quote.post.author.id)) {
    return html`<blockquote class="public-quote"><p>This post is unavailable.</p></blockquote>`;
  }
  const quoted = quote.post;
  const path = postPath(quoted.author.username, quoted.id);
  const text =
    quoted.content &&
    html`<div class="public-post-text">${richText(quoted.content, quoted.entities, context)}</div>`;
  return html`<blockquote class="public-quote" cite="${path}">
    <p class="public-post-meta">
      <a href="${profilePath(quoted.author.username)}">${displayName(quoted.author)}</a>
      <span class="public-username">@${quoted.author.username}</span> ·
      <a href="${path}">${timeOf(quoted.createdAt)}</a>
    </p>
    ${
      quoted.contentWarning === null
        ? text
        : html`<details class="public-warning">
            <summary>
              <span class="public-warning-text">${quoted.contentWarning}</span> Show more
            </summary>
            ${text}
          </details>`
    }
  </blockquote>`;
}
