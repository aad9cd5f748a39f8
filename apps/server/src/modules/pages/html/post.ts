import type { Comment, Post } from '@perch/contract';
import type { PublicMember } from '../../users/users.service';
import { headTags, type PreviewImage } from './head';
import { html, type Html } from './html';
import { pollSection } from './poll';
import { quoteBlock } from './quote';
import {
  avatar,
  counted,
  DESCRIPTION_MAX,
  displayName,
  postBody,
  postPath,
  postStats,
  profilePath,
  richText,
  shortened,
  siteHeader,
  timeOf,
  type PageContext,
} from './parts';

export interface PostView {
  author: PublicMember;
  post: Post;
  /** The first comments, oldest first; `authorShown` false: the author is shown as Unknown. */
  comments: readonly { comment: Comment; authorShown: boolean }[];
  context: PageContext;
}

const TITLE_QUOTE_MAX = 60;

function previewImage(view: PostView, origin: string): PreviewImage | null {
  const { post, author, context } = view;
  const name = displayName(author.user);
  // A link shared elsewhere shows no image its author asked to hide.
  if (post.mediaURL && !post.sensitive) {
    return {
      url: `${origin}${post.mediaURL}`,
      alt: post.mediaAlt ?? `Image posted by ${name}`,
      size: context.sizes.get(post.mediaURL) ?? null,
    };
  }
  if (!author.user.avatarURL) return null;
  return {
    url: `${origin}${author.user.avatarURL}`,
    alt: `Profile picture of ${name}`,
    size: context.sizes.get(author.user.avatarURL) ?? null,
  };
}

function postHead(view: PostView, origin: string): Html {
  const { post, author } = view;
  const name = displayName(author.user);
  const text = post.content.trim();
  const warning = post.contentWarning;
  const quoted = warning ?? text;
  return headTags({
    title: quoted
      ? `${name} on Perch: “${shortened(quoted, TITLE_QUOTE_MAX)}”`
      : `${name} on Perch: an image`,
    // Behind a content warning, the warning is all a preview elsewhere shows.
    description: shortened(
      warning !== null
        ? `Content warning: ${warning}`
        : text !== ''
          ? text
          : (post.mediaAlt ?? `An image posted by ${name} (@${author.user.username}).`),
      DESCRIPTION_MAX,
    ),
    canonical: `${origin}${postPath(author.user.username, post._id)}`,
    type: 'article',
    image: previewImage(view, origin),
    largeImage: post.mediaURL !== null && !post.sensitive,
    noindex: author.noindex,
    properties: [
      ['article:published_time', post.createdAt],
      ['article:modified_time', post.updatedAt],
      ['article:author', `${origin}${profilePath(author.user.username)}`],
    ],
    feeds: null,
  });
}

function commentItem({ comment, authorShown }: PostView['comments'][number], context: PageContext) {
  const shown = authorShown && comment.username !== null;
  const name = shown ? `${comment.firstName ?? ''} ${comment.lastName ?? ''}`.trim() : 'Unknown';
  const byline =
    shown && comment.username !== null
      ? html`<a href="${profilePath(comment.username)}">${name}</a>
          <span class="public-username">@${comment.username}</span>`
      : html`<span>${name}</span>`;
  return html`<li class="public-comment">
    <p class="public-comment-meta">${byline} · ${timeOf(comment.createdAt)}</p>
    <div class="public-comment-text">${richText(comment.text, comment.entities, context)}</div>
  </li>`;
}

function commentsSection(view: PostView): Html {
  const { post, comments, context } = view;
  const more = post.commentCount - comments.length;
  return html`<section class="public-comments" aria-labelledby="public-comments-heading">
    <h2 id="public-comments-heading">${counted(post.commentCount, 'comment', 'comments')}</h2>
    ${
      comments.length === 0
        ? html`<p class="public-empty">No comments yet.</p>`
        : html`<ol class="public-comment-list">
            ${comments.map((item) => commentItem(item, context))}
          </ol>`
    }
    ${more > 0 && html`<p class="public-more"><a href="/login">Sign in to read ${counted(more, 'more comment', 'more comments')}</a></p>`}
  </section>`;
}

function postContent(view: PostView): Html {
  const { post, author, context } = view;
  const { user } = author;
  return html`${siteHeader()}
    <main class="public-main">
      <article class="public-post public-post-single">
        <div class="public-post-author">
          ${avatar(user, 48, 'public-post-avatar')}
          <div>
            <h1><a href="${profilePath(user.username)}">${displayName(user)}</a></h1>
            <p class="public-username">@${user.username}</p>
          </div>
        </div>
        ${postBody(post, context, true)} ${pollSection(post.poll)} ${quoteBlock(post, context)}
        <p class="public-post-meta">${timeOf(post.createdAt)}</p>
        ${postStats(post, false)}
      </article>
      ${commentsSection(view)}
    </main>`;
}

/** One post on its own page: the author, the post, its first comments. */
export function postPage(view: PostView, origin: string): { head: Html; content: Html } {
  return { head: postHead(view, origin), content: postContent(view) };
}
