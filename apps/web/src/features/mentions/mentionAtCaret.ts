import { mayStartMention } from '@perch/contract';

/** The @mention being typed: from its `@` to the end of its name, and the name up to the caret. */
export interface MentionDraft {
  /** Index of the `@`. */
  start: number;
  /** Index after the last name character (which may lie after the caret). */
  end: number;
  /** The name typed so far: between the `@` and the caret. */
  query: string;
}

/** Longest username (as in the contract's mention rule). */
export const MENTION_NAME_MAX = 30;

const NAME_CHARACTER = /[A-Za-z0-9_]/;

/**
 * The mention the caret is in, when it stands right after `@` and 1 to 30 name characters
 * (ASCII letters, digits, `_`) and that `@` may start a mention. Null otherwise.
 */
export function mentionAtCaret(text: string, caret: number): MentionDraft | null {
  if (caret < 1 || caret > text.length) return null;
  let nameStart = caret;
  while (nameStart > 0 && NAME_CHARACTER.test(text.charAt(nameStart - 1))) {
    nameStart -= 1;
    if (caret - nameStart > MENTION_NAME_MAX) return null;
  }
  const at = nameStart - 1;
  if (nameStart === caret || at < 0 || text.charAt(at) !== '@') return null;
  // The contract's rule: no mention right after a word character (e-mail addresses, paths).
  if (!mayStartMention(text, at)) return null;
  let end = caret;
  while (end < text.length && NAME_CHARACTER.test(text.charAt(end))) end += 1;
  if (end - nameStart > MENTION_NAME_MAX || text.charAt(end) === '@') return null;
  return { start: at, end, query: text.slice(nameStart, caret) };
}

/**
 * The text with the mention replaced by `@username` and a space (unless a space follows
 * already), and the caret placed after that space.
 */
export function insertMention(
  text: string,
  draft: MentionDraft,
  username: string,
): { text: string; caret: number } {
  const after = text.slice(draft.end);
  const spaced = /^\s/.test(after);
  const inserted = `@${username}${spaced ? '' : ' '}`;
  return {
    text: text.slice(0, draft.start) + inserted + after,
    caret: draft.start + inserted.length + (spaced ? 1 : 0),
  };
}
