const postDateFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
});

/** A post's date as short month, day and year, e.g. "Nov 22, 2026"; empty for an invalid date. */
export function formatPostDate(value: string | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? '' : postDateFormat.format(date);
}
