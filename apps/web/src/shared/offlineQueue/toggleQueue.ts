import type {
  BookmarkMutationResponse,
  FollowResponse,
  PostMutationResponse,
} from '@perch/contract';
import { requestBackgroundSync, withOfflineQueueLock } from './backgroundSync';
import {
  dropQueuedToggle,
  findQueuedToggle,
  queueToggle,
  queuedToggles,
  toggleKey,
  type QueuedToggle,
  type ToggleChange,
} from './queueStore';
import { isUnreachable, mayRetry } from './retry';

/** A like, bookmark or follow change a member makes: of what, by whom, in which session. */
export type Toggle = ToggleChange & { memberId: string; targetId: string; token?: string };

/** What the server answers a toggle of each kind. */
export interface ToggleAnswers {
  like: PostMutationResponse;
  bookmark: BookmarkMutationResponse;
  pin: PostMutationResponse;
  repost: PostMutationResponse;
  follow: FollowResponse;
}

export type ToggleAnswer = ToggleAnswers[ToggleChange['kind']];

/** Sends one toggle to the server (each entity sends its own kind; the queue sends them all). */
export type ToggleSender<T extends Toggle = Toggle> = (
  toggle: T,
  token: string,
) => Promise<ToggleAnswers[T['kind']]>;

/** Sends of queued toggles under way, by key: a new toggle of the same target waits for them. */
const sendingNow = new Map<string, Promise<unknown>>();

/**
 * Makes a toggle now, or keeps it on this device when the server is out of reach. A toggle of a
 * target that already has one waiting settles against it instead of reaching the server (the
 * opposite action undoes it, the same one repeats it), so they never arrive out of order.
 * Resolves with the server's answer, or null when the toggle waits (or settled) on this device.
 */
export async function sendOrQueueToggle<T extends Toggle & { token: string }>(
  toggle: T,
  send: ToggleSender<T>,
): Promise<ToggleAnswers[T['kind']] | null> {
  const key = toggleKey(toggle.memberId, toggle.kind, toggle.targetId);
  await sendingNow.get(key);
  if (await findQueuedToggle(key)) {
    await queueToggle({ ...toggle, key, queuedAt: Date.now() });
    return null;
  }
  try {
    return await send(toggle, toggle.token);
  } catch (error) {
    if (!isUnreachable(error)) throw error;
    await queueToggle({ ...toggle, key, queuedAt: Date.now() });
    void requestBackgroundSync();
    return null;
  }
}

export interface ToggleHooks {
  sent: (toggle: QueuedToggle, answer: ToggleAnswer) => void;
  /** The server refused it for good (a conflict, a post or member gone): it is dropped. */
  refused: (toggle: QueuedToggle, error: unknown) => void;
}

/** Sends one queued toggle; answers false when the server is out of reach (try again later). */
async function sendQueuedToggle(
  toggle: QueuedToggle,
  token: string,
  send: ToggleSender,
  hooks: ToggleHooks,
): Promise<boolean> {
  let answer: ToggleAnswer;
  try {
    answer = await send(toggle, token);
  } catch (error) {
    if (mayRetry(error)) return false;
    await dropQueuedToggle(toggle.key, toggle.queuedAt);
    hooks.refused(toggle, error);
    return true;
  }
  await dropQueuedToggle(toggle.key, toggle.queuedAt);
  hooks.sent(toggle, answer);
  return true;
}

let flushing: Promise<number> | null = null;

/**
 * Sends the member's queued toggles, oldest first; stops at the first that finds the server out
 * of reach (tried again on the next `online`, or the next start). Answers how many it settled
 * (sent or refused for good).
 */
export function sendQueuedToggles(
  memberId: string,
  token: string,
  send: ToggleSender,
  hooks: ToggleHooks,
): Promise<number> {
  flushing ??= withOfflineQueueLock(async () => {
    let settled = 0;
    try {
      for (const toggle of await queuedToggles(memberId)) {
        const sending = sendQueuedToggle(toggle, token, send, hooks);
        sendingNow.set(toggle.key, sending);
        try {
          if (!(await sending)) break;
        } finally {
          sendingNow.delete(toggle.key);
        }
        settled += 1;
      }
      return settled;
    } finally {
      flushing = null;
    }
  });
  return flushing;
}
