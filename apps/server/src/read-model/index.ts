/**
 * The read model: what the API shows of posts, members, comments and notifications, and the
 * views it caches to answer quickly. Feature modules ask it for views and do not know how it
 * caches them; the invalidation table says which views each event changes.
 */
export { createInvalidation, invalidate, invalidation, type ReadModelViews } from './invalidation';
export { createMemberPresenter, type MemberPresenter } from './member/presenter';
export { createCommentPresenter, type CommentPresenter } from './comment/presenter';
export { notificationPresenter } from './notification/presenter';
export { createPostPresenter, type PostPresenter } from './post/presenter';
