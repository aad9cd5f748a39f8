export const DAY = 86_400_000;
export const YEAR = 365 * DAY;
