import type { Kysely } from 'kysely';

/**
 * Uploaded images: one row per member and stored image. Names are content addresses, so two
 * members who upload the same picture share its file and each hold a row for it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('media')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(26)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('url', 'varchar(300)', (c) => c.notNull())
    .addColumn('thumbnail_url', 'varchar(300)', (c) => c.notNull())
    .addColumn('mime', 'varchar(50)', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('media_url_user_key', ['url', 'user_id'])
    .execute();
  await db.schema
    .createIndex('media_user_idx')
    .ifNotExists()
    .on('media')
    .columns(['user_id'])
    .execute();
  await db.schema
    .createIndex('media_created_idx')
    .ifNotExists()
    .on('media')
    .columns(['created_at'])
    .execute();

  // Releasing and sweeping ask whether any post or profile still shows an image.
  await db.schema
    .createIndex('posts_media_url_idx')
    .ifNotExists()
    .on('posts')
    .column('media_url')
    .execute();
  await db.schema
    .createIndex('users_avatar_url_idx')
    .ifNotExists()
    .on('users')
    .column('avatar_url')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_avatar_url_idx').ifExists().execute();
  await db.schema.dropIndex('posts_media_url_idx').ifExists().execute();
  await db.schema.dropTable('media').ifExists().execute();
}
