/** The benchmark's output: one line at a time on stdout. */
export const log = (line = ''): void => {
  console.log(line);
};

/** Seconds since `since` (a `performance.now()`), to a tenth. */
export const secondsSince = (since: number): string =>
  ((performance.now() - since) / 1000).toFixed(1);
