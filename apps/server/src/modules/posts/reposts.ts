import type { PageQuery } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { decodeCursor, pageOf } from '../../lib/cursor';
import type { PostsDeps } from './posts.deps';
import * as repo from './reposts.repository';

/**
 * A page of the ids of the members who liked or reposted a post, newest first, those hidden from
 * the viewer (a block either way, or a mute) left out. The post's own visibility is the caller's.
 */
export async function interactorIds(
  { reads, hidden }: Pick<PostsDeps, 'reads' | 'hidden'>,
  table: 'likes' | 'reposts',
  postId: string,
  viewer: Viewer | null,
  query: PageQuery,
): Promise<{ ids: string[]; nextCursor: string | null }> {
  const after = query.cursor ? decodeCursor(query.cursor, ['number', 'string'] as const) : null;
  const rows = await repo.interactorRows(reads, {
    table,
    postId,
    after,
    limit: query.limit,
    hidden: await hidden.hiddenFor(viewer?.id ?? null),
  });
  const { items, nextCursor } = pageOf(rows, query.limit, (row) => [row.created_at, row.user_id]);
  return { ids: items.map((row) => row.user_id), nextCursor };
}

/** Reposts as other protocols name them: a repost's id, its post and its member. */
export interface RepostRef {
  id: string;
  postId: string;
  userId: string;
}

const refOf = (row: repo.RepostRow): RepostRef => ({
  id: row.id,
  postId: row.post_id,
  userId: row.user_id,
});

export async function repostsOf(
  { reads }: Pick<PostsDeps, 'reads'>,
  pairs: readonly { postId: string; userId: string }[],
): Promise<RepostRef[]> {
  const rows = await repo.repostsAmong(
    reads,
    [...new Set(pairs.map((pair) => pair.postId))],
    [...new Set(pairs.map((pair) => pair.userId))],
  );
  return rows.map(refOf);
}

export async function repostById(
  { reads }: Pick<PostsDeps, 'reads'>,
  id: string,
): Promise<RepostRef | undefined> {
  const row = await repo.findRepost(reads, id);
  return row && refOf(row);
}
