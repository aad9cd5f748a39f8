import type { UserStub } from '@perch/contract';
import { describe, expect, it } from 'vitest';
import { answerJson, withJson } from '../../lib/serialized';
import { compactView, expandView } from './compact-view';
import { viewOf, presentPost, cachedView } from './view';
import type { PostRecord } from '../../modules/posts/posts.repository';

const record: PostRecord = {
  id: '01JD0000000000000000000000',
  user_id: '01JC0000000000000000000000',
  content: 'Ça va? Emoji 🐦🏳️‍🌈, quotes " and \\ backslashes, #tags and @ana\n',
  entities: JSON.stringify([
    { type: 'tag', tag: 'tags', start: 47, end: 52 },
    { type: 'mention', username: 'ana', userId: '01JC0000000000000000000000', start: 57, end: 61 },
  ]),
  media_url: '/media/bird.webp',
  media_alt: 'Un oiseau, ü',
  content_warning: null,
  sensitive: 0,
  preview_card: JSON.stringify({
    url: 'https://example.com/',
    title: 'Perches — “all of them”',
    description: null,
    siteName: 'Example',
    imageURL: '/media/ab/cd.webp',
    imageWidth: 1200,
    imageHeight: 630,
  }),
  poll: null,
  media: JSON.stringify([
    { url: '/media/bird.webp', alt: 'Un oiseau, ü', width: 800, height: 600, blurhash: 'LEHV6n' },
    { url: '/media/nest.webp', alt: null, width: 640, height: 480, blurhash: null },
  ]),
  like_count: 7,
  comment_count: 3,
  repost_count: 2,
  created_at: Date.UTC(2026, 10, 1, 12),
  updated_at: Date.UTC(2026, 10, 2, 8, 30, 0, 5),
  // Pinned, as SQLite answers it.
  pinned: 1,
  quote_id: null,
};

const stub: UserStub = {
  _id: record.user_id,
  id: record.user_id,
  username: 'ana',
  firstName: 'Ána "the" \\ Lima 🌿',
  lastName: 'Lima',
  avatarURL: '/media/ana.webp',
};
const author = withJson({ ...stub }, JSON.stringify(stub));

const readers = [null, { id: '01JB0000000000000000000000', username: 'bo"b' }];
const flags = [
  [0, 0],
  [1, 0],
  [0, 1],
  [1, 1],
] as const;

const records: Record<string, PostRecord> = {
  'text with emoji, accents, entities and an image': record,
  'plain text, never edited, nothing attached, not pinned': {
    ...record,
    content: 'plain words',
    entities: null,
    media_url: null,
    media_alt: null,
    preview_card: null,
    media: null,
    like_count: 0,
    comment_count: 0,
    updated_at: record.created_at,
    pinned: false,
  },
  'with a poll, its counts kept beside the JSON': {
    ...record,
    poll: JSON.stringify({
      id: 'poll-1',
      expiresAt: Date.UTC(2030, 0, 1),
      multiple: true,
      options: ['oui', 'non ü'],
      votes: [3, 5],
      voters: 6,
    }),
  },
  'quoting a post': { ...record, quote_id: '01JE0000000000000000000000' },
};

describe('a compact card', () => {
  for (const [name, row] of Object.entries(records)) {
    it(`unpacks to the view it was compact from: ${name}`, () => {
      const view = cachedView(viewOf(row, author));
      const compact = compactView(view);
      // One byte a character: the string holds the JSON's UTF-8 bytes, not its text.
      expect(compact.json.length).toBe(view.json.length);
      const expanded = expandView(row.id, compact);

      expect(expanded.json.equals(view.json)).toBe(true);
      expect(expanded.shared).toEqual(view.shared);
      expect(expanded.row).toEqual({
        id: row.id,
        user_id: row.user_id,
        created_at: row.created_at,
        like_count: row.like_count,
        comment_count: row.comment_count,
        repost_count: row.repost_count,
        quote_id: row.quote_id,
      });
      for (const reader of readers) {
        for (const [liked, bookmarked] of flags) {
          const quote = row.quote_id === null ? null : ({ state: 'unavailable' } as const);
          for (const ownVotes of [null, [1]]) {
            const marks = { liked, bookmarked, reposted: bookmarked, ownVotes, quote };
            const expected = presentPost(view, marks, reader);
            const post = presentPost(expanded, marks, reader);
            expect(String(answerJson(post))).toBe(String(answerJson(expected)));
            expect(post).toEqual(expected);
          }
        }
      }
    });
  }
});
