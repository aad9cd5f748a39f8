import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sniffImageKind } from '../../src/modules/media/media.image';
import { isValidMediaKey } from '../../src/lib/media-key';
import { DiskMediaStore } from '../../src/modules/media/media.store';
import {
  animatedGif,
  filesUnder,
  jpegWithGps,
  pdf,
  png,
  svgWithScript,
  text,
  webp,
} from './fixtures';

const root = mkdtempSync(path.join(os.tmpdir(), 'perch-media-store-'));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('sniffImageKind', () => {
  it('recognises the four kinds by their first bytes', async () => {
    expect(sniffImageKind(await jpegWithGps(8, 8))).toBe('jpeg');
    expect(sniffImageKind(await png(8, 8))).toBe('png');
    expect(sniffImageKind(await webp(8, 8))).toBe('webp');
    expect(sniffImageKind(await animatedGif(2, 8, 8))).toBe('gif');
  });

  it('recognises nothing else', () => {
    for (const data of [
      text,
      svgWithScript,
      pdf,
      Buffer.alloc(0),
      Buffer.from('GIF8'),
      Buffer.from('RIFF0000WAVE'),
    ]) {
      expect(sniffImageKind(data)).toBeNull();
    }
  });
});

describe('DiskMediaStore', () => {
  const store = new DiskMediaStore(root);

  it('writes whole files under their key and reads them back', async () => {
    await store.put('ab/one.webp', Buffer.from('first'), 'image/webp');
    expect(readFileSync(path.join(root, 'ab', 'one.webp'), 'utf8')).toBe('first');
    await store.put('ab/one.webp', Buffer.from('second'), 'image/webp');
    expect(readFileSync(path.join(root, 'ab', 'one.webp'), 'utf8')).toBe('second');
    expect(await store.exists('ab/one.webp')).toBe(true);
    // No temporary file stays behind.
    expect(filesUnder(root)).toEqual(['ab/one.webp']);
  });

  it('lists what it holds, without hidden folders', async () => {
    await store.put('cd/two.webp', Buffer.from('2'), 'image/webp');
    const keys: string[] = [];
    for await (const object of store.list()) {
      keys.push(object.key);
      expect(object.modifiedAt).toBeGreaterThan(0);
    }
    expect(keys.sort()).toEqual(['ab/one.webp', 'cd/two.webp']);
  });

  it('deletes, and deleting what is not there is fine', async () => {
    await store.delete('cd/two.webp');
    await store.delete('cd/two.webp');
    expect(await store.exists('cd/two.webp')).toBe(false);
  });

  it('refuses keys that leave its folder', async () => {
    for (const key of ['../escape.webp', 'ab/../../x', '/etc/passwd', 'ab/.hidden', '', 'a\\b']) {
      expect(isValidMediaKey(key)).toBe(false);
      await expect(store.put(key, Buffer.from('x'), 'image/webp')).rejects.toThrow(
        /invalid media key/,
      );
      await expect(store.delete(key)).rejects.toThrow(/invalid media key/);
    }
  });
});
