/**
 * A small seeded pseudo-random number generator (sfc32, seeded through splitmix32), so that a
 * generated instance is the same for the same seed on every machine.
 */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** `stream` derives an independent generator per phase, so one phase's draws never shift another's. */
  constructor(seed: number | string, stream = '') {
    let state = hashString(`${String(seed)}/${stream}`);
    const next = () => {
      state = (state + 0x9e3779b9) | 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.float();
  }

  /** Uniform in [0, 1). */
  float(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    const u = 1 - this.float();
    const v = this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  logNormal(sigma: number): number {
    return Math.exp(sigma * this.normal());
  }

  /** Poisson-distributed count (normal approximation for large means). */
  poisson(mean: number): number {
    if (mean <= 0) return 0;
    if (mean > 40) return Math.max(0, Math.round(mean + Math.sqrt(mean) * this.normal()));
    const limit = Math.exp(-mean);
    let k = 0;
    let p = this.float();
    while (p > limit) {
      k++;
      p *= this.float();
    }
    return k;
  }

  /** A function returning floats in [0, 1), for libraries that take one (ulid). */
  get fn(): () => number {
    return () => this.float();
  }
}

function hashString(text: string): number {
  // FNV-1a
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Walker's alias table: draws index i with probability weights[i] / sum(weights) in O(1).
 */
export class AliasTable {
  private readonly probability: Float64Array;
  private readonly alias: Int32Array;

  constructor(weights: ArrayLike<number>) {
    const n = weights.length;
    if (n === 0) throw new Error('alias table over no weights');
    let total = 0;
    for (let i = 0; i < n; i++) total += weights[i] ?? 0;
    this.probability = new Float64Array(n);
    this.alias = new Int32Array(n);
    const scaled = new Float64Array(n);
    const small: number[] = [];
    const large: number[] = [];
    for (let i = 0; i < n; i++) {
      scaled[i] = ((weights[i] ?? 0) * n) / total;
      ((scaled[i] ?? 0) < 1 ? small : large).push(i);
    }
    while (small.length > 0 && large.length > 0) {
      const s = small.pop() ?? 0;
      const l = large.pop() ?? 0;
      this.probability[s] = scaled[s] ?? 0;
      this.alias[s] = l;
      scaled[l] = (scaled[l] ?? 0) + (scaled[s] ?? 0) - 1;
      ((scaled[l] ?? 0) < 1 ? small : large).push(l);
    }
    for (const i of large) this.probability[i] = 1;
    for (const i of small) this.probability[i] = 1;
  }

  draw(prng: Prng): number {
    const n = this.probability.length;
    const x = prng.float() * n;
    const i = Math.floor(x);
    return x - i < (this.probability[i] ?? 1) ? i : (this.alias[i] ?? i);
  }
}

/** Index of the first cumulative weight above `value` (weights given as a running total). */
export function searchCumulative(cumulative: Float64Array, value: number, end = cumulative.length) {
  let lo = 0;
  let hi = end - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((cumulative[mid] ?? 0) > value) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** p-th percentile (0–100) of an ascending-sorted list. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}
