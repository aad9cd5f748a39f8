import {
  findEntities,
  mentionedNamesOf,
  tagsOf,
  type Entity,
  type MentionEntity,
} from '@perch/contract';
import type { Kysely } from 'kysely';
import { isPostgres } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';
import type { EventRecorder } from '../../platform/events/transactions';
import type { UsersService } from '../users/users.service';
import * as repo from './entities.repository';

type Db = Kysely<Database>;

export interface EntitiesServiceDeps {
  users: Pick<UsersService, 'namedMembers'>;
}

/** A text being written: its owner's id, author and time. */
export interface EntityWrite {
  id: string;
  authorId: string;
  createdAt: number;
  entities: readonly Entity[];
  /** A new text: nothing of it is stored yet. */
  fresh: boolean;
}

/**
 * Tags and mentions of posts and comments, written in the text's own transaction. Texts are
 * resolved first (`resolve`: which mentioned members exist), then recorded (`record`: the
 * owner's tag and mention rows replaced), which answers the members mentioned for the first
 * time, to be told.
 */
export function createEntitiesService({ users }: EntitiesServiceDeps) {
  return {
    async resolve(trx: Db, text: string): Promise<Entity[]> {
      const found = findEntities(text);
      if (found.length === 0) return [];
      const members = await users.namedMembers(trx, mentionedNamesOf(found));
      const byName = new Map(members.map((member) => [member.username.toLowerCase(), member]));
      return found.flatMap((entity): Entity[] => {
        if (entity.type === 'tag') return [entity];
        const member = byName.get(entity.username.toLowerCase());
        if (!member) return [];
        const mention: MentionEntity = {
          type: 'mention',
          username: member.username,
          userId: member.id,
          start: entity.start,
          end: entity.end,
        };
        return [mention];
      });
    },

    async record(trx: Db, owner: repo.EntityOwner, write: EntityWrite): Promise<string[]> {
      const mentioned = [
        ...new Set(
          write.entities.flatMap((entity) => (entity.type === 'mention' ? [entity.userId] : [])),
        ),
      ];
      const use = (tag: string) => ({
        tag,
        ownerId: write.id,
        authorId: write.authorId,
        createdAt: write.createdAt,
      });
      const next = tagsOf(write.entities);
      let before: string[] = [];
      if (write.fresh) {
        await repo.insertTags(trx, owner, next.map(use));
      } else {
        before = await repo.mentionedIds(trx, owner, write.id);
        if (before.length > 0) await repo.deleteMentions(trx, owner, write.id);
        const current = await repo.tagsOfOwner(trx, owner, write.id);
        for (const tag of inTagOrder([...current, ...next])) {
          const kept = next.includes(tag);
          if (!current.includes(tag)) await repo.insertTags(trx, owner, [use(tag)]);
          else if (!kept) await repo.deleteTag(trx, owner, write.id, tag);
        }
      }
      await repo.insertMentions(trx, owner, write.id, mentioned);
      return mentioned.filter((userId) => userId !== write.authorId && !before.includes(userId));
    },

    /** Before a post is deleted: its tags go first, in tag order (see inTagOrder). */
    async forgetPost(trx: Db, postId: string): Promise<void> {
      for (const tag of inTagOrder(await repo.tagsOfOwner(trx, 'post', postId))) {
        await repo.deleteTag(trx, 'post', postId, tag);
      }
    },

    /**
     * Locks the counter rows of the tags the author's posts carry, in tag order, until the
     * transaction ends (PostgreSQL). `wait: false` fails at once (55P03) when another writer holds
     * one, for a caller that already holds other locks and would rather try again than wait.
     */
    async lockTagsOfAuthor(trx: Db, authorId: string, wait: boolean): Promise<void> {
      // SQLite's write transactions run one at a time: there is nothing to lock.
      if (!isPostgres(trx)) return;
      for (const tag of inTagOrder(await repo.tagsOfAuthorPosts(trx, authorId))) {
        await repo.lockTag(trx, tag, wait);
      }
    },

    /**
     * Before all of an author's posts are deleted (their account is): their tags go first, a tag
     * at a time in tag order, as forgetPost does for one post.
     */
    async forgetPostsOf(trx: Db, authorId: string): Promise<void> {
      for (const tag of inTagOrder(await repo.tagsOfAuthorPosts(trx, authorId))) {
        await repo.deleteAuthorPostsTag(trx, authorId, tag);
      }
    },
  };
}

export type EntitiesService = ReturnType<typeof createEntitiesService>;

/**
 * Each tag's counter row is locked by the write that changes its count until commit (PostgreSQL).
 * Writers that take them in one order, added and removed alike, never wait on each other in a
 * circle.
 */
function inTagOrder(tags: readonly string[]): string[] {
  return [...new Set(tags)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Tells the members mentioned for the first time (see `record`), after commit. */
export function recordMentions(
  events: EventRecorder,
  where: { postId: string; commentId: string | null; authorId: string },
  userIds: readonly string[],
): void {
  if (userIds.length === 0) return;
  events.record({ type: 'members.mentioned', payload: { ...where, userIds: [...userIds] } });
}
