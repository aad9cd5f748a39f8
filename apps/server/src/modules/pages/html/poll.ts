import type { Poll } from '@perch/contract';
import { html, type Html } from './html';
import { counted, timeOf } from './parts';

/** A share of the votes, rounded to a whole percent. */
const percentOf = (votes: number, total: number) =>
  total === 0 ? 0 : Math.round((votes / total) * 100);

/**
 * A post's poll on its public page: its options, and their results once it ended (a visitor sees
 * them then, as members who did not vote do); voting needs a member.
 */
export function pollSection(poll: Poll | null): Html | null {
  if (poll === null) return null;
  const options = poll.options.map((option) =>
    option.votesCount === null
      ? html`<li>${option.title}</li>`
      : html`<li>
          <span class="public-poll-share">${percentOf(option.votesCount, poll.votesCount)}%</span>
          ${option.title}
        </li>`,
  );
  return html`<section class="public-poll" aria-label="Poll">
    <ul class="public-poll-options">
      ${options}
    </ul>
    <p class="public-poll-meta">
      ${counted(poll.votersCount, 'voter', 'voters')} ·
      ${poll.expired ? 'Closed' : html`Ends ${timeOf(poll.expiresAt)}`}
    </p>
  </section>`;
}
