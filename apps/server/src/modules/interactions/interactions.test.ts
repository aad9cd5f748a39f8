import {
  audienceOf,
  DOMAIN_EVENT_TYPES,
  EXPORT_FILES,
  NOTIFICATION_KINDS,
  postSchema,
} from '@perch/contract';
import { describe, expect, it } from 'vitest';
import type { LockedPost } from '../posts/posts.service';
import { POST_INTERACTIONS } from '.';

const post: LockedPost = {
  id: 'p1',
  user_id: 'author',
  content: 'hello',
  entities: null,
  media_url: null,
  media_alt: null,
  content_warning: null,
  sensitive: 0,
  preview_card: null,
  poll: null,
  media: null,
  created_at: 1,
  updated_at: 1,
  like_count: 3,
  comment_count: 0,
  repost_count: 0,
  username: 'author',
  first_name: 'A',
  last_name: 'B',
  avatar_url: null,
  pinned: false,
  quote_id: null,
  liked: false,
  bookmarked: false,
  reposted: false,
};

/** The schema of a view's field named by a dotted path ('likes.likeCount'). */
function fieldOf(path: string): unknown {
  let shape: Record<string, unknown> = postSchema.shape;
  let field: unknown;
  for (const key of path.split('.')) {
    field = shape[key];
    shape = (field as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
  }
  return field;
}

describe.each(POST_INTERACTIONS.map((interaction) => [interaction.name, interaction] as const))(
  'the %s declaration',
  (_name, interaction) => {
    it('names events, a notification, view fields and an export file that exist', () => {
      expect(DOMAIN_EVENT_TYPES).toContain(interaction.events.added);
      expect(DOMAIN_EVENT_TYPES).toContain(interaction.events.removed);
      if (interaction.notification) expect(NOTIFICATION_KINDS).toContain(interaction.notification);
      if (interaction.export) expect(EXPORT_FILES).toContain(interaction.export);
      const view = interaction.view;
      expect(fieldOf('viewerState' in view ? view.viewerState : view.shared)).toBeDefined();
      if (interaction.view.count) expect(fieldOf(interaction.view.count)).toBeDefined();
    });

    it('builds its events as declared, heard by the audience it declares', () => {
      for (const added of [true, false]) {
        const event = interaction.events.of({
          subject: post,
          memberId: 'm',
          added,
          count: 4,
          rowId: 'r1',
        });
        expect(event.type).toBe(added ? interaction.events.added : interaction.events.removed);
        expect(audienceOf(event).kind).toBe(interaction.audience);
        expect(event.payload).toMatchObject({ postId: 'p1', userId: 'm' });
      }
    });
  },
);
