import { firstLinkOf, type PreviewCard } from '@perch/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import type { DurableConsumer } from '../../platform/events/consumer';
import type { EventRecorder, Transact } from '../../platform/events/transactions';
import type { GuardedFetch } from '../../platform/infra/guarded-fetch';
import type { ProcessedImage } from '../media/media.image';
import type { MediaService, StoredImage } from '../media/media.service';
import type { PostsService } from '../posts/posts.service';
import { fetchImageBytes, readPage, type PageOutcome } from './fetch-card';
import { createPoller } from './poller';
import * as repo from './preview-cards.repository';

type Db = Kysely<Database>;

/** A link whose page gave no card is fetched again after this long, not for every post. */
export const FAILURE_RETRY_MS = 60 * 60 * 1000;
/** A claimed post is another worker's to take after this long (the holder died): past 3 fetches. */
const CLAIM_MS = 60_000;
/** Posts claimed at once by a worker's round. */
const BATCH = 10;
const DEFAULT_POLL_MS = 1000;

export interface PreviewCardsDeps {
  db: Db;
  transact: Transact;
  posts: Pick<PostsService, 'lockedForCard' | 'showCard'>;
  media: Pick<MediaService, 'processFetched' | 'storeUnrecorded'>;
  /** For pages and oEmbed documents (1 MiB at most). */
  fetchPage: GuardedFetch;
  /** For the pages' images (a larger cap). */
  fetchImage: GuardedFetch;
  log: Pick<FastifyBaseLogger, 'debug' | 'warn' | 'error'>;
  /** How often the worker looks for waiting posts. */
  pollMs?: number;
}

/** The card a cached row gives posts, or null when its fetch gave none. */
export function cardOf(row: repo.PreviewCardRow): PreviewCard | null {
  if (row.error !== null || row.title === null) return null;
  return {
    url: row.url,
    title: row.title,
    description: row.description,
    siteName: row.site_name,
    imageURL: row.image_url,
    ...(row.image_url !== null && row.image_width !== null && row.image_height !== null
      ? { imageWidth: row.image_width, imageHeight: row.image_height }
      : {}),
  };
}

/** What a fetch of `url` gave, as the cache keeps it. */
function cachedRowOf(
  url: string,
  outcome: PageOutcome,
  image: StoredImage | null,
): repo.PreviewCardRow {
  const summary = 'summary' in outcome ? outcome.summary : null;
  return {
    url,
    title: summary?.title ?? null,
    description: summary?.description ?? null,
    site_name: summary?.siteName ?? null,
    image_url: image?.url ?? null,
    image_width: image?.width ?? null,
    image_height: image?.height ?? null,
    error: 'error' in outcome ? outcome.error : null,
    fetched_at: Date.now(),
  };
}

/** Whether a cached row answers for its URL now: a card always, a failure for a while. */
const answersNow = (row: repo.PreviewCardRow, now: number) =>
  row.error === null || row.fetched_at > now - FAILURE_RETRY_MS;

const linkOfCard = (json: string | null) =>
  json === null ? null : (JSON.parse(json) as PreviewCard).url;

/** The page's image, re-encoded by the media pipeline; null when there is none to show. */
async function imageOf(
  { fetchImage, media, log }: Pick<PreviewCardsDeps, 'fetchImage' | 'media' | 'log'>,
  outcome: PageOutcome,
  signal: AbortSignal,
): Promise<ProcessedImage | null> {
  if (!('summary' in outcome) || outcome.summary.imageUrl === null) return null;
  const url = outcome.summary.imageUrl;
  const bytes = await fetchImageBytes(fetchImage, url, signal);
  if (!bytes) return null;
  try {
    return await media.processFetched(bytes);
  } catch (error) {
    log.debug({ err: error, url }, 'a preview image was refused');
    return null;
  }
}

/**
 * Preview cards for the first link of each post. A durable consumer of post.created and post.edited
 * finds the link after commit: a card already fetched for it is shown at once, otherwise the post
 * waits in preview_card_fetches. A worker in every process takes waiting posts (each claimed by
 * one), fetches the page and its image outside any transaction through the guarded fetch, stores
 * the image as Perch media, caches the outcome per URL and shows the card, recording
 * post.card.attached. Nothing of this runs on a request's path.
 */
