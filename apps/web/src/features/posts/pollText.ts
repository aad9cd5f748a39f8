import type { Poll } from '@perch/contract';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const plural = (count: number, one: string) => `${String(count)} ${one}${count === 1 ? '' : 's'}`;

/** How long the poll stays open, in its largest whole unit: '2 days left', or 'Closed'. */
export function timeLeft(poll: Pick<Poll, 'expiresAt' | 'expired'>, now = Date.now()): string {
  const left = Date.parse(poll.expiresAt) - now;
  if (poll.expired || left <= 0) return 'Closed';
  if (left >= DAY) return `${plural(Math.floor(left / DAY), 'day')} left`;
  if (left >= HOUR) return `${plural(Math.floor(left / HOUR), 'hour')} left`;
  return `${plural(Math.max(1, Math.floor(left / MINUTE)), 'minute')} left`;
}

/** An option's share of the votes, in whole percent (0 with no votes). */
export function percentOf(votes: number, total: number): number {
  return total === 0 ? 0 : Math.round((votes / total) * 100);
}

/** The poll's footer: 'N votes · 2 days left' (voters counted in a multiple-choice poll). */
export function pollSummary(poll: Poll, now = Date.now()): string {
  const counted = poll.multiple
    ? plural(poll.votersCount, 'voter')
    : plural(poll.votesCount, 'vote');
  return `${counted} · ${timeLeft(poll, now)}`;
}
