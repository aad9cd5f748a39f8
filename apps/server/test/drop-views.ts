import type { PublishedEvent } from '@perch/contract';
import { invalidate } from '../src/read-model';
import type { PostViewCache } from '../src/read-model/post/view-cache';

/** Hands `event` to the invalidation table with `cards` as the post views, as the relay would. */
export function dropViews(cards: PostViewCache, event: PublishedEvent): void {
  invalidate(event, {
    posts: cards,
    viewerStates: { forget: () => undefined },
    members: {
      profileChanged: () => undefined,
      countsChanged: () => undefined,
      followsChanged: () => undefined,
      memberDeleted: () => undefined,
    },
    comments: {
      postChanged: () => undefined,
      votesChanged: () => undefined,
      authorChanged: () => undefined,
      memberDeleted: () => undefined,
    },
    relations: { forget: () => undefined },
  });
}
