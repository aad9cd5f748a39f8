export { QueuedPosts } from './QueuedPosts';
export { useOfflineQueueSender } from './useOfflineQueueSender';
