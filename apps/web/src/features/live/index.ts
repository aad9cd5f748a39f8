export { LiveEventsProvider, useNewPostsStore } from './LiveEventsProvider';
