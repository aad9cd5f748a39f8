import type { Virtualizer, VirtualItem } from '@tanstack/react-virtual';

/** How many cards' heights are remembered (the oldest are forgotten first). */
const MAX_REMEMBERED = 2000;

/**
 * Heights of the cards measured in this page's life, by post id. A feed shown again (Back to
 * Home) lays its cards out with them from the first frame, so the restored scroll position lands
 * on the same cards instead of drifting as estimates are replaced by measurements.
 */
const heights = new Map<string | number | bigint, number>();

export function rememberedCardHeights(): VirtualItem[] {
  return [...heights].map(([key, size]) => ({ key, size, index: 0, start: 0, end: size, lane: 0 }));
}

export function rememberCardHeights(virtualizer: Virtualizer<Window, Element>): void {
  for (const item of virtualizer.measurementsCache) {
    heights.delete(item.key);
    heights.set(item.key, item.size);
  }
  for (const key of heights.keys()) {
    if (heights.size <= MAX_REMEMBERED) break;
    heights.delete(key);
  }
}
