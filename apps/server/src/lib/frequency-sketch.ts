/**
 * How often each key was asked for lately, approximately: a count-min sketch (four rows of 4-bit
 * counts, each key's count the least of its four) halved every `10 × capacity` additions so that
 * old popularity fades. It is what TinyLFU, the admission policy of Caffeine and Ristretto, weighs
 * a cache's candidate against the value it would evict with. Its memory is fixed and adding a key
 * allocates nothing, so the keys of a scan never reach the garbage collector's old space.
 */
export function frequencySketch(capacity: number) {
  const width = powerOfTwoAtLeast(Math.max(64, capacity * 2));
  const mask = width - 1;
  const counts = new Uint8Array(width * ROWS);
  const sampleSize = Math.max(10, capacity * 10);
  let additions = 0;

  function halve(): void {
    for (let index = 0; index < counts.length; index++) counts[index] = (counts[index] ?? 0) >> 1;
    additions >>= 1;
  }

  return {
    /** Counts one request for `key`. */
    add(key: string): void {
      const first = hashOf(key);
      const step = secondHash(first);
      let grew = false;
      for (let row = 0; row < ROWS; row++) {
        const index = row * width + ((first + row * step) & mask);
        const count = counts[index] ?? 0;
        if (count < MAX_COUNT) {
          counts[index] = count + 1;
          grew = true;
        }
      }
      if (grew && ++additions >= sampleSize) halve();
    },
    /** About how many times `key` was asked for lately (0–15). */
    of(key: string): number {
      const first = hashOf(key);
      const step = secondHash(first);
      let least = MAX_COUNT;
      for (let row = 0; row < ROWS; row++) {
        least = Math.min(least, counts[row * width + ((first + row * step) & mask)] ?? 0);
      }
      return least;
    },
  };
}

export type FrequencySketch = ReturnType<typeof frequencySketch>;

const ROWS = 4;
const MAX_COUNT = 15;

function powerOfTwoAtLeast(value: number): number {
  let power = 1;
  while (power < value) power *= 2;
  return power;
}

/** FNV-1a over the key's UTF-16 code units. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) {
    hash ^= key.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** An odd step derived from the first hash: the rows' indices are first + row × step. */
function secondHash(first: number): number {
  const mixed = Math.imul(first ^ (first >>> 16), 0x45d9f3b);
  return ((mixed ^ (mixed >>> 16)) | 1) >>> 0;
}
