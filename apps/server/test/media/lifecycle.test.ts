import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MediaMessages } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids';
import { lockMediaUrl } from '../../src/modules/media/media.repository';
import {
  assertUsableMediaUrl,
  releaseMediaIfUnused,
  sweepOrphanMedia,
  thumbnailUrlOf,
  uploadMedia,
} from '../../src/modules/media/media.service';
import { createMember, type Member } from '../factories';
import { filePart, jpegWithGps, png } from './fixtures';
import { createMediaTestApp, upload, uploaded, type MediaTestApp } from './media-app';

let t: MediaTestApp;
let alice: Member;
let bob: Member;
let seed = 1000;

beforeAll(async () => {
  t = await createMediaTestApp();
  alice = await createMember(t.app);
  bob = await createMember(t.app);
});
afterAll(async () => {
  await t.close();
});

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

const fileOf = (url: string) => path.join(t.mediaDir, url.replace(/^\/media\//, ''));
const stored = (url: string) => existsSync(fileOf(url));

/** A new picture (never uploaded before) uploaded by a member, optionally back in time. */
async function uploadNew(owner: Member, options: { at?: number } = {}) {
  seed += 1;
  return uploadMedia(t.app.db, t.store, {
    ownerId: owner.user._id,
    data: await png(40, 30, seed),
    purpose: 'post',
    now: options.at,
  });
}

async function postWith(owner: Member, url: string | null): Promise<string> {
  const id = newId();
  const now = Date.now();
  await t.app.db
    .insertInto('posts')
    .values({
      id,
      user_id: owner.user._id,
      content: 'with a picture',
      media_url: url,
      created_at: now,
      updated_at: now,
    })
    .execute();
  // As the posts module writes it: media release asks post_media whether a post shows an image.
  if (url !== null) {
    await t.app.db.insertInto('post_media').values({ post_id: id, position: 0, url }).execute();
  }
  return id;
}

const deletePost = (id: string) => t.app.db.deleteFrom('posts').where('id', '=', id).execute();

const setAvatar = (member: Member, url: string | null) =>
  t.app.db
    .updateTable('users')
    .set({ avatar_url: url })
    .where('id', '=', member.user._id)
    .execute();

const rowsOf = (url: string) =>
  t.app.db.selectFrom('media').select(['user_id', 'created_at']).where('url', '=', url).execute();

async function expectRefused(viewer: Member, url: string) {
  await expect(assertUsableMediaUrl(t.app.db, viewer.user._id, url)).rejects.toMatchObject({
    statusCode: 400,
    message: MediaMessages.notUploaded,
  });
}

describe('assertUsableMediaUrl', () => {
  it('passes no image at all', async () => {
    await assertUsableMediaUrl(t.app.db, alice.user._id, null);
    await assertUsableMediaUrl(t.app.db, alice.user._id, undefined);
  });

  it("passes the member's own uploads", async () => {
    const media = await uploadNew(alice);
    await assertUsableMediaUrl(t.app.db, alice.user._id, media.url);
  });

  it('passes the demo images the demo data shows, and no made-up demo address', async () => {
    await postWith(bob, '/media/demo/sunrise.svg');
    await assertUsableMediaUrl(t.app.db, alice.user._id, '/media/demo/sunrise.svg');
    await expectRefused(alice, '/media/demo/not-there.svg');
  });

  it("refuses another member's upload until they upload the same picture", async () => {
    const picture = await jpegWithGps(50, 50, 77);
    const media = uploaded(await upload(t.app, [filePart(picture)], { token: alice.token }));
    await expectRefused(bob, media.url);
    const again = uploaded(await upload(t.app, [filePart(picture)], { token: bob.token }));
    expect(again.url).toBe(media.url);
    await assertUsableMediaUrl(t.app.db, bob.user._id, media.url);
  });

  it.each([
    ['an outside address', 'https://images.example.com/cat.png'],
    ['a protocol-relative address', '//images.example.com/cat.png'],
    ['a data URL', 'data:image/png;base64,iVBORw0KGgo='],
    ['a path out of the media folder', '/media/../secrets/jwt-secret'],
    ['a demo path that climbs out', '/media/demo/../../perch.db'],
    ['a made-up upload address', `/media/ab/ab${'0'.repeat(62)}.webp`],
    ['an address whose folder does not match its hash', `/media/cd/ab${'0'.repeat(62)}.webp`],
    ['another page of the site', '/api/auth/me'],
    ['an empty string', ''],
  ])('refuses %s', async (_, url) => {
    await expectRefused(alice, url);
  });

  it('refuses a thumbnail address as an image', async () => {
    const media = await uploadNew(alice);
    await expectRefused(alice, media.thumbnailURL);
  });
});

describe('releaseMediaIfUnused', () => {
  it('removes an unused upload: file, thumbnail and records', async () => {
    const media = await uploadNew(alice);
    expect(stored(media.url) && stored(media.thumbnailURL)).toBe(true);
    expect(await releaseMediaIfUnused(t.app.db, t.store, media.url)).toBe(true);
    expect(stored(media.url)).toBe(false);
    expect(stored(media.thumbnailURL)).toBe(false);
    expect(await rowsOf(media.url)).toEqual([]);
    await expectRefused(alice, media.url);
  });

  it('keeps an image a post shows, and removes it once the post is gone', async () => {
    const media = await uploadNew(alice);
    const postId = await postWith(alice, media.url);
    expect(await releaseMediaIfUnused(t.app.db, t.store, media.url)).toBe(false);
    expect(stored(media.url)).toBe(true);
    expect(await rowsOf(media.url)).toHaveLength(1);

    await deletePost(postId);
    expect(await releaseMediaIfUnused(t.app.db, t.store, media.url)).toBe(true);
    expect(stored(media.url)).toBe(false);
  });

  it("keeps an image someone else's post or profile shows", async () => {
    const picture = await png(30, 30, 4242);
    const mine = uploaded(
      await upload(t.app, [filePart(picture, 'a.png')], { token: alice.token }),
    );
    uploaded(await upload(t.app, [filePart(picture, 'b.png')], { token: bob.token }));
    await setAvatar(bob, mine.url);
    expect(await releaseMediaIfUnused(t.app.db, t.store, mine.url)).toBe(false);
    expect(stored(mine.url)).toBe(true);

    await setAvatar(bob, null);
    expect(await releaseMediaIfUnused(t.app.db, t.store, mine.url)).toBe(true);
    expect(stored(mine.url)).toBe(false);
  });

  it('leaves demo images, other addresses and null alone', async () => {
    const demoDir = path.join(t.mediaDir, 'demo');
    mkdirSync(demoDir, { recursive: true });
    writeFileSync(path.join(demoDir, 'release.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect(await releaseMediaIfUnused(t.app.db, t.store, '/media/demo/release.svg')).toBe(false);
    expect(existsSync(path.join(demoDir, 'release.svg'))).toBe(true);
    expect(await releaseMediaIfUnused(t.app.db, t.store, 'https://example.com/a.png')).toBe(false);
    expect(await releaseMediaIfUnused(t.app.db, t.store, '/media/../perch.db')).toBe(false);
    expect(await releaseMediaIfUnused(t.app.db, t.store, null)).toBe(false);
  });

  it('lets the same picture be uploaded again afterwards', async () => {
    const picture = await png(20, 20, 5151);
    const first = uploaded(await upload(t.app, [filePart(picture)], { token: alice.token }));
    expect(await releaseMediaIfUnused(t.app.db, t.store, first.url)).toBe(true);
    const second = uploaded(await upload(t.app, [filePart(picture)], { token: alice.token }));
    expect(second.url).toBe(first.url);
    expect(stored(second.url) && stored(second.thumbnailURL)).toBe(true);
    await assertUsableMediaUrl(t.app.db, alice.user._id, second.url);
  });
});

describe('sweepOrphanMedia', () => {
  it('removes old unused uploads and keeps used or recent ones', async () => {
    const now = Date.now();
    const oldUnused = await uploadNew(alice, { at: now - 2 * DAY });
    const oldPosted = await uploadNew(alice, { at: now - 2 * DAY });
    const oldAvatar = await uploadNew(bob, { at: now - 3 * DAY });
    const recentUnused = await uploadNew(alice, { at: now - HOUR });
    await postWith(alice, oldPosted.url);
    await setAvatar(bob, oldAvatar.url);

    const result = await sweepOrphanMedia(t.app.db, t.store, { now });
    expect(result.removed).toBeGreaterThanOrEqual(1);

    expect(stored(oldUnused.url)).toBe(false);
    expect(stored(oldUnused.thumbnailURL)).toBe(false);
    expect(await rowsOf(oldUnused.url)).toEqual([]);
    for (const kept of [oldPosted, oldAvatar, recentUnused]) {
      expect(stored(kept.url)).toBe(true);
      expect(stored(kept.thumbnailURL)).toBe(true);
      expect(await rowsOf(kept.url)).toHaveLength(1);
    }
    await setAvatar(bob, null);
  });

  it('keeps an old upload that a member has just uploaded again', async () => {
    const now = Date.now();
    const picture = await png(24, 24, 6161);
    const first = await uploadMedia(t.app.db, t.store, {
      ownerId: alice.user._id,
      data: picture,
      purpose: 'post',
      now: now - 2 * DAY,
    });
    await uploadMedia(t.app.db, t.store, {
      ownerId: bob.user._id,
      data: picture,
      purpose: 'post',
      now: now - 5 * 60 * 1000,
    });
    await sweepOrphanMedia(t.app.db, t.store, { now });
    expect(stored(first.url)).toBe(true);
    expect(await rowsOf(first.url)).toHaveLength(2);

    // A day later nobody has used it: both records and the file go.
    await sweepOrphanMedia(t.app.db, t.store, { now: now + DAY });
    expect(stored(first.url)).toBe(false);
    expect(await rowsOf(first.url)).toEqual([]);
  });

  it('honours the grace period it is given', async () => {
    const now = Date.now();
    const media = await uploadNew(alice, { at: now - 2 * HOUR });
    await sweepOrphanMedia(t.app.db, t.store, { now, olderThanMs: 3 * HOUR });
    expect(stored(media.url)).toBe(true);
    await sweepOrphanMedia(t.app.db, t.store, { now, olderThanMs: HOUR });
    expect(stored(media.url)).toBe(false);
  });

  it('removes old files no record knows, and old leftovers of unfinished writes', async () => {
    const hash = 'e1'.padEnd(64, '7');
    const unrecorded = `/media/e1/${hash}.webp`;
    const unrecordedThumb = thumbnailUrlOf(unrecorded) ?? '';
    await t.store.put(`e1/${hash}.webp`, Buffer.from('old bytes'), 'image/webp');
    await t.store.put(`e1/${hash}.thumb.webp`, Buffer.from('old thumb'), 'image/webp');
    const recentHash = 'e2'.padEnd(64, '8');
    await t.store.put(`e2/${recentHash}.webp`, Buffer.from('new bytes'), 'image/webp');
    const incomplete = path.join(t.mediaDir, '.incoming', 'crashed.part');
    writeFileSync(incomplete, 'half a picture');
    const demoFile = path.join(t.mediaDir, 'demo', 'sweep.svg');
    mkdirSync(path.dirname(demoFile), { recursive: true });
    writeFileSync(demoFile, '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const twoDaysAgo = new Date(Date.now() - 2 * DAY);
    for (const file of [fileOf(unrecorded), fileOf(unrecordedThumb), incomplete, demoFile]) {
      utimesSync(file, twoDaysAgo, twoDaysAgo);
    }

    const result = await sweepOrphanMedia(t.app.db, t.store);
    expect(result.removedUnrecorded).toBe(1);
    expect(result.removedIncomplete).toBe(1);
    expect(stored(unrecorded)).toBe(false);
    expect(stored(unrecordedThumb)).toBe(false);
    expect(existsSync(incomplete)).toBe(false);
    expect(stored(`/media/e2/${recentHash}.webp`)).toBe(true);
    expect(existsSync(demoFile)).toBe(true);
  });

  it('keeps a file no record knows while a post still shows it', async () => {
    const hash = 'e3'.padEnd(64, '9');
    const url = `/media/e3/${hash}.webp`;
    await t.store.put(`e3/${hash}.webp`, Buffer.from('bytes'), 'image/webp');
    const old = new Date(Date.now() - 2 * DAY);
    utimesSync(fileOf(url), old, old);
    const postId = await postWith(alice, url);
    await sweepOrphanMedia(t.app.db, t.store);
    expect(stored(url)).toBe(true);
    await deletePost(postId);
    await sweepOrphanMedia(t.app.db, t.store);
    expect(stored(url)).toBe(false);
  });

  it('removes the records of a member who is gone along with the member', async () => {
    const carol = await createMember(t.app);
    const media = await uploadNew(carol, { at: Date.now() - 2 * DAY });
    await t.app.db.deleteFrom('users').where('id', '=', carol.user._id).execute();
    expect(await rowsOf(media.url)).toEqual([]);
    // The file is now unrecorded: the pass over the store removes it.
    const old = new Date(Date.now() - 2 * DAY);
    utimesSync(fileOf(media.url), old, old);
    utimesSync(fileOf(media.thumbnailURL), old, old);
    await sweepOrphanMedia(t.app.db, t.store);
    expect(stored(media.url)).toBe(false);
    expect(stored(media.thumbnailURL)).toBe(false);
  });
});

describe('working on one image at a time', () => {
  it('holds an upload back while the same image is being released', async () => {
    const picture = await png(28, 28, 7171);
    const first = await uploadMedia(t.app.db, t.store, {
      ownerId: alice.user._id,
      data: picture,
      purpose: 'post',
    });
    let finished = false;
    let pending: Promise<unknown> = Promise.resolve();
    await t.app.db.transaction().execute(async (trx) => {
      await lockMediaUrl(trx, first.url, 'exclusive');
      pending = uploadMedia(t.app.db, t.store, {
        ownerId: bob.user._id,
        data: picture,
        purpose: 'post',
      }).then(() => {
        finished = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(finished).toBe(false);
    });
    await pending;
    expect(finished).toBe(true);
    expect(await rowsOf(first.url)).toHaveLength(2);
  });
});
