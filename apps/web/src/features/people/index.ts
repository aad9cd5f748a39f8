export { UserSearch } from './UserSearch';
export { WhoToFollow } from './WhoToFollow';