export function createPreviewCardsService(deps: PreviewCardsDeps) {
  const { db, transact, posts, media, log } = deps;
  // Ends fetches under way when the process stops.
  const shutdown = new AbortController();

  /** Shows `card` on the post if its first link is still `url`, and tells who shows the post. */
  async function attach(
    trx: Db,
    recorder: EventRecorder,
    postId: string,
    url: string,
    card: PreviewCard,
  ): Promise<void> {
    const post = await posts.lockedForCard(trx, postId);
    // Edited or deleted since it was queued: the edit's own event queues its new link.
    if (!post || firstLinkOf(post.content) !== url) return;
    if (linkOfCard(post.preview_card) === url) return;
    await posts.showCard(trx, postId, card);
    recorder.record({
      type: 'post.card.attached',
      payload: { postId, authorId: post.user_id, card },
    });
  }

  /** After a post is written or edited: its card from the cache, or the post queued. */
  async function linkWritten(trx: Db, recorder: EventRecorder, postId: string): Promise<void> {
    const post = await posts.lockedForCard(trx, postId);
    if (!post) return;
    const url = firstLinkOf(post.content);
    // No link (an edit removed it and its card), or its card is already shown.
    if (url === null || linkOfCard(post.preview_card) === url) {
      await repo.dropFetch(trx, postId);
      return;
    }
    const now = Date.now();
    const cached = await repo.findCard(trx, url);
    if (cached && answersNow(cached, now)) {
      await repo.dropFetch(trx, postId);
      const card = cardOf(cached);
      if (card) await attach(trx, recorder, postId, url, card);
      return;
    }
    await repo.queueFetch(trx, postId, url, now);
  }

  const consumer: DurableConsumer = {
    name: 'preview-cards',
    types: new Set(['post.created', 'post.edited']),
    async handle(trx, events, recorder) {
      for (const event of events) {
        if (event.type === 'post.created' || event.type === 'post.edited') {
          await linkWritten(trx, recorder, event.payload.postId);
        }
      }
    },
  };

  /** Fetches `url`'s card (or takes the cache's) and shows it on the posts waiting for it. */
  async function settle(url: string, waiting: readonly repo.CardFetchRow[]): Promise<void> {
    const cached = await repo.findCard(db, url);
    const fresh = cached && answersNow(cached, Date.now()) ? cached : null;
    const outcome = fresh ? null : await readPage(deps.fetchPage, url, shutdown.signal);
    const image = outcome ? await imageOf(deps, outcome, shutdown.signal) : null;
    // Stopping: the posts stay queued for the next process rather than remembered as failed.
    if (shutdown.signal.aborted) return;
    if (outcome && 'error' in outcome) log.debug({ url, reason: outcome.error }, 'no preview card');
    await transact(async (trx, events) => {
      let row = fresh;
      if (outcome) {
        const stored = image ? await media.storeUnrecorded(trx, image) : null;
        row = cachedRowOf(url, outcome, stored);
        await repo.saveCard(trx, row);
      }
      const card = row ? cardOf(row) : null;
      for (const { post_id: postId } of waiting) {
        await repo.dropFetch(trx, postId, url);
        if (card) await attach(trx, events, postId, url, card);
      }
    });
  }

  /** One round: claims waiting posts and settles their links; answers how many it claimed. */
  async function round(): Promise<number> {
    const now = Date.now();
    const claimed: repo.CardFetchRow[] = [];
    for (const row of await repo.unclaimedFetches(db, now, BATCH)) {
      if (await repo.claimFetch(db, row, now + CLAIM_MS)) claimed.push(row);
    }
    const byUrl = new Map<string, repo.CardFetchRow[]>();
    for (const row of claimed) byUrl.set(row.url, [...(byUrl.get(row.url) ?? []), row]);
    for (const [url, waiting] of byUrl) {
      try {
        await settle(url, waiting);
      } catch (error) {
        // Its posts stay claimed until the claim runs out, then are tried again.
        log.error({ err: error, url }, 'could not settle a preview card');
      }
    }
    return claimed.length;
  }

  const worker = createPoller(round, deps.pollMs ?? DEFAULT_POLL_MS, log);

  return {
    consumer,
    /** Runs the worker until no post waits unclaimed (tests; its timer does it otherwise). */
    drain: worker.drain,
    start: (): void => {
      worker.start();
    },
    /** Stops the timer and ends fetches under way (their posts stay queued). */
    async stop(): Promise<void> {
      shutdown.abort();
      await worker.stop();
    },
  };
}

export type PreviewCardsService = ReturnType<typeof createPreviewCardsService>;
