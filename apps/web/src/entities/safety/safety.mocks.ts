import type { User } from '@perch/contract';
import { http, HttpResponse } from 'msw';
import { server } from '../../test/server';
import type { SafetyAction, SafetyListKind } from './safety.api';

/** Mock API of block and mute for component tests, backed by the viewer's two lists. */

export interface SafetyCall {
  method: string;
  path: string;
  authorization: string | null;
}

interface SafetyOptions {
  /** Members the viewer blocked, most recent first. */
  blocked?: User[];
  /** Members the viewer muted, most recent first. */
  muted?: User[];
  /** Members whose profile (GET /api/users/:username) says whether the viewer blocks or mutes them. */
  profiles?: User[];
  /** Overrides one call's answer, by `METHOD /path` (e.g. 'POST /api/users/block/u-grace'). */
  answer?: Partial<Record<string, () => Response | Promise<Response>>>;
}

const ACTIONS: SafetyAction[] = ['block', 'unblock', 'mute', 'unmute'];

/**
 * Serves block, unblock, mute and unmute (204, changing the lists), the blocked and muted lists
 * (paged by `limit`, the cursor being the next index), and the profiles of `profiles` with
 * `viewerBlocks` and `viewerMutes`. Returns every call received, in order (post lists of the
 * `profiles` members too).
 */
export function mockSafety({
  blocked = [],
  muted = [],
  profiles = [],
  answer = {},
}: SafetyOptions = {}): SafetyCall[] {
  const calls: SafetyCall[] = [];
  const lists: Record<SafetyListKind, User[]> = { blocked: [...blocked], muted: [...muted] };
  const everyone = new Map(
    [...blocked, ...muted, ...profiles].map((member) => [member._id, member]),
  );
  const listed = (kind: SafetyListKind, userId: string) =>
    lists[kind].some((member) => member._id === userId);

  const reply = (request: Request, fallback: () => Response) => {
    const path = new URL(request.url).pathname;
    calls.push({
      method: request.method,
      path,
      authorization: request.headers.get('authorization'),
    });
    const custom = answer[`${request.method} ${path}`];
    return custom ? custom() : fallback();
  };

  const change = (action: SafetyAction, userId: string) => {
    const member = everyone.get(userId);
    if (!member) return HttpResponse.json({ errors: ['User not found.'] }, { status: 404 });
    const kind: SafetyListKind = action.endsWith('block') ? 'blocked' : 'muted';
    const others = lists[kind].filter((user) => user._id !== userId);
    lists[kind] = action.startsWith('un') ? others : [member, ...others];
    return new HttpResponse(null, { status: 204 });
  };

  server.use(
    ...ACTIONS.map((action) =>
      http.post<{ userId: string }>(`/api/users/${action}/:userId`, ({ request, params }) =>
        reply(request, () => change(action, params.userId)),
      ),
    ),
    ...(['blocked', 'muted'] as const).map((kind) =>
      http.get(`/api/users/me/${kind}`, ({ request }) =>
        reply(request, () => {
          const params = new URL(request.url).searchParams;
          const limit = Number(params.get('limit') ?? '20');
          const start = Number(params.get('cursor') ?? '0');
          const users = lists[kind].slice(start, start + limit);
          const next = start + limit;
          return HttpResponse.json({
            users,
            nextCursor: next < lists[kind].length ? String(next) : null,
          });
        }),
      ),
    ),
    http.get<{ username: string }>('/api/users/:username', ({ request, params }) => {
      const member = profiles.find((user) => user.username === params.username);
      if (!member) return undefined; // Someone else's: the next handler answers.
      return reply(request, () =>
        HttpResponse.json({
          user: {
            ...member,
            viewerBlocks: listed('blocked', member._id),
            viewerMutes: listed('muted', member._id),
            followedByViewer: listed('blocked', member._id) ? false : member.followedByViewer,
          },
        }),
      );
    }),
    http.get<{ username: string }>('/api/posts/user/:username', ({ request, params }) => {
      if (!profiles.some((user) => user.username === params.username)) return undefined;
      return reply(request, () => HttpResponse.json({ posts: [], nextCursor: null }));
    }),
  );
  return calls;
}

export function errorAnswer(status: number, ...errors: string[]) {
  return () => HttpResponse.json({ errors }, { status });
}
