import type { PrivacySettings, Session } from '@perch/contract';
import { http, HttpResponse } from 'msw';
import { makeUser, storeSession } from '../../test/fixtures';
import { server } from '../../test/server';

export const TOKEN = 'token-ada';
export const ada = makeUser({ username: 'ada_l' });

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1';

export function makeSession(overrides: Partial<Session> = {}): Session {
  const id = overrides._id ?? 's-current';
  const now = Date.now();
  return {
    _id: id,
    id,
    createdAt: new Date(now - 3 * 24 * 3600_000).toISOString(),
    lastUsedAt: new Date(now - 5 * 60_000).toISOString(),
    userAgent: CHROME_LINUX,
    current: false,
    ...overrides,
  };
}

export const thisDevice = makeSession({ _id: 's-current', id: 's-current', current: true });
export const phone = makeSession({ _id: 's-phone', id: 's-phone', userAgent: SAFARI_IPHONE });

/** Signs Ada in: her session is stored and the server confirms it. */
export function signInAsAda(): void {
  storeSession({ token: TOKEN, user: ada });
  server.use(http.get('/api/auth/me', () => HttpResponse.json({ user: ada })));
}

export interface RecordedCall {
  method: string;
  path: string;
  authorization: string | null;
  body: unknown;
}

async function record(request: Request): Promise<RecordedCall> {
  const text = await request.text();
  return {
    method: request.method,
    path: new URL(request.url).pathname,
    authorization: request.headers.get('authorization'),
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
  };
}

/**
 * The account calls, answered as the server does with `sessions` as the member's devices and
 * `privacy` as their privacy settings;
 * `answer` overrides one call's answer by path. Returns the calls received, in order.
 */
export function mockAccount({
  sessions = [thisDevice, phone],
  privacy = { publicProfile: true, noindex: false },
  answer = {},
}: {
  sessions?: Session[];
  privacy?: PrivacySettings;
  answer?: Partial<Record<string, () => Response | Promise<Response>>>;
} = {}): RecordedCall[] {
  const calls: RecordedCall[] = [];
  let live = [...sessions];
  let settings = { ...privacy };
  const reply = async (request: Request, fallback: () => Response) => {
    const call = await record(request);
    calls.push(call);
    const custom = answer[`${call.method} ${call.path}`];
    return custom ? custom() : fallback();
  };
  const noContent = () => new HttpResponse(null, { status: 204 });
  server.use(
    http.get('/api/auth/sessions', ({ request }) =>
      reply(request, () => HttpResponse.json({ sessions: live })),
    ),
    http.delete('/api/auth/sessions/:id', ({ request, params }) =>
      reply(request, () => {
        live = live.filter((session) => session._id !== params.id);
        return noContent();
      }),
    ),
    http.post('/api/auth/logout-others', ({ request }) =>
      reply(request, () => {
        live = live.filter((session) => session.current);
        return noContent();
      }),
    ),
    http.post('/api/auth/password', ({ request }) => reply(request, noContent)),
    http.delete('/api/users/me', ({ request }) => reply(request, noContent)),
    http.get('/api/account/privacy', ({ request }) =>
      reply(request, () => HttpResponse.json(settings)),
    ),
    http.patch('/api/account/privacy', async ({ request }) => {
      const changes = (await request.clone().json()) as Partial<PrivacySettings>;
      return reply(request, () => {
        settings = { ...settings, ...changes };
        return HttpResponse.json(settings);
      });
    }),
    http.get('/api/users/me/export', ({ request }) =>
      reply(
        request,
        () =>
          new HttpResponse(new Uint8Array([80, 75, 3, 4]), {
            headers: {
              'content-type': 'application/zip',
              'content-disposition': 'attachment; filename="perch-ada_l.zip"',
            },
          }),
      ),
    ),
  );
  return calls;
}

export function errorAnswer(status: number, ...errors: string[]) {
  return () => HttpResponse.json({ errors }, { status });
}
