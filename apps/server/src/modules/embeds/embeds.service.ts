import {
  FOLLOWING_MAX,
  PROFILE_RELATIONS_MAX,
  type Comment,
  type Post,
  type User,
  type UserStub,
} from '@perch/contract';
import type { Reader } from '../../lib/prefer';
import { extended } from '../../lib/serialized';
import type { BookmarksService } from '../bookmarks/bookmarks.service';
import type { CommentsService } from '../comments/comments.service';
import type { UsersService } from '../users/users.service';

/** Where answers carry posts: a page, a bookmarks page, a mutation's post and first page. */
interface PostBearing {
  post?: Post;
  posts?: Post[];
  bookmarks?: Post[];
}

export interface EmbedsServiceDeps {
  comments: Pick<CommentsService, 'firstCommentsOf'>;
  users: Pick<UsersService, 'stubById' | 'followerStubs' | 'followingStubs' | 'followersAmong'>;
  bookmarks: Pick<BookmarksService, 'recentIds'>;
}

/**
 * The original API's arrays beside Perch's counts and pages: a post's `comments`, a member's
 * `followers`, `following` and `bookmarks` (bounds in the contract's userSchema and postSchema).
 * Every answer gets them unless the reader asked for `Prefer: return=minimal`, as Perch's own web
 * app does: it pages through those lists on demand.
 */
export function createEmbedsService({ comments, users, bookmarks }: EmbedsServiceDeps) {
  async function withComments(posts: Post[], reader: Reader): Promise<(post: Post) => Post> {
    const commented = new Map(
      posts.filter((p) => p.commentCount > 0).map((p) => [p._id, p.commentCount]),
    );
    const firstComments =
      commented.size === 0
        ? new Map<string, Comment[]>()
        : await comments.firstCommentsOf(
            [...commented].map(([id, commentCount]) => ({ id, commentCount })),
            reader.viewer,
          );
    // The post's JSON, kept with its card, stays in use with the comments written after it.
    return (post) => extended(post, 'comments', firstComments.get(post._id) ?? []);
  }

  /** The member's own record: everyone they follow, their first followers, their bookmarks. */
  async function ownRecord(user: User): Promise<User> {
    const [following, followers, bookmarkIds] = await Promise.all([
      users.followingStubs(user._id, FOLLOWING_MAX),
      users.followerStubs(user._id, PROFILE_RELATIONS_MAX),
      bookmarks.recentIds(user._id),
    ]);
    return extended(
      extended(extended(user, 'followers', followers), 'following', following),
      'bookmarks',
      bookmarkIds,
    );
  }

  return {
    /** Embeds each post's first comments in every post of the answer (one query for all). */
    async posts<Answer extends object>(answer: Answer, reader: Reader): Promise<Answer> {
      if (reader.lean) return answer;
      const { post, posts, bookmarks: saved } = answer as PostBearing;
      const embed = await withComments([post ?? [], posts ?? [], saved ?? []].flat(), reader);
      return {
        ...answer,
        ...(post && { post: embed(post) }),
        ...(posts && { posts: posts.map(embed) }),
        ...(saved && { bookmarks: saved.map(embed) }),
      };
    },

    /** The reader's own record (sign-in, /auth/me, profile edit, follow's `user`). */
    async own(user: User, reader: Reader): Promise<User> {
      return reader.lean ? user : ownRecord(user);
    },

    /**
     * One member's profile: the first followers and followees, with the reader always first among
     * the followers when they follow the member, so "do I follow them" holds past the bound.
     */
    async profile(user: User, reader: Reader): Promise<User> {
      if (reader.lean) return user;
      if (reader.viewer?.id === user._id) return ownRecord(user);
      const viewerFollows = reader.viewer !== null && user.followedByViewer === true;
      const [following, others, viewerStub] = await Promise.all([
        users.followingStubs(user._id, PROFILE_RELATIONS_MAX),
        users.followerStubs(
          user._id,
          PROFILE_RELATIONS_MAX - (viewerFollows ? 1 : 0),
          viewerFollows ? (reader.viewer?.id ?? null) : null,
        ),
        viewerFollows && reader.viewer ? users.stubById(reader.viewer.id) : undefined,
      ]);
      const followers = viewerStub ? [viewerStub, ...others] : others;
      // Stubs are kept with their JSON (see member-stubs): joined, not written again.
      return extended(extended(user, 'followers', followers), 'following', following);
    },

    /** Members in a list: each holds at most the reader, as a follower and as a followee. */
    async list(list: User[], reader: Reader): Promise<User[]> {
      if (reader.lean) return list;
      const viewer = reader.viewer;
      let viewerStub: UserStub | undefined;
      let followingViewer = new Set<string>();
      if (viewer && list.length > 0) {
        [viewerStub, followingViewer] = await Promise.all([
          users.stubById(viewer.id),
          users.followersAmong(
            viewer.id,
            list.map((user) => user._id),
          ),
        ]);
      }
      const me = viewerStub ? [viewerStub] : [];
      return list.map((user) => ({
        ...user,
        followers: user.followedByViewer ? me : [],
        following: followingViewer.has(user._id) ? me : [],
      }));
    },
  };
}

export type EmbedsService = ReturnType<typeof createEmbedsService>;
