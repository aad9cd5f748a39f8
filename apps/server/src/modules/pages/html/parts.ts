import type { Entity, Post, UserStub } from '@perch/contract';
import { contentHtml } from '../../../read-model/post/content-html';
import { Html, html } from './html';

/** What a page knows beside its posts: members it may link to, images' recorded sizes. */
export interface PageContext {
  /** Members whose public pages exist: mentions of others stay plain text. */
  linkable: ReadonlySet<string>;
  sizes: ReadonlyMap<string, { width: number; height: number }>;
}

/** The box an image without a recorded size is shown in (CSS fits the image into it). */
export const DEFAULT_IMAGE_SIZE = { width: 1200, height: 675 } as const;

type Named = Pick<UserStub, 'firstName' | 'lastName'>;

export const displayName = (member: Named): string =>
  `${member.firstName} ${member.lastName}`.trim();

export const profilePath = (username: string): string => `/@${encodeURIComponent(username)}`;
export const postPath = (username: string, postId: string): string =>
  `${profilePath(username)}/${encodeURIComponent(postId)}`;
export const tagPath = (tag: string): string => `/tags/${encodeURIComponent(tag)}`;

const dates = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A time as people read it (UTC), with its machine-readable value. */
export const timeOf = (iso: string): Html =>
  html`<time datetime="${iso}">${dates.format(new Date(iso))}</time>`;

/** How long a page's description may be before it is cut. */
export const DESCRIPTION_MAX = 160;

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Text on one line, cut to `max` characters as people see them (never inside an emoji) with an
 * ellipsis when it is longer.
 */
export function shortened(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  const characters = Array.from(graphemes.segment(oneLine), (part) => part.segment);
  if (characters.length <= max) return characters.join('');
  return `${characters
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}

export const counted = (count: number, one: string, many: string): string =>
  `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/** A post's or comment's text (read-model/post/content-html): tags and public members linked. */
export function richText(text: string, entities: readonly Entity[], context: PageContext): Html {
  return new Html(
    contentHtml(text, entities, {
      tag: tagPath,
      member: (username, userId) => (context.linkable.has(userId) ? profilePath(username) : null),
    }),
  );
}

/** A member's picture, or their initials in a circle when they have none. */
export function avatar(
  member: Named & Pick<UserStub, 'avatarURL'>,
  size: number,
  className: string,
): Html {
  const name = displayName(member);
  if (!member.avatarURL) {
    const initials = `${member.firstName.charAt(0)}${member.lastName.charAt(0)}`.toUpperCase();
    return html`<span class="${className} public-avatar-initials" aria-hidden="true"
      >${initials}</span
    >`;
  }
  return html`<img
    class="${className}"
    src="${member.avatarURL}"
    alt="${`Profile picture of ${name}`}"
    width="${size}"
    height="${size}"
  />`;
}

/**
 * A post's images in order, each with its description and size; `eager`: the first is fetched
 * first, not lazily.
 */
export function postImage(post: Post, context: PageContext, eager: boolean): Html | null {
  if (post.media.length === 0) return null;
  const images = post.media.map((image, index) => {
    const size =
      image.width !== null && image.height !== null
        ? { width: image.width, height: image.height }
        : (context.sizes.get(image.url) ?? DEFAULT_IMAGE_SIZE);
    const alt = image.alt ?? `Image posted by ${displayName(post.author)}`;
    const loading = eager && index === 0 ? html` fetchpriority="high"` : html` loading="lazy"`;
    return html`<img
      class="public-post-image"
      src="${image.url}"
      alt="${alt}"
      width="${size.width}"
      height="${size.height}"
      decoding="async"
      ${loading}
    />`;
  });
  return images.length === 1
    ? (images[0] ?? null)
    : html`<div class="public-post-album">${images}</div>`;
}

/** A post's likes and comments, the comments linking to its page. */
export function postStats(post: Post, link: boolean): Html {
  const comments = counted(post.commentCount, 'comment', 'comments');
  return html`<ul class="public-post-stats">
    <li>${counted(post.likes.likeCount, 'like', 'likes')}</li>
    <li>
      ${link ? html`<a href="${postPath(post.username, post._id)}">${comments}</a>` : comments}
    </li>
  </ul>`;
}

/**
 * A post's text and image. Behind a content warning both sit in a closed `<details>` that opens
 * without script; a sensitive image alone sits in one of its own.
 */
export function postBody(post: Post, context: PageContext, eager: boolean): Html {
  const text =
    post.content &&
    html`<div class="public-post-text">${richText(post.content, post.entities, context)}</div>`;
  const image = postImage(post, context, eager);
  if (post.contentWarning !== null) {
    return html`<details class="public-warning">
      <summary><span class="public-warning-text">${post.contentWarning}</span> Show more</summary>
      ${text} ${image}
    </details>`;
  }
  if (image !== null && post.sensitive) {
    return html`${text}
      <details class="public-sensitive">
        <summary>Sensitive content: show the image</summary>
        ${image}
      </details>`;
  }
  return html`${text} ${image}`;
}

/** One post in a member's list: its text, image, counts and a link to its own page. */
export function postCard(post: Post, context: PageContext, eager: boolean): Html {
  return html`<article class="public-post">
    <p class="public-post-meta">
      <a href="${postPath(post.username, post._id)}">${timeOf(post.createdAt)}</a>
    </p>
    ${postBody(post, context, eager)} ${postStats(post, true)}
  </article>`;
}

/** The bar above every public page: the site, and the way in for readers without an account. */
export const siteHeader = (): Html =>
  html`<header class="public-header">
    <a class="public-brand" href="/">Perch</a>
    <nav class="public-account-links" aria-label="Account">
      <a href="/login">Sign in</a>
      <a class="public-button" href="/signup">Create an account</a>
    </nav>
  </header>`;
