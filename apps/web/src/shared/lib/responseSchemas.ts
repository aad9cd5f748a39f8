/**
 * The contract's schemas the app validates with. Loaded on demand through `loadSchemas` so that
 * zod stays out of the first download: import from here only with `import type`.
 */
export {
  authorizationAnswerSchema,
  authorizationDescriptionSchema,
  bookmarkMutationResponseSchema,
  bookmarkPageSchema,
  commentDeleteResponseSchema,
  commentMutationResponseSchema,
  commentPageSchema,
  domainEventSchemas,
  followResponseSchema,
  loginResponseSchema,
  mediaUploadResponseSchema,
  notificationPageSchema,
  pinnedPostsSchema,
  pollResponseSchema,
  postDeleteResponseSchema,
  postMutationResponseSchema,
  postPageSchema,
  postResponseSchema,
  postSearchPageSchema,
  preferencesSchema,
  privacySettingsSchema,
  sessionListSchema,
  signupResponseSchema,
  streamReadySchema,
  tagListSchema,
  tagPageSchema,
  trendingTagsSchema,
  unreadCountSchema,
  userPageSchema,
  userResponseSchema,
} from '@perch/contract';

// Form bodies, checked before they are sent so that mistakes show beside their fields.
export {
  accountDeleteBodySchema,
  passwordChangeBodySchema,
  userEditBodySchema,
} from '@perch/contract';
