import type { Post } from '@perch/contract';
import type { PublicMember } from '../../users/users.service';
import { headTags } from './head';
import { html, type Html } from './html';
import {
  avatar,
  counted,
  displayName,
  postCard,
  profilePath,
  DESCRIPTION_MAX,
  shortened,
  siteHeader,
  type PageContext,
} from './parts';

export interface ProfileView {
  member: PublicMember;
  posts: readonly Post[];
  /** The cursor this page was asked with (null for the first), and the next page's. */
  cursor: string | null;
  nextCursor: string | null;
  context: PageContext;
}

function profileHead(view: ProfileView, origin: string): Html {
  const { user, noindex } = view.member;
  const name = displayName(user);
  const path = profilePath(user.username);
  const page = view.cursor === null ? '' : `?cursor=${encodeURIComponent(view.cursor)}`;
  return headTags({
    title: `${name} (@${user.username}) · Perch`,
    description: shortened(
      user.bio.trim() || `Posts by ${name} (@${user.username}) on Perch.`,
      DESCRIPTION_MAX,
    ),
    canonical: `${origin}${path}${page}`,
    type: 'profile',
    image: user.avatarURL
      ? {
          url: `${origin}${user.avatarURL}`,
          alt: `Profile picture of ${name}`,
          size: view.context.sizes.get(user.avatarURL) ?? null,
        }
      : null,
    largeImage: false,
    noindex,
    properties: [
      ['profile:username', user.username],
      ['profile:first_name', user.firstName],
      ['profile:last_name', user.lastName],
    ],
    feeds: {
      title: `${name} (@${user.username})`,
      rss: `${origin}${path}.rss`,
      atom: `${origin}${path}.atom`,
    },
  });
}

function profileContent(view: ProfileView): Html {
  const { user } = view.member;
  // The first image is likely the largest thing on screen: fetched at once, the others lazily.
  const firstImage = view.posts.findIndex((post) => post.mediaURL !== null);
  const older = view.nextCursor
    ? html`<nav class="public-pager" aria-label="More posts">
        <a
          rel="next"
          href="${`${profilePath(user.username)}?cursor=${encodeURIComponent(view.nextCursor)}`}"
          >Older posts</a
        >
      </nav>`
    : null;
  const posts =
    view.posts.length === 0
      ? html`<p class="public-empty">
          ${view.cursor === null ? 'No posts yet.' : 'No older posts.'}
        </p>`
      : view.posts.map((post, index) => postCard(post, view.context, index === firstImage));
  return html`${siteHeader()}
    <main class="public-main">
      <section class="public-profile" aria-labelledby="public-profile-name">
        ${avatar(user, 96, 'public-profile-avatar')}
        <div class="public-profile-names">
          <h1 id="public-profile-name">${displayName(user)}</h1>
          <p class="public-username">@${user.username}</p>
        </div>
        ${user.bio.trim() && html`<p class="public-bio">${user.bio}</p>`}
        <ul class="public-counts">
          <li>${counted(user.postsCount, 'post', 'posts')}</li>
          <li>${counted(user.followersCount, 'follower', 'followers')}</li>
          <li>${counted(user.followingCount, 'following', 'following')}</li>
        </ul>
      </section>
      <section class="public-posts" aria-labelledby="public-posts-heading">
        <h2 id="public-posts-heading">Posts</h2>
        ${posts} ${older}
      </section>
    </main>`;
}

/** A member's public profile: who they are, then their posts, newest first. */
export function profilePage(view: ProfileView, origin: string): { head: Html; content: Html } {
  return { head: profileHead(view, origin), content: profileContent(view) };
}
