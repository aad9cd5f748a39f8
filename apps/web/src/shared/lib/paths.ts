import type { ComponentType } from 'react';
import {
  BellIcon,
  BookmarkIcon,
  ExploreIcon,
  HeartIcon,
  HomeIcon,
  SearchIcon,
  UserIcon,
  type IconProps,
} from '../components/icons';

export interface NavItem {
  label: string;
  /** Name of the icon-only variant in the bottom bar. */
  shortLabel: string;
  to: string;
  icon: ComponentType<IconProps>;
  /** Match the path exactly (the home link would otherwise match every path). */
  end?: boolean;
  /** Shows the number of unread notifications. */
  showsUnread?: boolean;
}

export const NOTIFICATIONS_PATH = '/notifications';

export function postPath(postId: string): string {
  return `/post/${encodeURIComponent(postId)}`;
}

export function profilePath(username: string): string {
  return `/profile/${encodeURIComponent(username)}`;
}

export function tagPath(tag: string): string {
  return `/tags/${encodeURIComponent(tag)}`;
}

export const SEARCH_PATH = '/search';

export const SETTINGS_PATH = '/settings';

/** The search page for `q` (the Posts tab unless another is named). */
export function searchPath(q: string, tab?: 'posts' | 'members' | 'tags'): string {
  const params = new URLSearchParams();
  if (q !== '') params.set('q', q);
  if (tab !== undefined) params.set('tab', tab);
  const query = params.toString();
  return query === '' ? SEARCH_PATH : `${SEARCH_PATH}?${query}`;
}

export function primaryNavItems(username: string): NavItem[] {
  return [
    { label: 'Home', shortLabel: 'Home', to: '/', icon: HomeIcon, end: true },
    { label: 'Explore', shortLabel: 'Explore', to: '/explore', icon: ExploreIcon },
    { label: 'Search', shortLabel: 'Search', to: SEARCH_PATH, icon: SearchIcon },
    {
      label: 'Notifications',
      shortLabel: 'Notifications',
      to: NOTIFICATIONS_PATH,
      icon: BellIcon,
      showsUnread: true,
    },
    { label: 'Bookmarks', shortLabel: 'Bookmarks', to: '/bookmarks', icon: BookmarkIcon },
    { label: 'Liked Post', shortLabel: 'Liked posts', to: '/likedPost', icon: HeartIcon },
    { label: 'Profile', shortLabel: 'Profile', to: profilePath(username), icon: UserIcon },
  ];
}
