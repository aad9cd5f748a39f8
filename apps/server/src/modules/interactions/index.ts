import { bookmark } from './bookmark';
import { like } from './like';

export type { Interaction, InteractionChange } from './interaction';
export { changePostInteraction, type PostInteraction } from './post-interaction';
export { bookmark, like };

/** Every interaction of a member with a post. */
export const POST_INTERACTIONS = [like, bookmark] as const;
export { createInteractionsService, type InteractionsService } from './interactions.service';
