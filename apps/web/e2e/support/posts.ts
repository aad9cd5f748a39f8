import { deflateSync } from 'node:zlib';
import type { Locator, Page } from 'playwright-core';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A small RGB PNG (a diagonal gradient), made here so the tests need no image files. */
export function gradientPng(width = 48, height = 32): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  const rows: number[] = [];
  for (let y = 0; y < height; y += 1) {
    rows.push(0); // filter: none
    for (let x = 0; x < width; x += 1) {
      rows.push(Math.round((x / width) * 255), Math.round((y / height) * 255), 200);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Calls the API from the page with the stored session's token; resolves with the status. */
export async function callApiAsMember(page: Page, method: string, path: string): Promise<number> {
  return page.evaluate(
    async ({ method: verb, path: url }) => {
      const raw = window.localStorage.getItem('loginDetails');
      const token = raw === null ? '' : (JSON.parse(raw) as { token: string }).token;
      const response = await fetch(url, { method: verb, headers: { authorization: token } });
      return response.status;
    },
    { method, path },
  );
}

export function postCards(page: Page): Locator {
  return page.getByTestId('post-card');
}

/** The post card whose text contains `text`. */
export function postCard(page: Page, text: string | RegExp): Locator {
  return postCards(page).filter({ hasText: text });
}

/** The like count shown on a card. */
export async function likeCount(card: Locator): Promise<number> {
  const text = await card.locator('.post-action--like .post-action__count').innerText();
  return Number.parseInt(text, 10);
}

/** The id of the post a card shows. */
export async function postIdOf(card: Locator): Promise<string> {
  const id = await card.getAttribute('data-post-id');
  if (id === null) throw new Error('The card has no post id.');
  return id;
}
