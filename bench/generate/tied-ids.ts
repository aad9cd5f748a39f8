/** Sorts the ids of rows that share a millisecond, so ids ascend in row order like their times. */
export function sortTiedIds(ids: string[], times: ArrayLike<number>): void {
  let start = 0;
  for (let i = 1; i <= ids.length; i++) {
    if (i === ids.length || times[i] !== times[start]) {
      if (i - start > 1) {
        const run = ids.slice(start, i).sort();
        for (let j = 0; j < run.length; j++) ids[start + j] = run[j] ?? '';
      }
      start = i;
    }
  }
}
