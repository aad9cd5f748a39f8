import type { PublishedEvent } from '@perch/contract';
import { createInvalidation, type ReadModelViews } from '../src/read-model';

const nothing = (): void => undefined;

/** Views that drop nothing: a test states only those it watches. */
const NO_VIEWS: ReadModelViews = {
  posts: { forget: nothing, rewritten: nothing, forgetAuthor: nothing, forgetAll: nothing },
  viewerStates: { forget: nothing },
  members: {
    profileChanged: nothing,
    countsChanged: nothing,
    followsChanged: nothing,
    memberDeleted: nothing,
  },
  comments: {
    postChanged: nothing,
    votesChanged: nothing,
    authorChanged: nothing,
    memberDeleted: nothing,
  },
  relations: { forget: nothing },
};

/**
 * Hands events to the invalidation table over `views`, as the relay does in a process that did
 * not make the change.
 */
export function handOnTo(
  views: Partial<ReadModelViews>,
): (events: readonly PublishedEvent[]) => void {
  return createInvalidation({ ...NO_VIEWS, ...views }, (error) => {
    throw error;
  });
}
