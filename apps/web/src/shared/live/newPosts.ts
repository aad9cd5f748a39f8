/**
 * Posts that followed members published since Home loaded, not shown yet: Home offers them
 * with a 'N new posts' button instead of inserting them (the list never moves on its own).
 */
export interface NewPostsStore {
  /** How many new posts wait. */
  getSnapshot: () => number;
  subscribe: (listener: () => void) => () => void;
  /**
   * A post waits, brought by `source`: its author posting it (the default), or the id of a
   * followed member who reposted it.
   */
  add: (postId: string, source?: string) => void;
  /** A post deleted meanwhile no longer counts. */
  remove: (postId: string) => void;
  /** What brought the post went (a repost undone): it waits only while something else brought it. */
  withdraw: (postId: string, source: string) => void;
  /** Forgets the posts for which `shown` is true (Home loaded them anyway). */
  prune: (shown: (postId: string) => boolean) => void;
  clear: () => void;
}

const POSTED = 'posted';

export function createNewPostsStore(): NewPostsStore {
  // Post id → what brought it.
  const ids = new Map<string, Set<string>>();
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of [...listeners]) listener();
  };
  return {
    getSnapshot: () => ids.size,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    add(postId, source = POSTED) {
      const sources = ids.get(postId);
      if (sources) {
        sources.add(source);
        return;
      }
      ids.set(postId, new Set([source]));
      changed();
    },
    remove(postId) {
      if (ids.delete(postId)) changed();
    },
    withdraw(postId, source) {
      const sources = ids.get(postId);
      if (!sources?.delete(source) || sources.size > 0) return;
      ids.delete(postId);
      changed();
    },
    prune(shown) {
      const before = ids.size;
      for (const id of [...ids.keys()]) if (shown(id)) ids.delete(id);
      if (ids.size !== before) changed();
    },
    clear() {
      if (ids.size === 0) return;
      ids.clear();
      changed();
    },
  };
}
