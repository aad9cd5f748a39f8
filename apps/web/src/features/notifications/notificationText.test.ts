import type { NotificationGroup } from '@perch/contract';
import { describe, expect, it } from 'vitest';
import { notificationText } from './notificationText';

const author = {
  _id: 'u-ada',
  id: 'u-ada',
  username: 'ada',
  firstName: 'Ada',
  lastName: 'Lovelace',
  avatarURL: null,
};

const ended: NotificationGroup = {
  _id: 'poll:p-1:unread',
  id: 'poll:p-1:unread',
  kind: 'poll',
  actors: [author],
  actorCount: 1,
  post: { _id: 'p-1', id: 'p-1', content: 'Tea or coffee?', mediaURL: null },
  comment: null,
  latestAt: '2026-12-01T00:00:00.000Z',
  read: false,
};

describe('a poll notification', () => {
  it('tells its author their poll ended, and a voter that a poll they voted in did', () => {
    expect(notificationText(ended, 'u-ada')).toBe('Your poll has ended');
    expect(notificationText(ended, 'u-bo')).toBe('A poll you voted in has ended');
  });
});
