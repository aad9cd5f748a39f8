/**
 * Posts the member deleted whose Undo window is still open, kept in localStorage so that a
 * delete is never lost to a reload or a closed tab: the next start of the app (in any tab)
 * finishes what is left.
 */
export interface PendingDelete {
  postId: string;
  memberId: string;
  /** When the window closes (ms since the epoch). */
  dueAt: number;
}

const KEY = 'perch.pendingDeletes';

function isPendingDelete(value: unknown): value is PendingDelete {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<PendingDelete>;
  return (
    typeof entry.postId === 'string' &&
    typeof entry.memberId === 'string' &&
    typeof entry.dueAt === 'number'
  );
}

export function readPendingDeletes(): PendingDelete[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isPendingDelete) : [];
  } catch {
    return [];
  }
}

function write(entries: PendingDelete[]): void {
  try {
    if (entries.length === 0) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, JSON.stringify(entries));
  } catch {
    // Storage full or refused: the delete still happens when the window closes in this tab.
  }
}

export function addPendingDelete(entry: PendingDelete): void {
  write([...readPendingDeletes().filter((item) => item.postId !== entry.postId), entry]);
}

export function removePendingDelete(postId: string): void {
  write(readPendingDeletes().filter((item) => item.postId !== postId));
}
