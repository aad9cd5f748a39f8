import { ErrorMessages, type Entity, type Post } from '@perch/contract';
import { notFound } from '../../lib/errors';
import { postPath } from './html/parts';
import type { PostView } from './html/post';
import { pageContext } from './page-context';
import type { PagesDeps } from './pages.deps';
import type { PageAnswer } from './profile-page';

/** The quoted post's author and mentions: shown only where their pages are public. */
const quotedNames = ({ quote }: Post): { entities: Entity[]; memberIds: string[] }[] =>
  quote?.state === 'available'
    ? [{ entities: quote.post.entities, memberIds: [quote.post.author.id] }]
    : [];

/** Comments a post's page shows, oldest first. */
export const POST_PAGE_COMMENTS = 20;

/**
 * A post as people who are not signed in see it, with its first comments; comments by members
 * who keep their profile from them name no author. 404 for an unknown or deleted post, or one
 * whose author keeps their profile from people who are not signed in; the post's own address when
 * `username` is not its author's.
 */
export async function postPage(
  deps: PagesDeps,
  username: string,
  postId: string,
): Promise<PageAnswer<PostView>> {
  const post = await deps.posts.open(postId, null);
  const author = await deps.users.publicMember(post.author.username);
  if (author?.user._id !== post.userId) throw notFound(ErrorMessages.postNotFound);
  if (author.user.username !== username) return { movedTo: postPath(author.user.username, postId) };
  const { comments } = await deps.comments.list(post._id, null, { limit: POST_PAGE_COMMENTS });
  const context = await pageContext(
    deps,
    [
      { entities: post.entities },
      ...quotedNames(post),
      ...comments.map((comment) => ({ entities: comment.entities, memberIds: [comment.userId] })),
    ],
    [post.mediaURL, author.user.avatarURL],
  );
  return {
    view: {
      author,
      post,
      comments: comments.map((comment) => ({
        comment,
        authorShown: comment.userId !== null && context.linkable.has(comment.userId),
      })),
      context,
    },
  };
}
