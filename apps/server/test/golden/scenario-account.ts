import type { LoginResponse, SessionList } from '@perch/contract';
import { jsonOf, unzip } from '../account/account-helpers';
import type { Json } from './normalise';
import type { Recorder } from './recorder';
import { PASSWORD, type World } from './scenario-writes';

const login = (username: string, password = PASSWORD) => ({
  method: 'POST' as const,
  url: '/api/auth/login',
  payload: { username, password },
});

/** Reading notifications, then marking them read. */
export async function readNotifications(r: Recorder): Promise<void> {
  for (const viewer of ['anna', 'ben', 'cara']) {
    await r.send(viewer, { method: 'POST', url: '/api/notifications/read' });
    await r.send(viewer, { url: '/api/notifications/unread' });
  }
  await r.send('anna', { url: '/api/notifications', minimal: true });
  await r.send('anonymous', { method: 'POST', url: '/api/notifications/read' });
}

/** Logins, the sessions list, ending sessions one by one, elsewhere and here. */
export async function sessions(r: Recorder): Promise<void> {
  await r.send('anonymous', login('anna'));
  await r.send('anonymous', login('anna', 'wrong password'));
  await r.send('anonymous', login('nobody'));
  await r.send('anonymous', login('guest', 'perch-guest-2026'));
  await r.send('anonymous', {
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: 'anna' },
  });
  const second = await r.json<LoginResponse>('anonymous', { ...login('ben'), quiet: true });
  r.tokens.set('ben-laptop', second.encodedToken);
  const third = await r.json<LoginResponse>('anonymous', { ...login('ben'), quiet: true });
  r.tokens.set('ben-phone', third.encodedToken);
  const list = await r.json<SessionList>('ben', { url: '/api/auth/sessions' });
  const laptop = list.sessions.filter((session) => !session.current).at(-1);
  await r.send('ben', { method: 'DELETE', url: `/api/auth/sessions/${laptop?._id ?? 'none'}` });
  await r.send('ben', { method: 'DELETE', url: `/api/auth/sessions/${laptop?._id ?? 'none'}` });
  await r.send('ben', { url: '/api/auth/sessions' });
  await r.send('ben-phone', { method: 'POST', url: '/api/auth/session' });
  await r.send('ben-phone', { method: 'POST', url: '/api/auth/logout-others' });
  await r.send('ben', { url: '/api/auth/me' });
  await r.send('ben-phone', { url: '/api/auth/sessions' });
  await r.send('ben-phone', { method: 'POST', url: '/api/auth/logout' });
  await r.send('ben-phone', { url: '/api/auth/me' });
  const cara = await r.json<LoginResponse>('anonymous', { ...login('cara'), quiet: true });
  r.tokens.set('cara-tablet', cara.encodedToken);
  await r.send('cara-tablet', { method: 'POST', url: '/api/auth/logout-all' });
  await r.send('cara', { url: '/api/auth/me' });
  r.tokens.set(
    'cara',
    (await r.json<LoginResponse>('anonymous', { ...login('cara'), quiet: true })).encodedToken,
  );
}

export async function password(r: Recorder): Promise<void> {
  const change = (payload: object) => ({
    method: 'POST' as const,
    url: '/api/auth/password',
    payload,
  });
  const eveLaptop = await r.json<LoginResponse>('anonymous', { ...login('eve'), quiet: true });
  r.tokens.set('eve-laptop', eveLaptop.encodedToken);
  await r.send(
    'eve',
    change({
      currentPassword: 'wrong one!',
      newPassword: 'a new password',
      confirmPassword: 'a new password',
    }),
  );
  await r.send(
    'eve',
    change({ currentPassword: PASSWORD, newPassword: PASSWORD, confirmPassword: PASSWORD }),
  );
  await r.send(
    'eve',
    change({
      currentPassword: PASSWORD,
      newPassword: 'a new password',
      confirmPassword: 'another one',
    }),
  );
  await r.send(
    'eve',
    change({ currentPassword: PASSWORD, newPassword: 'short', confirmPassword: 'short' }),
  );
  await r.send(
    'eve',
    change({
      currentPassword: PASSWORD,
      newPassword: 'a new password',
      confirmPassword: 'a new password',
    }),
  );
  await r.send('eve-laptop', { url: '/api/auth/me' });
  await r.send('eve', { url: '/api/auth/me' });
  await r.send('anonymous', login('eve'));
}

/** The export archive: its headers and the JSON files in it (images by name only). */
export async function exportArchive(r: Recorder): Promise<void> {
  const url = '/api/users/me/export';
  const response = await r.send('anna', { url, quiet: true });
  const files = await unzip(response.rawPayload);
  const contents: Record<string, Json> = {};
  for (const name of [...files.keys()].sort()) {
    contents[name] = name.endsWith('.json') ? (jsonOf(files, name) as Json) : '<image>';
  }
  const headers = {
    'content-type': String(response.headers['content-type']),
    'content-disposition': String(response.headers['content-disposition']),
  };
  r.recordValue('anna', 'GET', url, response.statusCode, { headers, files: contents });
  await r.send('anonymous', { url });
}

/** finn deletes the account: their comment shows no author, their like and follow are gone. */
export async function deleteAccount(r: Recorder, w: World): Promise<void> {
  const remove = (payload: object) => ({
    method: 'DELETE' as const,
    url: '/api/users/me',
    payload,
  });
  await r.send('finn', remove({ password: 'not it', username: 'finn' }));
  await r.send('finn', remove({ password: PASSWORD, username: 'fin' }));
  await r.send('finn', remove({ password: PASSWORD, username: ' FINN ' }));
  await r.send('finn', { url: '/api/auth/me' });
  await r.send('anna', { url: `/api/posts/${w.post('hello')}` });
  await r.send('anna', { url: `/api/comments/${w.post('hello')}` });
  await r.send('anna', { url: '/api/users/anna', minimal: true });
  await r.send('anonymous', { url: '/api/users/finn' });
  await r.send('anna', { url: '/api/notifications', minimal: true });
}
