import type { PageQuery, User, UserEditBody, UserSearchQuery, UserStub } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import type { NewUser, UserRow } from '../../platform/db/schema';
import type { EventRecorder } from '../../platform/events/transactions';
import { editProfile } from './edit-profile';
import { endFollowsBetween } from './end-follows';
import { follow, lockPair, unfollow } from './follow';
import { followList } from './follow-lists';
import { createFollowsNearlyEveryone } from './follows-nearly-everyone';
import { profile } from './profile';
import { indexableMembers, publicAmong, publicMember, type PublicMember } from './public';
import { searchMembers } from './search';
import { suggestions } from './suggestions';
import type { Db, UsersDeps, UsersServiceDeps } from './users.deps';
import { toUser } from './users.mapper';
import * as repo from './users.repository';

export type { UsersServiceDeps } from './users.deps';
export type { PublicMember } from './public';

/**
 * Members and follows. Each use case is a file of its own (follow.ts, search.ts, …); this
 * assembles them, with what other modules read of members.
 */
export function createUsersService(serviceDeps: UsersServiceDeps) {
  const deps: UsersDeps = { ...serviceDeps, reads: serviceDeps.reads ?? serviceDeps.db };
  const { db, reads, members } = deps;

  return {
    followsNearlyEveryone: createFollowsNearlyEveryone(reads),

    /** The member's id, regardless of the name's case; null when there is no such member. */
    idOf: (username: string): Promise<string | null> => members.idOf(username),

    /** The members named (lower-cased usernames), read in the caller's transaction. */
    namedMembers: async (trx: Db, lowerNames: readonly string[]) =>
      lowerNames.length === 0 ? [] : repo.findMembersByLowerNames(trx, lowerNames),

    /** The member's own record, with what only they may read (sign-in, /auth/me). */
    recordById: (id: string): Promise<UserRow | undefined> => repo.findUserById(db, id),
    recordByUsername: (username: string): Promise<UserRow | undefined> =>
      repo.findUserByUsername(db, username),
    register: (user: NewUser): Promise<UserRow> => repo.insertUser(db, user),
    /** In the caller's transaction; false when the hash is no longer `expected`. */
    replacePasswordHash: (trx: Db, id: string, expected: string, hash: string) =>
      repo.replacePasswordHash(trx, id, expected, hash),

    async stubById(id: string): Promise<UserStub | undefined> {
      const [summary] = await members.summaries([id]);
      return summary;
    },
    /** Up to `limit` of the members who follow `userId`, leaving out `exceptId`. */
    followerStubs: async (userId: string, limit: number, exceptId: string | null = null) =>
      members.summaries(await repo.listFollowerIds(reads, { followeeId: userId, exceptId, limit })),
    /** Up to `limit` of the members `userId` follows. */
    followingStubs: async (userId: string, limit: number) =>
      members.summaries(await repo.listFollowingIds(reads, { followerId: userId, limit })),

    /** Of `candidateIds`, those who follow `userId`. */
    followersAmong: async (userId: string, candidateIds: readonly string[]) =>
      new Set(await repo.followersAmong(db, userId, candidateIds)),
    /** Of `userIds`, those whom `followerId` follows. */
    followeesAmong: async (followerId: string, userIds: readonly string[]) =>
      new Set(await repo.followeesAmong(db, followerId, userIds)),

    /**
     * In a block's transaction: holds both members' rows (see lockPair); false when either is
     * gone.
     */
    lockPair,
    /**
     * Holds the member's row until the transaction ends (second in the lock order, after the
     * post's); false when they are gone.
     */
    lockMember: (trx: Db, id: string): Promise<boolean> => repo.lockUser(trx, id),
    /** In a block's transaction (the pair locked): ends the follows between the two. */
    endFollowsBetween: (trx: Db, events: EventRecorder, a: string, b: string) =>
      endFollowsBetween(deps, trx, events, a, b),

    /** The members among `ids` that exist, in that order, as `viewerId` sees them. */
    byIds: (ids: readonly string[], viewerId: string | null): Promise<User[]> =>
      members.packMany(ids, viewerId),
    /** Members as lists show them to the viewer (the blocked and muted lists), in this order. */
    listedFor: (rows: readonly UserRow[], viewer: Viewer | null): User[] =>
      rows.map((row) => toUser(row, { includeEmail: row.id === viewer?.id })),
    /** Whom the viewer blocks, is blocked by and mutes (as every read that filters them sees it). */
    relationsOf: (viewerId: string) => deps.hidden.relationsOf(viewerId),

    search: (viewer: Viewer | null, query: UserSearchQuery) => searchMembers(deps, viewer, query),
    suggestions: (viewer: Viewer, query: PageQuery) => suggestions(deps, viewer, query),
    profile: (username: string, viewer: Viewer | null) => profile(deps, username, viewer),
    /** The member as people who are not signed in may see them; null when unknown, deleted or hidden from them. */
    publicMember: (username: string): Promise<PublicMember | null> => publicMember(deps, username),
    /** Which of these members let people who are not signed in see them. */
    publicAmong: (ids: readonly string[]): Promise<Set<string>> => publicAmong(deps, ids),
    /** A page of the members search engines may index, with how many there are (sitemaps). */
    indexableMembers: (page: { offset: number; limit: number }) => indexableMembers(deps, page),
    edit: (viewer: Viewer, changes: UserEditBody['userData']) => editProfile(deps, viewer, changes),
    follow: (viewer: Viewer, userId: string) => follow(deps, viewer, userId),
    unfollow: (viewer: Viewer, userId: string) => unfollow(deps, viewer, userId),
    /** A page of the member's followers, newest follow first. */
    followers: (userId: string, viewer: Viewer | null, query: PageQuery) =>
      followList(deps, 'followers', userId, viewer, query),
    /** A page of the members the member follows, newest follow first. */
    following: (userId: string, viewer: Viewer | null, query: PageQuery) =>
      followList(deps, 'following', userId, viewer, query),
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
