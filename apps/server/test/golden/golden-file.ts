import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Entry } from './recorder';

export interface GoldenFile {
  /** How the file was made and how to remake it. */
  about: string;
  /** The answers of each part of the test, in the order they were asked. */
  sections: Record<string, Entry[]>;
}

const ABOUT =
  'Answers of the API to a fixed scenario (test/golden/golden.test.ts), normalised: ids, ' +
  'cursors and image hashes are numbered placeholders, times are offsets in ms from the test ' +
  'clock, keys are sorted. Remake with UPDATE_GOLDEN=1 after an intended change of an answer.';

export function readGolden(file: string): GoldenFile | null {
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as GoldenFile;
}

/** Replaces one section of the file (the others are kept), one answer a line. */
export function writeGoldenSection(file: string, name: string, entries: Entry[]): void {
  const sections = { ...readGolden(file)?.sections, [name]: entries };
  // One answer a line: the file stays small, and a changed answer is one changed line.
  const text = Object.entries(sections)
    .map(
      ([key, list]) =>
        `${JSON.stringify(key)}: [\n${list.map((e) => JSON.stringify(e)).join(',\n')}\n]`,
    )
    .join(',\n');
  writeFileSync(file, `{\n"about": ${JSON.stringify(ABOUT)},\n"sections": {\n${text}\n}}\n`);
}

const headerOf = (entry: Entry | undefined) =>
  entry ? `${entry.method} ${entry.url} as ${entry.viewer}` : '(no answer)';

/** Indices of the answers that differ (by their JSON), the missing or extra ones included. */
export function differingIndices(actual: Entry[], expected: Entry[]): number[] {
  const indices: number[] = [];
  for (let i = 0; i < Math.max(actual.length, expected.length); i += 1) {
    if (JSON.stringify(actual[i]) !== JSON.stringify(expected[i])) indices.push(i);
  }
  return indices;
}

/** A line diff (longest common subsequence) of golden and now: '-' golden only, '+' now only. */
function diffLines(before: string[], now: string[]): string[] {
  const width = now.length + 1;
  // common[i * width + j]: the longest common subsequence of before[i..] and now[j..].
  const common = new Int32Array((before.length + 1) * width);
  const at = (i: number, j: number) => common[i * width + j] ?? 0;
  for (let i = before.length - 1; i >= 0; i -= 1) {
    for (let j = now.length - 1; j >= 0; j -= 1) {
      common[i * width + j] =
        before[i] === now[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length || j < now.length) {
    if (i < before.length && j < now.length && before[i] === now[j]) {
      out.push(`    ${before[i] ?? ''}`);
      i += 1;
      j += 1;
    } else if (i < before.length && (j === now.length || at(i + 1, j) >= at(i, j + 1))) {
      out.push(`  - ${before[i] ?? ''}`);
      i += 1;
    } else {
      out.push(`  + ${now[j] ?? ''}`);
      j += 1;
    }
  }
  return out;
}

/** The changed lines of two pretty-printed answers, each with two lines of context. */
function lineDiff(now: unknown, before: unknown, maxLines = 60): string[] {
  const lines = diffLines(
    JSON.stringify(before, null, 2).split('\n'),
    JSON.stringify(now ?? null, null, 2).split('\n'),
  );
  const changed = (k: number) => !lines[k]?.startsWith('    ');
  const near = (k: number) =>
    [-2, -1, 0, 1, 2].some((d) => changed(k + d) && lines[k + d] !== undefined);
  const out: string[] = [];
  let skipped = false;
  for (const [k, line] of lines.entries()) {
    if (near(k)) {
      if (skipped) out.push('    …');
      out.push(line);
      skipped = false;
    } else {
      skipped = true;
    }
  }
  return out.length > maxLines ? [...out.slice(0, maxLines), '    … (more)'] : out;
}

/** A readable report of the first differing answers (- golden, + now). */
export function describeDifferences(actual: Entry[], expected: Entry[], shown = 3): string | null {
  const indices = differingIndices(actual, expected);
  if (indices.length === 0) return null;
  const lines = [
    `${indices.length} of ${expected.length} golden answers differ (now ${actual.length} answers).`,
    'Remake golden.json with UPDATE_GOLDEN=1 only if the change is intended.',
  ];
  for (const i of indices.slice(0, shown)) {
    const now = actual[i];
    const before = expected[i];
    lines.push('', `#${i}: ${headerOf(before)}`);
    if (headerOf(now) !== headerOf(before)) lines.push(`   now: ${headerOf(now)}`);
    lines.push(...lineDiff(now, before));
  }
  if (indices.length > shown) {
    lines.push(
      '',
      'Also differing:',
      ...indices.slice(shown, shown + 20).map((i) => `  #${i}: ${headerOf(expected[i])}`),
    );
  }
  return lines.join('\n');
}
