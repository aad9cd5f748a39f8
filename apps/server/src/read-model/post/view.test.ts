import { describe, expect, it } from 'vitest';
import { answerJson, withJson } from '../../lib/serialized';
import { viewOf, presentPost, cachedView } from './view';
import type { PostQuote, UserStub } from '@perch/contract';
import type { PostRecord } from '../../modules/posts/posts.repository';

/** The answer as text, whether it was written as a string or as bytes. */
const stringifyAnswer = (payload: unknown) => String(answerJson(payload));

const card: PostRecord = {
  id: '01JD0000000000000000000000',
  user_id: '01JC0000000000000000000000',
  content: 'Quotes " and \\ backslashes, emoji 🐦 and #tags @ana\n',
  entities: null,
  media_url: null,
  media_alt: null,
  content_warning: null,
  sensitive: 0,
  preview_card: null,
  poll: null,
  media: null,
  like_count: 3,
  comment_count: 2,
  repost_count: 1,
  created_at: Date.UTC(2026, 10, 1, 12),
  updated_at: Date.UTC(2026, 10, 2, 8, 30),
  pinned: 0,
  quote_id: null,
};

const author: UserStub = {
  _id: card.user_id,
  id: card.user_id,
  username: 'ana',
  firstName: 'Ana "the" \\ Lima',
  lastName: 'Lima',
  avatarURL: null,
};

const viewer = { id: '01JB0000000000000000000000', username: 'bo"b' };

const quoted: PostQuote = {
  state: 'available',
  post: {
    _id: '01JE0000000000000000000000',
    id: '01JE0000000000000000000000',
    author,
    content: 'The quoted "text" 🐦 #tags',
    entities: [{ type: 'tag', tag: 'tags', start: 20, end: 25 }],
    mediaURL: '/media/q.webp',
    mediaAlt: null,
    contentWarning: 'birds',
    sensitive: true,
    createdAt: '2026-11-01T12:00:00.000Z',
    quoteId: '01JF0000000000000000000000',
  },
};
const quoting = { ...card, quote_id: quoted.post.id };

describe("a post's serialized JSON", () => {
  const cases = [
    { name: 'read by a visitor', card, liked: 1, bookmarked: 1, reader: null },
    { name: 'liked and bookmarked', card, liked: 1, bookmarked: 1, reader: viewer },
    {
      name: 'liked by another reader',
      card,
      liked: 1,
      bookmarked: 0,
      reader: { id: '01JA0000000000000000000000', username: 'cy' },
    },
    { name: 'liked by the first reader again', card, liked: 1, bookmarked: 0, reader: viewer },
    { name: 'neither', card, liked: 0, bookmarked: 0, reader: viewer },
    {
      name: 'with an image, never edited',
      card: {
        ...card,
        media_url: '/media/x.webp',
        media_alt: 'A bird',
        updated_at: card.created_at,
        like_count: 0,
        comment_count: 0,
      },
      liked: 0,
      bookmarked: 1,
      reader: viewer,
    },
    {
      name: 'with a tag and a mention, stored in another key order',
      card: {
        ...card,
        entities: JSON.stringify([
          { start: 44, end: 49, tag: 'tags', type: 'tag' },
          { type: 'mention', username: 'ana', userId: card.user_id, start: 50, end: 54 },
        ]),
      },
      liked: 0,
      bookmarked: 0,
      reader: viewer,
    },
    {
      name: 'with entities that cannot be read',
      card: { ...card, entities: '[{"type":"tag"' },
      liked: 0,
      bookmarked: 0,
      reader: viewer,
    },
    { name: 'quoting a post', card: quoting, liked: 0, bookmarked: 0, reader: viewer, quoted },
    {
      name: 'quoting a post the reader may not see, liked',
      card: quoting,
      liked: 1,
      bookmarked: 0,
      reader: viewer,
      quoted: { state: 'unavailable' } as PostQuote,
    },
  ];

  // Cached summaries carry their JSON (member-summaries.ts); a view uses it for its author.
  const keptAuthor = withJson({ ...author }, JSON.stringify(author));

  for (const { name, card: row, liked, bookmarked, reader, ...rest } of cases) {
    it(`is exactly the post object's JSON: ${name}`, () => {
      const quote = 'quoted' in rest ? rest.quoted : null;
      const marks = { liked, bookmarked, reposted: liked, quote };
      const post = presentPost(viewOf(row, keptAuthor), marks, reader);
      expect(post.quote).toEqual(quote);
      const plain: unknown = structuredClone(post);
      expect(stringifyAnswer(post)).toBe(JSON.stringify(plain));
      expect(stringifyAnswer({ posts: [post, post], nextCursor: null })).toBe(
        JSON.stringify({ posts: [plain, plain], nextCursor: null }),
      );
      expect(JSON.parse(stringifyAnswer(post))).toEqual(plain);
      expect(stringifyAnswer(presentPost(viewOf(row, author), marks, reader))).toBe(
        stringifyAnswer(post),
      );
      const kept = cachedView(viewOf(row, keptAuthor));
      expect(kept.json.buffer.byteLength).toBe(kept.json.length);
      expect(stringifyAnswer(presentPost(kept, marks, reader))).toBe(stringifyAnswer(post));
    });
  }
});
