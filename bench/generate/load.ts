import { findEntities, tagsOf } from '@perch/contract';
import { BENCH_PASSWORD_HASH } from '../lib/instance';
import { Prng } from '../lib/prng';
import { bioText, commentText, FIRST_NAMES, LAST_NAMES, postText, rareWordsFor } from '../lib/text';
import { writeBookmarks, writeLikes } from './engagement';
import type { LoadInput, Model } from './model';
import { writeReposts } from './reposts';
import { albumOf, writePostMedia } from './albums';
import type { LoadTarget } from './prepare';

/** Runs `run` as a timed, logged phase; `count` answers how many rows it wrote. */
export type RunPhase = <T>(
  name: string,
  run: () => Promise<T>,
  count?: (result: T) => number,
) => Promise<T>;

const rowsWritten = (n: number) => n;

/** Writes the model table by table, each table a phase. */
export async function loadTables(
  target: LoadTarget,
  phase: RunPhase,
  model: Model,
  seed: string,
  now: number,
): Promise<void> {
  const input: LoadInput = { sink: target.sink, model, seed, now };
  await phase('users', () => writeUsers(input), rowsWritten);
  const { postTags } = await phase(
    'posts',
    () => writePosts(input),
    (posts) => posts.rows,
  );
  await target.commit();
  await phase('post tags', () => writePostTags(input, postTags), rowsWritten);
  await target.commit();
  await phase('post media', () => writePostMedia(input), rowsWritten);
  await target.commit();
  const { reposts } = await phase(
    'likes',
    () => writeLikes(input),
    (likes) => likes.rows,
  );
  await target.commit();
  await phase('reposts', () => writeReposts(input, reposts), rowsWritten);
  await target.commit();
  await phase('comments', () => writeComments(input), rowsWritten);
  await phase('follows', () => writeFollows(input), rowsWritten);
  await phase('bookmarks', () => writeBookmarks(input), rowsWritten);
}

async function writeUsers({ sink, model, seed }: LoadInput): Promise<number> {
  const { memberIds, memberTime } = model.members;
  const { followers, following } = model.follows;
  const { postsCount } = model.posts;
  const M = memberIds.length;
  const prng = new Prng(seed, 'profiles');
  const w = sink.writer('users', [
    ['id', 'text'],
    ['username', 'text'],
    ['first_name', 'text'],
    ['last_name', 'text'],
    ['email', 'text'],
    ['password_hash', 'text'],
    ['bio', 'text'],
    ['avatar_url', 'text'],
    ['followers_count', 'int4'],
    ['following_count', 'int4'],
    ['posts_count', 'int4'],
    ['created_at', 'int8'],
    ['updated_at', 'int8'],
  ]);
  for (let i = 0; i < M; i++) {
    const username = `member_${String(i).padStart(6, '0')}`;
    const t = memberTime[i] ?? 0;
    const full = w.add(
      memberIds[i] ?? '',
      username,
      prng.pick(FIRST_NAMES),
      prng.pick(LAST_NAMES),
      `${username}@example.com`,
      BENCH_PASSWORD_HASH,
      prng.chance(0.6) ? bioText(prng) : '',
      null,
      followers[i] ?? 0,
      following[i] ?? 0,
      postsCount[i] ?? 0,
      t,
      t,
    );
    if (full) await w.flush();
  }
  return w.finish();
}

type PostTag = [post: number, tag: string];

