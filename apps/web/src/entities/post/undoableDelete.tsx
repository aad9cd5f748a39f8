import { tagsOf } from '@perch/contract';
import type { QueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { isApiError } from '../../shared/lib/api';
import { postMessages } from './messages';
import { addPendingDelete, readPendingDeletes, removePendingDelete } from './pendingDeletes';
import {
  findCachedPost,
  removePostFromLists,
  restoreRemovedPosts,
  type RemovedFrom,
} from './postCache';
import { postKeys } from './postKeys';
import { deletePost } from './posts.api';
import { UndoToast } from './UndoToast';

/** How long a deleted post can be brought back. */
export const UNDO_WINDOW_MS = 5000;

/** After a window closes, how long its own tab has to send the delete before another does. */
const LEFTOVER_GRACE_MS = 1000;

export interface DeleteContext {
  queryClient: QueryClient;
  token: string;
  memberId: string;
  /** What the post's removal changes beyond the lists (counts on profiles, tag pages). */
  afterDelete: (tags: readonly string[]) => void;
}

interface Scheduled {
  timer: ReturnType<typeof setTimeout>;
  removed: RemovedFrom[];
  tags: readonly string[];
  context: DeleteContext;
  /** The window closed and the delete is on its way: too late to undo. */
  sending: boolean;
}

const scheduled = new Map<string, Scheduled>();
const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of listeners) listener();
}

/** For views of one post (its page): whether it is deleted, Undo still possible. */
export function subscribeToPendingDeletes(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export const isDeletePending = (postId: string): boolean => scheduled.has(postId);

const toastId = (postId: string) => `post-deleted-${postId}`;

/** Sends the delete; a post already gone (another tab finished it) counts as deleted. */
async function send(postId: string, token: string, keepalive = false): Promise<void> {
  try {
    await deletePost(postId, token, { keepalive });
  } catch (error) {
    if (!(isApiError(error) && error.status === 404)) throw error;
  }
}

function forgetCached(queryClient: QueryClient, postId: string): void {
  queryClient.removeQueries({ queryKey: postKeys.detail(postId), exact: true });
  queryClient.removeQueries({ queryKey: ['comments', postId], exact: true });
}

async function commit(postId: string): Promise<void> {
  const entry = scheduled.get(postId);
  if (!entry || entry.sending) return;
  // Still pending (the post page keeps saying so) until the server answers; Undo is over.
  entry.sending = true;
  const { context, removed, tags } = entry;
  try {
    await send(postId, context.token);
  } catch {
    // Not deleted: it comes back where it was, and the member is told.
    scheduled.delete(postId);
    removePendingDelete(postId);
    restoreRemovedPosts(context.queryClient, removed);
    changed();
    toast.error(postMessages.deleteFailed);
    return;
  }
  scheduled.delete(postId);
  removePendingDelete(postId);
  forgetCached(context.queryClient, postId);
  changed();
  context.afterDelete(tags);
}

/**
 * Takes the post out of every list at once and says "Post Deleted" with an Undo; the server is
 * asked to delete it only when the window closes without Undo (or at once, should the page go
 * away first).
 */
export function deleteWithUndo(postId: string, context: DeleteContext): void {
  if (scheduled.has(postId)) return;
  const tags = tagsOf(findCachedPost(context.queryClient, postId)?.entities ?? []);
  const removed = removePostFromLists(context.queryClient, postId);
  addPendingDelete({ postId, memberId: context.memberId, dueAt: Date.now() + UNDO_WINDOW_MS });
  const timer = setTimeout(() => void commit(postId), UNDO_WINDOW_MS);
  scheduled.set(postId, { timer, removed, tags, context, sending: false });
  changed();
  toast.success(
    <UndoToast
      onUndo={() => {
        undoDelete(postId);
      }}
    />,
    {
      id: toastId(postId),
      duration: UNDO_WINDOW_MS,
    },
  );
}

/** Keeps the post: it goes back into the lists it was taken out of. */
export function undoDelete(postId: string): void {
  const entry = scheduled.get(postId);
  if (!entry || entry.sending) return;
  clearTimeout(entry.timer);
  scheduled.delete(postId);
  removePendingDelete(postId);
  restoreRemovedPosts(entry.context.queryClient, entry.removed);
  changed();
  toast.dismiss(toastId(postId));
}

/** The page goes away: deletes whose window is open are sent now, outliving the page. */
export function sendScheduledDeletes(): void {
  for (const [postId, entry] of scheduled) {
    if (entry.sending) continue;
    clearTimeout(entry.timer);
    scheduled.delete(postId);
    void send(postId, entry.context.token, true).then(() => {
      removePendingDelete(postId);
    });
  }
}

/** Sends a delete left by a page that closed before it went out; leaving was not an Undo. */
async function finishLeftover(postId: string, context: DeleteContext): Promise<void> {
  if (scheduled.has(postId)) return;
  if (!readPendingDeletes().some((entry) => entry.postId === postId)) return; // undone meanwhile
  try {
    await send(postId, context.token);
  } catch {
    return; // unreachable now: tried again at the next start
  }
  removePendingDelete(postId);
  removePostFromLists(context.queryClient, postId);
  forgetCached(context.queryClient, postId);
  context.afterDelete([]);
}

/**
 * At start: the member's deletes that another page left unsent are finished; one whose window
 * is still open (another tab is showing its Undo) is looked at again once that window closes.
 */
export function finishLeftoverDeletes(context: DeleteContext): void {
  const now = Date.now();
  for (const entry of readPendingDeletes()) {
    if (entry.memberId !== context.memberId || scheduled.has(entry.postId)) continue;
    const wait = Math.max(0, entry.dueAt - now + LEFTOVER_GRACE_MS);
    setTimeout(() => void finishLeftover(entry.postId, context), wait);
  }
}
