import {
  findEntities,
  mentionedNamesOf,
  tagsOf,
  type Entity,
  type MentionEntity,
} from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { EventRecorder } from '../../events/transactions';
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
      let before: string[] = [];
      if (!write.fresh) {
        before = await repo.mentionedIds(trx, owner, write.id);
        await repo.deleteTags(trx, owner, write.id);
        if (before.length > 0) await repo.deleteMentions(trx, owner, write.id);
      }
      await repo.insertTags(
        trx,
        owner,
        tagsOf(write.entities).map((tag) => ({
          tag,
          ownerId: write.id,
          authorId: write.authorId,
          createdAt: write.createdAt,
        })),
      );
      await repo.insertMentions(trx, owner, write.id, mentioned);
      return mentioned.filter((userId) => userId !== write.authorId && !before.includes(userId));
    },
  };
}

export type EntitiesService = ReturnType<typeof createEntitiesService>;

/** Tells the members mentioned for the first time (see `record`), after commit. */
export function recordMentions(
  events: EventRecorder,
  where: { postId: string; commentId: string | null; authorId: string },
  userIds: readonly string[],
): void {
  if (userIds.length === 0) return;
  events.record({ type: 'members.mentioned', payload: { ...where, userIds: [...userIds] } });
}
