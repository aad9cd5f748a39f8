import { IDEMPOTENCY_KEY_HOURS, IdempotencyErrors } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import { AppError } from '../../lib/errors';
import * as repo from './idempotency.repository';

type Db = Kysely<Database>;

export type IdempotentKind = 'post' | 'comment';

/**
 * Creates that happen once per Idempotency-Key (see the contract's idempotencyRules.ts). Inside the
 * create's transaction: `replayed` claims the key and answers what an earlier request with it
 * made (or null: go on and create), `made` names what this request made.
 */
export function createIdempotencyService({ db }: { db: Db }) {
  return {
    async replayed(
      trx: Db,
      userId: string,
      key: string,
      kind: IdempotentKind,
    ): Promise<string | null> {
      if (await repo.claimKey(trx, userId, key, Date.now())) return null;
      const row = await repo.findKey(trx, userId, key);
      // Its post or comment was deleted meanwhile (the row went with it): this is a new create.
      if (!row) {
        await repo.claimKey(trx, userId, key, Date.now());
        return null;
      }
      const made = kind === 'post' ? row.post_id : row.comment_id;
      if (made === null) throw new AppError(422, IdempotencyErrors.reused);
      return made;
    },

    async made(
      trx: Db,
      userId: string,
      key: string,
      made: { post_id: string } | { comment_id: string },
    ) {
      await repo.attachToKey(trx, userId, key, made);
    },

    /** Forgets keys past their time (a scheduled job). */
    prune: (now = Date.now()) => repo.pruneKeys(db, now - IDEMPOTENCY_KEY_HOURS * 60 * 60 * 1000),
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
