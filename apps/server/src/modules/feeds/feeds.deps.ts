import type { DiscoveryService } from '../discovery/discovery.service';
import type { PostsService } from '../posts/posts.service';
import type { UsersService } from '../users/users.service';
import type { EnclosureDetails } from './enclosures';

/** What the feeds read, all as a reader who is not signed in sees it. */
export interface FeedsDeps {
  users: Pick<UsersService, 'publicMember' | 'publicAmong'>;
  posts: Pick<PostsService, 'byAuthor'>;
  discovery: Pick<DiscoveryService, 'tagPage'>;
  images: EnclosureDetails;
}

/** Entries per feed, as Mastodon's feeds have. */
export const FEED_LENGTH = 20;
/** The language feeds declare: the instance's own, as its web app declares it. */
export const FEED_LANGUAGE = 'en';
