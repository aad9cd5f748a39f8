import type { Kysely } from 'kysely';

/**
 * A member's own account (see modules/account): exporting their data reads their comments page by
 * page in time order, and deleting the account finds them, both on comments_user_created_idx. It
 * begins with user_id, so it serves everything comments_user_idx did.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('comments_user_created_idx')
    .ifNotExists()
    .on('comments')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
  await db.schema.dropIndex('comments_user_idx').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('comments_user_idx')
    .ifNotExists()
    .on('comments')
    .columns(['user_id'])
    .execute();
  await db.schema.dropIndex('comments_user_created_idx').ifExists().execute();
}
