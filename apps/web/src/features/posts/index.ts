export { PostCard } from './PostCard';
export { PostFeed } from './PostFeed';
