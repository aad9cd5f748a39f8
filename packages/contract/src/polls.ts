import { z } from 'zod';
import { countCharacters } from './text';
import {
  POLL_EXPIRES_MAX,
  POLL_EXPIRES_MIN,
  POLL_OPTION_MAX,
  POLL_OPTIONS_MAX,
  POLL_OPTIONS_MIN,
  PollMessages,
} from './pollRules';

/** A poll as its post is created with it (spaces around options dropped). */
export const pollInputSchema = z.object({
  options: z
    .array(
      z
        .string({ error: PollMessages.optionLength })
        .transform((text) => text.trim())
        .refine((text) => text !== '' && countCharacters(text) <= POLL_OPTION_MAX, {
          message: PollMessages.optionLength,
        }),
      { error: PollMessages.optionCount },
    )
    .min(POLL_OPTIONS_MIN, PollMessages.optionCount)
    .max(POLL_OPTIONS_MAX, PollMessages.optionCount)
    .refine((options) => new Set(options).size === options.length, {
      message: PollMessages.optionsDistinct,
    }),
  /** Seconds from now until it closes. */
  expiresIn: z
    .number({ error: PollMessages.expiresIn })
    .int(PollMessages.expiresIn)
    .min(POLL_EXPIRES_MIN, PollMessages.expiresIn)
    .max(POLL_EXPIRES_MAX, PollMessages.expiresIn),
  /** Whether a voter may pick more than one option. */
  multiple: z.boolean({ error: 'multiple must be true or false.' }).optional(),
});
export type PollInput = z.input<typeof pollInputSchema>;

/**
 * A poll as the viewer sees it (Mastodon's shape). An option's `votesCount` is null until the
 * viewer voted or the poll ended, except for its author; the totals always show.
 */
export const pollSchema = z.object({
  id: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
  multiple: z.boolean(),
  /** Votes over all options (a voter of a multiple-choice poll may cast several). */
  votesCount: z.number().int(),
  /** Members who voted. */
  votersCount: z.number().int(),
  options: z.array(z.object({ title: z.string(), votesCount: z.number().int().nullable() })),
  /** Whether the viewer voted. */
  voted: z.boolean(),
  /** The positions (from 0) the viewer chose; empty when they did not vote. */
  ownVotes: z.array(z.number().int()),
});
export type Poll = z.infer<typeof pollSchema>;

export const pollResponseSchema = z.object({ poll: pollSchema });
export type PollResponse = z.infer<typeof pollResponseSchema>;

export const pollIdParamsSchema = z.object({ pollId: z.string().min(1).max(64) });

/** A vote: the positions (from 0) of the options chosen, one unless the poll is multiple. */
export const pollVoteBodySchema = z.object({
  choices: z
    .array(z.number({ error: PollMessages.badChoice }).int(PollMessages.badChoice), {
      error: PollMessages.noChoice,
    })
    .min(1, PollMessages.noChoice)
    .max(POLL_OPTIONS_MAX, PollMessages.badChoice)
    .refine((choices) => new Set(choices).size === choices.length, {
      message: PollMessages.duplicateChoice,
    }),
});
export type PollVoteBody = z.input<typeof pollVoteBodySchema>;
