import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppConfig } from '../../src/app/config';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../helpers';
import { testDatabaseKind } from '../test-database';
import { describeDifferences, readGolden, writeGoldenSection } from './golden-file';
import { Recorder, type Entry } from './recorder';
import {
  deleteAccount,
  exportArchive,
  password,
  readNotifications,
  sessions,
} from './scenario-account';
import { readDemo, readDemoSearch } from './scenario-demo';
import { interact } from './scenario-interactions';
import { readAll, readErrors, readPages } from './scenario-reads';
import { buildInstance } from './scenario-writes';

const GOLDEN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden.json');

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
  vi.useRealTimers();
});

/**
 * A fresh app on a fresh database. The app reads a clock of the test's (see Recorder), from its
 * start: every request 100 ms after the one before.
 */
async function freshApp(overrides: Partial<AppConfig> = {}): Promise<Recorder> {
  Recorder.startClock();
  t = await createTestApp(overrides);
  return new Recorder(t.app);
}

/** Builds the instance through the API, then reads it as every viewer. */
async function recordScenario(): Promise<Entry[]> {
  const r = await freshApp();
  const world = await buildInstance(r);
  await interact(r, world);
  await readAll(r, world);
  await readPages(r, world);
  await readErrors(r);
  await readNotifications(r);
  await sessions(r);
  await password(r);
  await exportArchive(r);
  await deleteAccount(r, world);
  return r.entries;
}

/** The demo community's reads, and apart from them its search (the databases order it apart). */
async function recordDemo(): Promise<{ common: Entry[]; search: Entry[] }> {
  const r = await freshApp({ seedDemoData: true });
  await readDemo(r);
  const common = r.entries.length;
  await readDemoSearch(r);
  return { common: r.entries.slice(0, common), search: r.entries.slice(common) };
}

/** Compares with the file's section, or rewrites it with UPDATE_GOLDEN=1. */
function compareWithGolden(section: string, entries: Entry[]): void {
  const expected = readGolden(GOLDEN)?.sections[section];
  if (process.env.UPDATE_GOLDEN === '1') {
    writeGoldenSection(GOLDEN, section, entries);
    return;
  }
  if (!expected) throw new Error(`${GOLDEN} has no section ${section}: run with UPDATE_GOLDEN=1`);
  const report = describeDifferences(entries, expected);
  if (report !== null) expect.fail(report);
}

describe('golden answers', () => {
  it('answers every call of the scenario as recorded in golden.json', async () => {
    compareWithGolden('scenario', await recordScenario());
    // About 420 requests: a few seconds, more on a busy machine.
  }, 90_000);

  it('answers reads of the demo community as recorded in golden.json', async () => {
    const { common, search } = await recordDemo();
    compareWithGolden('demo', common);
    compareWithGolden(`demo-search:${testDatabaseKind()}`, search);
  });
});
