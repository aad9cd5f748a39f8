import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as initial from './migrations/0001_initial';
import * as social from './migrations/0002_social';
import * as media from './migrations/0003_media';
import * as feedIndexes from './migrations/0004_feed_indexes';
import * as jobLeases from './migrations/0005_job_leases';
import * as events from './migrations/0006_events';
import * as sessions from './migrations/0007_sessions';
import * as homeTimelines from './migrations/0008_home_timelines';
import * as memberSearch from './migrations/0009_member_search';
import * as discovery from './migrations/0010_discovery';
import * as account from './migrations/0011_account';
import * as safety from './migrations/0012_safety';
import * as mediaAlt from './migrations/0013_media_alt';
import * as idempotencyKeys from './migrations/0014_idempotency_keys';
import * as memberNamePairs from './migrations/0015_member_name_pairs';
import * as pulledAuthors from './migrations/0016_pulled_authors';
import * as memberNameTriples from './migrations/0017_member_name_triples';
import * as outboxIdsAtCommit from './migrations/0018_outbox_ids_at_commit';
import * as postsByAuthor from './migrations/0019_posts_by_author';
import * as unreadCounts from './migrations/0020_unread_counts';
import * as postsIndexedAtCommit from './migrations/0021_posts_indexed_at_commit';
import * as postsCreatedWithAuthor from './migrations/0022_posts_created_with_author';
import * as memberPrivacy from './migrations/0023_member_privacy';
import * as pinnedPosts from './migrations/0024_pinned_posts';
import * as contentWarnings from './migrations/0025_content_warnings';
import * as linkPreviews from './migrations/0026_link_previews';
import * as mediaBlurhash from './migrations/0027_media_blurhash';
import * as albums from './migrations/0028_albums';
import * as polls from './migrations/0029_polls';
import * as quotePosts from './migrations/0030_quote_posts';
import * as reposts from './migrations/0031_reposts';
import * as memberPageColumns from './migrations/0032_member_page_columns';
import * as oauthApps from './migrations/0033_oauth_apps';
import * as markers from './migrations/0034_markers';

// Listed here rather than read from disk so the bundled server carries its migrations.
export const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_social': social,
  '0003_media': media,
  '0004_feed_indexes': feedIndexes,
  '0005_job_leases': jobLeases,
  '0006_events': events,
  '0007_sessions': sessions,
  '0008_home_timelines': homeTimelines,
  '0009_member_search': memberSearch,
  '0010_discovery': discovery,
  '0011_account': account,
  '0012_safety': safety,
  '0013_media_alt': mediaAlt,
  '0014_idempotency_keys': idempotencyKeys,
  '0015_member_name_pairs': memberNamePairs,
  '0016_pulled_authors': pulledAuthors,
  '0017_member_name_triples': memberNameTriples,
  '0018_outbox_ids_at_commit': outboxIdsAtCommit,
  '0019_posts_by_author': postsByAuthor,
  '0020_unread_counts': unreadCounts,
  '0021_posts_indexed_at_commit': postsIndexedAtCommit,
  '0022_posts_created_with_author': postsCreatedWithAuthor,
  '0023_member_privacy': memberPrivacy,
  '0024_pinned_posts': pinnedPosts,
  '0025_content_warnings': contentWarnings,
  '0026_link_previews': linkPreviews,
  '0027_media_blurhash': mediaBlurhash,
  '0028_albums': albums,
  '0029_polls': polls,
  '0030_quote_posts': quotePosts,
  '0031_reposts': reposts,
  '0032_member_page_columns': memberPageColumns,
  '0033_oauth_apps': oauthApps,
  '0034_markers': markers,
};

const provider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};

export async function migrateToLatest(db: Kysely<unknown>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : 'unknown error';
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}
