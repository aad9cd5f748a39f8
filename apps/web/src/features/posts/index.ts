export { PostFeed } from './PostFeed';
