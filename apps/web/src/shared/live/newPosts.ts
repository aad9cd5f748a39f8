/**
 * Posts that followed members published since Home loaded, not shown yet: Home offers them
 * with a 'N new posts' button instead of inserting them (the list never moves on its own).
 */
export interface NewPostsStore {
  /** How many new posts wait. */
  getSnapshot: () => number;
  subscribe: (listener: () => void) => () => void;
  add: (postId: string) => void;
  /** A post deleted meanwhile no longer counts. */
  remove: (postId: string) => void;
  /** Forgets the posts for which `shown` is true (Home loaded them anyway). */
  prune: (shown: (postId: string) => boolean) => void;
  clear: () => void;
}

export function createNewPostsStore(): NewPostsStore {
  const ids = new Set<string>();
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
    add(postId) {
      if (ids.has(postId)) return;
      ids.add(postId);
      changed();
    },
    remove(postId) {
      if (ids.delete(postId)) changed();
    },
    prune(shown) {
      const before = ids.size;
      for (const id of [...ids]) if (shown(id)) ids.delete(id);
      if (ids.size !== before) changed();
    },
    clear() {
      if (ids.size === 0) return;
      ids.clear();
      changed();
    },
  };
}
