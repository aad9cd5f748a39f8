import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { Draft, DraftImage, DraftPoll } from './draftStore';

/** What a draft keeps of the editor. */
export interface DraftContent {
  text: string;
  image: File | null;
  /** The image's description. */
  altText: string;
  removeImage: boolean;
  /** The content warning; null while its field is closed. */
  contentWarning: string | null;
  /** Whether the image is marked sensitive. */
  sensitive: boolean;
  /** The album in order (absent on drafts kept before albums). */
  media?: DraftImage[];
  /** The new post's poll while its fields are open (absent on drafts kept before polls). */
  poll?: DraftPoll | null;
}

const EMPTY: DraftContent = {
  text: '',
  image: null,
  altText: '',
  removeImage: false,
  contentWarning: null,
  sensitive: false,
  media: [],
  poll: null,
};

/** Typing settles this long before the draft is written. */
const SAVE_DELAY_MS = 400;

// The store (and IndexedDB) load with the first editor, outside the initial JavaScript.
const store = () => import('./draftStore');

export interface UseDraftOptions {
  memberId: string;
  /** The post Edit Post changes; null for the new-post box. */
  postId: string | null;
  content: DraftContent;
  /** Puts a kept draft back into the editor. */
  restore: (content: DraftContent) => void;
  /** Content that needs no draft: an empty box, or a post as it is. */
  isPristine: (content: DraftContent) => boolean;
}

/** The draft an editor opens with: Edit Post's one of this post, or the newest new-post draft. */
async function readKeptDraft(memberId: string, postId: string | null): Promise<Draft | undefined> {
  const { editDraftId, listDrafts, readDraft } = await store();
  return postId === null
    ? (await listDrafts(memberId))[0]
    : await readDraft(editDraftId(memberId, postId));
}

/** Writes what waits at once when the page goes away or the editor closes. */
function useFlushOnLeave(flush: () => Promise<void>): void {
  useEffect(() => {
    const onPageHide = () => void flush();
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      void flush();
    };
  }, [flush]);
}

interface WriteRefs {
  /** Whether the kept draft was read (content before that is the editor's first state). */
  loadedRef: RefObject<boolean>;
  pendingRef: RefObject<DraftContent | null>;
  timerRef: RefObject<ReturnType<typeof setTimeout> | null>;
}

/** Typing: written once it settles, and at once when the editor closes or the page goes away. */
function useWriteWhenSettled(
  content: DraftContent,
  flush: () => Promise<void>,
  { loadedRef, pendingRef, timerRef }: WriteRefs,
): void {
  useEffect(() => {
    if (!loadedRef.current) return;
    pendingRef.current = content;
    if (timerRef.current !== null) clearTimeout(timerRef.current);
    timerRef.current = setTimeout(() => void flush(), SAVE_DELAY_MS);
  }, [content, flush, loadedRef, pendingRef, timerRef]);

  useFlushOnLeave(flush);
}

/**
 * Keeps the editor's content as a draft on this device while the member types, and puts it
 * back when the editor opens again. The new-post box keeps any number of drafts (switch with
 * `open`, or open null to start another); Edit Post keeps one per post.
 */
export function useDraft({ memberId, postId, content, restore, isPristine }: UseDraftOptions) {
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [currentId, setCurrentId] = useState<string | null>(null);
  const currentIdRef = useRef<string | null>(null);
  const loadedRef = useRef(false);
  const pendingRef = useRef<DraftContent | null>(null);
  const timerRef = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef({ restore, isPristine, content });
  useLayoutEffect(() => {
    latest.current = { restore, isPristine, content };
  });

  const setCurrent = (id: string | null) => {
    currentIdRef.current = id;
    setCurrentId(id);
  };

  const refreshList = useCallback(async () => {
    if (postId !== null) return;
    const { listDrafts } = await store();
    setDrafts(await listDrafts(memberId));
  }, [memberId, postId]);

  /** Writes (or, for pristine content, removes) the current draft now. */
  const persist = useCallback(
    async (value: DraftContent) => {
      const { deleteDraft, editDraftId, newDraftId, saveDraft } = await store();
      const id = currentIdRef.current;
      if (latest.current.isPristine(value)) {
        if (id !== null) await deleteDraft(id);
        if (postId === null) setCurrent(null);
      } else {
        const draftId = id ?? (postId === null ? newDraftId() : editDraftId(memberId, postId));
        setCurrent(draftId);
        await saveDraft({ id: draftId, memberId, postId, ...value, updatedAt: Date.now() });
      }
      await refreshList();
    },
    [memberId, postId, refreshList],
  );

  const flush = useCallback(() => {
    if (timerRef.current !== null) clearTimeout(timerRef.current);
    timerRef.current = null;
    const value = pendingRef.current;
    pendingRef.current = null;
    return value === null ? Promise.resolve() : persist(value);
  }, [persist]);

  // Opening: the Edit Post draft of this post, or the newest new-post draft.
  useEffect(() => {
    const closed = new AbortController();
    void (async () => {
      const { editDraftId } = await store();
      const kept = await readKeptDraft(memberId, postId);
      if (closed.signal.aborted) return;
      loadedRef.current = true;
      if (postId !== null) setCurrent(editDraftId(memberId, postId));
      const typed = latest.current.content;
      if (!latest.current.isPristine(typed)) {
        // Typed before the drafts were read: that text wins, kept as a draft of its own.
        await persist(typed);
        return;
      }
      if (kept) {
        setCurrent(kept.id);
        // Drafts kept by an earlier version may lack newer fields.
        latest.current.restore({ ...EMPTY, ...kept });
      }
      await refreshList();
    })();
    return () => {
      closed.abort();
    };
  }, [memberId, postId, persist, refreshList]);

  useWriteWhenSettled(content, flush, { loadedRef, pendingRef, timerRef });

  /** Forgets the current draft (after Post, or on Cancel). */
  const clear = useCallback(async () => {
    if (timerRef.current !== null) clearTimeout(timerRef.current);
    timerRef.current = null;
    pendingRef.current = null;
    const id = currentIdRef.current;
    if (postId === null) setCurrent(null);
    if (id !== null) await (await store()).deleteDraft(id);
    await refreshList();
  }, [postId, refreshList]);

  /** Keeps the current draft and puts another one (or, with null, an empty box) in the editor. */
  const open = useCallback(
    async (draft: Draft | null) => {
      await flush();
      setCurrent(draft?.id ?? null);
      latest.current.restore({ ...EMPTY, ...draft });
    },
    [flush],
  );

  /** Removes a kept draft; the one in the editor empties it. */
  const discard = useCallback(
    async (draft: Draft) => {
      if (draft.id === currentIdRef.current) {
        await clear();
        latest.current.restore(EMPTY);
        return;
      }
      await (await store()).deleteDraft(draft.id);
      await refreshList();
    },
    [clear, refreshList],
  );

  return { drafts, currentId, clear, open, discard };
}
