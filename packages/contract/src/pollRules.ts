// Plain values only (no zod): clients import them without loading the schemas.

/** How many options a poll offers (Mastodon's default limits). */
export const POLL_OPTIONS_MIN = 2;
export const POLL_OPTIONS_MAX = 4;
/** The longest option, in characters. */
export const POLL_OPTION_MAX = 50;
/** How long a poll stays open, in seconds: 5 minutes to 7 days. */
export const POLL_EXPIRES_MIN = 5 * 60;
export const POLL_EXPIRES_MAX = 7 * 24 * 60 * 60;

/** The durations the composer offers, in seconds. */
export const POLL_DURATIONS = [
  { seconds: 5 * 60, label: '5 minutes' },
  { seconds: 30 * 60, label: '30 minutes' },
  { seconds: 60 * 60, label: '1 hour' },
  { seconds: 6 * 60 * 60, label: '6 hours' },
  { seconds: 24 * 60 * 60, label: '1 day' },
  { seconds: 3 * 24 * 60 * 60, label: '3 days' },
  { seconds: 7 * 24 * 60 * 60, label: '7 days' },
] as const;

export const PollMessages = {
  optionCount: `A poll needs ${POLL_OPTIONS_MIN} to ${POLL_OPTIONS_MAX} options.`,
  optionLength: `Each poll option needs 1 to ${POLL_OPTION_MAX} characters.`,
  optionsDistinct: 'Poll options must differ from each other.',
  expiresIn: 'A poll stays open from 5 minutes to 7 days.',
  pollWithImage: 'A post can have an image or a poll, not both.',
  notFound: 'Poll not found.',
  ended: 'This poll has ended.',
  alreadyVoted: 'You have already voted in this poll.',
  noChoice: 'Choose at least one option.',
  oneChoice: 'This poll allows only one choice.',
  badChoice: 'That option is not in this poll.',
  duplicateChoice: 'Each option can be chosen once.',
} as const;
