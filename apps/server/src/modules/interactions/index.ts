import { bookmark } from './bookmark';
import { like } from './like';
import { pin } from './pin';

export type { Interaction, InteractionChange } from './interaction';
export { changePostInteraction, type PostInteraction } from './post-interaction';
export { bookmark, like, pin };

/** Every interaction of a member with a post. */
export const POST_INTERACTIONS = [like, bookmark, pin] as const;
export { createInteractionsService, type InteractionsService } from './interactions.service';
