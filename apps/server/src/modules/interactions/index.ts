import { bookmark } from './bookmark';
import { like } from './like';
import { pin } from './pin';
import { repost } from './repost';

export type { Interaction, InteractionChange } from './interaction';
export { changePostInteraction, type PostInteraction } from './post-interaction';
export { bookmark, like, pin, repost };

/** Every interaction of a member with a post. */
export const POST_INTERACTIONS = [like, bookmark, pin, repost] as const;
export { createInteractionsService, type InteractionsService } from './interactions.service';
