import {
  ErrorMessages,
  type FollowResponse,
  type PageQuery,
  type User,
  type UserEditBody,
  type UserPage,
  type UserSearchQuery,
} from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { decodeCursor, pageOf } from '../../lib/cursor';
import { badRequest, notFound } from '../../lib/errors';
import type { Viewer } from '../auth/auth.service';
import { assertUsableMediaUrl } from '../media/media.service';
import { sqlBoolean } from '../../lib/sql-boolean';
import { toUser } from './users.mapper';
import * as repo from './users.repository';

type Db = Kysely<Database>;
type ProfileChanges = UserEditBody['userData'];

function listed(row: repo.ListedUserRow, viewer: Viewer | null): User {
  return toUser(row, {
    includeEmail: viewer?.id === row.id,
    followedByViewer: viewer ? sqlBoolean(row.followed) : undefined,
  });
}

export interface UsersServiceDeps {
  /** Frees an image no post or profile uses any more; called after the change committed. */
  releaseMedia?: (url: string | null) => Promise<unknown>;
}

export function createUsersService(db: Db, { releaseMedia }: UsersServiceDeps = {}) {
  async function listedById(id: string, viewer: Viewer, trx: Db = db): Promise<User> {
    const row = await repo.findListedUserById(trx, id, viewer.id);
    if (!row) throw notFound(ErrorMessages.userNotFound);
    return listed(row, viewer);
  }

  /** Follow and unfollow share everything but the direction of the change. */
  async function changeFollow(
    viewer: Viewer,
    userId: string,
    follow: boolean,
  ): Promise<FollowResponse> {
    if (userId === viewer.id) throw notFound(ErrorMessages.followSelf);
    return db.transaction().execute(async (trx) => {
      const target = await repo.findUserById(trx, userId);
      if (!target) throw notFound(ErrorMessages.userNotFound);
      const changed = follow
        ? await repo.insertFollow(trx, viewer.id, userId, Date.now())
        : await repo.deleteFollow(trx, viewer.id, userId);
      if (!changed) {
        throw badRequest(follow ? ErrorMessages.alreadyFollowing : ErrorMessages.notFollowing);
      }
      const delta = follow ? 1 : -1;
      // Rows are always updated in id order so two members following each other cannot deadlock.
      const updates = [
        { id: viewer.id, column: 'following_count' as const },
        { id: userId, column: 'followers_count' as const },
      ].sort((a, b) => (a.id < b.id ? -1 : 1));
      for (const { id, column } of updates) await repo.adjustFollowCount(trx, id, column, delta);
      return {
        user: await listedById(viewer.id, viewer, trx),
        followUser: await listedById(userId, viewer, trx),
      };
    });
  }

  return {
    async search(viewer: Viewer | null, query: UserSearchQuery): Promise<UserPage> {
      const after = query.cursor ? decodeCursor(query.cursor, ['string'] as const)[0] : null;
      const rows = await repo.searchUsers(db, {
        viewerId: viewer?.id ?? null,
        text: query.q?.trim() ?? '',
        afterUsername: after,
        limit: query.limit,
      });
      const { items, nextCursor } = pageOf(rows, query.limit, (row) => [
        row.username.toLowerCase(),
      ]);
      return { users: items.map((row) => listed(row, viewer)), nextCursor };
    },

    async suggestions(viewer: Viewer, query: PageQuery): Promise<UserPage> {
      const after = query.cursor ? decodeCursor(query.cursor, ['number', 'string'] as const) : null;
      const rows = await repo.suggestUsers(db, { viewerId: viewer.id, after, limit: query.limit });
      const { items, nextCursor } = pageOf(rows, query.limit, (row) => [
        row.followers_count,
        row.id,
      ]);
      return { users: items.map((row) => toUser(row, { followedByViewer: false })), nextCursor };
    },

    async profile(username: string, viewer: Viewer | null): Promise<{ user: User }> {
      const row = await repo.findListedUserByUsername(db, username, viewer?.id ?? null);
      if (!row) throw notFound(ErrorMessages.userNotFound);
      return { user: listed(row, viewer) };
    },

    async edit(viewer: Viewer, changes: ProfileChanges): Promise<{ user: User }> {
      const replacedAvatar = await db.transaction().execute(async (trx) => {
        const current = await repo.findUserById(trx, viewer.id);
        if (!current) throw notFound(ErrorMessages.notRegistered);
        if (changes.username !== undefined && changes.username !== current.username) {
          throw notFound(ErrorMessages.usernameImmutable);
        }
        const avatarUrl = changes.avatarURL === undefined ? current.avatar_url : changes.avatarURL;
        const avatarChanged = avatarUrl !== current.avatar_url;
        if (avatarChanged) await assertUsableMediaUrl(trx, viewer.id, avatarUrl);
        await repo.updateProfile(trx, viewer.id, {
          first_name: changes.firstName,
          last_name: changes.lastName,
          bio: changes.bio ?? current.bio,
          avatar_url: avatarUrl,
          updated_at: Date.now(),
        });
        return avatarChanged ? current.avatar_url : null;
      });
      await releaseMedia?.(replacedAvatar);
      return { user: await listedById(viewer.id, viewer) };
    },

    follow: (viewer: Viewer, userId: string) => changeFollow(viewer, userId, true),
    unfollow: (viewer: Viewer, userId: string) => changeFollow(viewer, userId, false),
  };
}
