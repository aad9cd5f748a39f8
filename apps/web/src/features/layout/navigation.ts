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
} from '../../shared/components/icons';
import { NOTIFICATIONS_PATH, profilePath, SEARCH_PATH } from '../../shared/lib/paths';

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
