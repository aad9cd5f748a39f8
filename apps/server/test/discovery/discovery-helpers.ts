import {
  postMutationResponseSchema,
  postSearchPageSchema,
  tagPageSchema,
  type Entity,
  type MentionEntity,
  type Post,
  type TagEntity,
  type TagPage,
} from '@perch/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Member } from '../factories';
import { call } from '../helpers';
import { MINIMAL, bodyOf, idsOf, withQuery } from '../social/social-helpers';

export const editRequest = (
  app: FastifyInstance,
  token: string,
  postId: string,
  postData: Record<string, unknown>,
) =>
  call(app, {
    method: 'POST',
    url: `/api/posts/edit/${postId}`,
    token,
    payload: { postData },
    headers: MINIMAL,
  });

/** Edits the post's text as its author would and answers the edited post. */
export async function editPost(
  app: FastifyInstance,
  token: string,
  postId: string,
  content: string,
): Promise<Post> {
  return bodyOf(postMutationResponseSchema, await editRequest(app, token, postId, { content }), 201)
    .post;
}

export const searchRequest = (
  app: FastifyInstance,
  q: string,
  query: Record<string, string | number> = {},
): Promise<LightMyRequestResponse> =>
  call(app, { method: 'GET', url: withQuery('/api/search/posts', { q, ...query }) });

/** Ids of the first page of posts the search finds (50 at most). */
export async function searchIds(
  app: FastifyInstance,
  q: string,
  query: Record<string, string | number> = {},
): Promise<string[]> {
  const page = bodyOf(
    postSearchPageSchema,
    await searchRequest(app, q, { limit: 50, ...query }),
    200,
  );
  return idsOf(page.posts);
}

export const tagUrl = (tag: string) => `/api/tags/${encodeURIComponent(tag)}`;

export async function tagPageOf(
  app: FastifyInstance,
  tag: string,
  query: Record<string, string | number> = {},
): Promise<TagPage> {
  const response = await call(app, {
    method: 'GET',
    url: withQuery(tagUrl(tag), { limit: 50, ...query }),
  });
  return bodyOf(tagPageSchema, response, 200);
}

/** The tag as its page tells it: its post count and the ids of its first 50 posts. */
export async function tagState(app: FastifyInstance, tag: string) {
  const page = await tagPageOf(app, tag);
  return { postCount: page.tag.postCount, posts: idsOf(page.posts) };
}

/** The entity of the `nth` (0-based) occurrence of `written` in the text. */
function spanOf(text: string, written: string, nth: number): { start: number; end: number } {
  let start = -1;
  for (let i = 0; i <= nth; i += 1) {
    start = text.indexOf(written, start + 1);
    if (start < 0) throw new Error(`${written} is not ${nth + 1} times in ${text}`);
  }
  return { start, end: start + written.length };
}

export const tagAt = (text: string, written: string, tag: string, nth = 0): TagEntity => ({
  type: 'tag',
  tag,
  ...spanOf(text, written, nth),
});

export const mentionAt = (
  text: string,
  written: string,
  member: Member,
  nth = 0,
): MentionEntity => ({
  type: 'mention',
  username: member.user.username,
  userId: member.user._id,
  ...spanOf(text, written, nth),
});

type Owner = 'post' | 'comment';

/** The text's tag rows, by tag. */
export async function tagRowsOf(app: FastifyInstance, owner: Owner, id: string) {
  const rows =
    owner === 'post'
      ? await app.db
          .selectFrom('post_tags')
          .select(['tag', 'author_id', 'created_at'])
          .where('post_id', '=', id)
          .execute()
      : await app.db
          .selectFrom('comment_tags')
          .select(['tag', 'author_id', 'created_at'])
          .where('comment_id', '=', id)
          .execute();
  return rows.sort((a, b) => (a.tag < b.tag ? -1 : 1));
}

export const tagNamesOf = async (app: FastifyInstance, owner: Owner, id: string) =>
  (await tagRowsOf(app, owner, id)).map((row) => row.tag);

/** The ids of the members the text mentions, as its rows have them, sorted. */
export async function mentionRowsOf(app: FastifyInstance, owner: Owner, id: string) {
  const rows =
    owner === 'post'
      ? await app.db
          .selectFrom('post_mentions')
          .select('user_id')
          .where('post_id', '=', id)
          .execute()
      : await app.db
          .selectFrom('comment_mentions')
          .select('user_id')
          .where('comment_id', '=', id)
          .execute();
  return rows.map((row) => row.user_id).sort();
}

/** The `entities` column of the text, parsed ([] when null). */
export async function storedEntitiesOf(
  app: FastifyInstance,
  owner: Owner,
  id: string,
): Promise<Entity[]> {
  const row =
    owner === 'post'
      ? await app.db.selectFrom('posts').select('entities').where('id', '=', id).executeTakeFirst()
      : await app.db
          .selectFrom('comments')
          .select('entities')
          .where('id', '=', id)
          .executeTakeFirst();
  return row?.entities ? (JSON.parse(row.entities) as Entity[]) : [];
}

/** tags.post_count of the tag, null when it has no row. */
export async function storedCountOf(app: FastifyInstance, tag: string): Promise<number | null> {
  const row = await app.db
    .selectFrom('tags')
    .select('post_count')
    .where('name', '=', tag)
    .executeTakeFirst();
  return row ? row.post_count : null;
}

/** How many post_tags rows the tag has: what tags.post_count must say. */
export async function postTagRowCount(app: FastifyInstance, tag: string): Promise<number> {
  const rows = await app.db
    .selectFrom('post_tags')
    .select('post_id')
    .where('tag', '=', tag)
    .execute();
  return rows.length;
}

/** The tags of the entities, distinct and sorted. */
export const distinctTags = (entities: readonly Entity[]) =>
  [...new Set(entities.flatMap((entity) => (entity.type === 'tag' ? [entity.tag] : [])))].sort();
