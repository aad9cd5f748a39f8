import './notifications.css';

/** The name of a link to the notifications, with the unread count when there is one. */
export function unreadLabel(label: string, count: number): string {
  return count > 0 ? `${label}, ${String(count)} unread` : label;
}

/** The unread count on the notifications icon; the link's name says it in words. */
export function UnreadBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span className="unread-badge" aria-hidden="true" data-testid="unread-badge">
      {count > 99 ? '99+' : count}
    </span>
  );
}
