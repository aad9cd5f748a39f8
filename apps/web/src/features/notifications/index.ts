export { UnreadBadge, unreadLabel } from './UnreadBadge';
