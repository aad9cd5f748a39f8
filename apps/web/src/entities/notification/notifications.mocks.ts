import type { NotificationActor, NotificationGroup, NotificationPage } from '@perch/contract';
import { delay, http, HttpResponse } from 'msw';
import { server } from '../../test/server';

export const adaOkafor: NotificationActor = {
  _id: 'u-ada-o',
  id: 'u-ada-o',
  username: 'ada_okafor',
  firstName: 'Ada',
  lastName: 'Okafor',
  avatarURL: null,
};
export const boLi: NotificationActor = {
  _id: 'u-bo',
  id: 'u-bo',
  username: 'bo_li',
  firstName: 'Bo',
  lastName: 'Li',
  avatarURL: null,
};
export const cyZhang: NotificationActor = {
  _id: 'u-cy',
  id: 'u-cy',
  username: 'cy',
  firstName: 'Cy',
  lastName: 'Zhang',
  avatarURL: null,
};

let sequence = 0;

export function makeGroup(overrides: Partial<NotificationGroup> = {}): NotificationGroup {
  sequence += 1;
  const actors = overrides.actors ?? [adaOkafor];
  const id = overrides._id ?? `g-${String(sequence)}`;
  return {
    _id: id,
    id,
    kind: 'like',
    actors,
    actorCount: actors.length,
    post: { _id: 'p-1', id: 'p-1', content: 'Clear skies tonight.', mediaURL: null },
    comment: null,
    latestAt: '2026-11-22T10:00:00.000Z',
    read: true,
    ...overrides,
  };
}

interface NotificationsMockOptions {
  /** Pages in order; each page after the first is asked for with the previous page's cursor. */
  pages?: NotificationGroup[][];
  unreadCount?: number;
  /** Answers the list with this status (once) instead. */
  failOnce?: number;
  /** Pauses the list forever. */
  hang?: boolean;
}

/** Serves the notification calls; returns what they received. */
export function mockNotifications({
  pages = [[]],
  unreadCount = 0,
  failOnce,
  hang = false,
}: NotificationsMockOptions = {}) {
  let unread = unreadCount;
  let failures = failOnce === undefined ? 0 : 1;
  const received = { listCursors: [] as (string | null)[], reads: 0 };
  server.use(
    http.get('/api/notifications', async ({ request }) => {
      const cursor = new URL(request.url).searchParams.get('cursor');
      received.listCursors.push(cursor);
      if (hang) await delay('infinite');
      if (failures > 0) {
        failures -= 1;
        return HttpResponse.json({ errors: ['Internal server error'] }, { status: failOnce });
      }
      const index = cursor === null ? 0 : Number(cursor.replace('cursor-', ''));
      const body: NotificationPage = {
        notifications: pages[index] ?? [],
        nextCursor: index + 1 < pages.length ? `cursor-${String(index + 1)}` : null,
        unreadCount: unread,
      };
      return HttpResponse.json(body);
    }),
    http.get('/api/notifications/unread', () => HttpResponse.json({ unreadCount: unread })),
    http.post('/api/notifications/read', () => {
      received.reads += 1;
      unread = 0;
      return HttpResponse.json({ unreadCount: 0 });
    }),
  );
  return {
    received,
    setUnread: (count: number) => {
      unread = count;
    },
  };
}