async function writePosts({
  sink,
  model,
  seed,
}: LoadInput): Promise<{ rows: number; postTags: PostTag[] }> {
  const { memberIds } = model.members;
  const { postTime, postAuthor, postIds } = model.posts;
  const { likeCount, repostCount, imageCount } = model;
  const { commentCount } = model.comments;
  const P = postIds.length;
  const postTags: PostTag[] = [];
  const prng = new Prng(seed, 'post-text');
  const rareWords = rareWordsFor(P);
  const w = sink.writer('posts', [
    ['id', 'text'],
    ['user_id', 'text'],
    ['content', 'text'],
    ['entities', 'text'],
    ['media_url', 'text'],
    ['media_alt', 'text'],
    ['media', 'text'],
    ['like_count', 'int4'],
    ['comment_count', 'int4'],
    ['repost_count', 'int4'],
    ['created_at', 'int8'],
    ['updated_at', 'int8'],
  ]);
  for (let i = 0; i < P; i++) {
    const t = postTime[i] ?? 0;
    const content = postText(prng, rareWords);
    // The generated texts mention nobody, so their entities are their tags.
    const entities = findEntities(content);
    for (const tag of tagsOf(entities)) postTags.push([i, tag]);
    const images = albumOf(i, imageCount[i] ?? 0);
    const full = w.add(
      postIds[i] ?? '',
      memberIds[postAuthor[i] ?? 0] ?? '',
      content,
      entities.length === 0 ? null : JSON.stringify(entities),
      images[0]?.url ?? null,
      images[0]?.alt ?? null,
      images.length === 0 ? null : JSON.stringify(images),
      likeCount[i] ?? 0,
      commentCount[i] ?? 0,
      repostCount[i] ?? 0,
      t,
      t,
    );
    if (full) await w.flush();
  }
  return { rows: await w.finish(), postTags };
}

async function writePostTags({ sink, model }: LoadInput, postTags: PostTag[]): Promise<number> {
  const { memberIds } = model.members;
  const { postTime, postAuthor, postIds } = model.posts;
  const w = sink.writer('post_tags', [
    ['tag', 'text'],
    ['post_id', 'text'],
    ['author_id', 'text'],
    ['created_at', 'int8'],
  ]);
  for (const [i, tag] of postTags) {
    const full = w.add(
      tag,
      postIds[i] ?? '',
      memberIds[postAuthor[i] ?? 0] ?? '',
      postTime[i] ?? 0,
    );
    if (full) await w.flush();
  }
  return w.finish();
}

async function writeComments({ sink, model, seed }: LoadInput): Promise<number> {
  const { memberIds } = model.members;
  const { postIds } = model.posts;
  const { commentIds, commentTime, commentPost, commentAuthor } = model.comments;
  const prng = new Prng(seed, 'comment-text');
  const w = sink.writer('comments', [
    ['id', 'text'],
    ['post_id', 'text'],
    ['user_id', 'text'],
    ['text', 'text'],
    ['upvote_count', 'int4'],
    ['downvote_count', 'int4'],
    ['created_at', 'int8'],
    ['updated_at', 'int8'],
  ]);
  for (let j = 0; j < commentIds.length; j++) {
    const t = commentTime[j] ?? 0;
    const full = w.add(
      commentIds[j] ?? '',
      postIds[commentPost[j] ?? 0] ?? '',
      memberIds[commentAuthor[j] ?? 0] ?? '',
      commentText(prng),
      0,
      0,
      t,
      t,
    );
    if (full) await w.flush();
  }
  return w.finish();
}

async function writeFollows({ sink, model, seed, now }: LoadInput): Promise<number> {
  const { memberIds, memberTime } = model.members;
  const { followOffsets, followees } = model.follows;
  const M = memberIds.length;
  const prng = new Prng(seed, 'follow-times');
  const w = sink.writer('follows', [
    ['follower_id', 'text'],
    ['followee_id', 'text'],
    ['created_at', 'int8'],
  ]);
  for (let f = 0; f < M; f++) {
    const followerId = memberIds[f] ?? '';
    for (let k = followOffsets[f] ?? 0; k < (followOffsets[f + 1] ?? 0); k++) {
      const e = followees.data[k] ?? 0;
      const from = Math.max(memberTime[f] ?? 0, memberTime[e] ?? 0);
      const at = Math.floor(from + (now - from) * prng.float());
      if (w.add(followerId, memberIds[e] ?? '', at)) await w.flush();
    }
  }
  return w.finish();
}
