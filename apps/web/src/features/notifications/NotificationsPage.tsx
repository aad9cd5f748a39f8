import type { NotificationGroup } from '@perch/contract';
import { useCallback, useEffect, useId, useMemo, useRef, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Avatar } from '../../shared/components/Avatar';
import { Button } from '../../shared/components/Button';
import { ListEnd } from '../../shared/components/ListEnd';
import { AlertIcon, HeartIcon, UserIcon } from '../../shared/components/icons';
import { PageHeader } from '../../shared/components/PageHeader';
import { formatPostDate } from '../../shared/lib/formatPostDate';
import { CommentIcon, RefreshIcon, RepostIcon } from '../../shared/components/postIcons';
import { useSession } from '../../entities/session/SessionProvider';
import {
  actorsPhrase,
  notificationPath,
  notificationVerb,
  pollEndedText,
} from './notificationText';
import {
  useMarkNotificationsRead,
  useNotifications,
  useUnreadCount,
  type NotificationPages,
} from '../../entities/notification/notifications.queries';
import { AtIcon, PollIcon } from './notificationIcons';
import '../../shared/styles/feed.css';
import './notifications.css';

/** Start loading the next page this far (px) before the end of the list comes into view. */

function flattenGroups(data: NotificationPages | undefined): NotificationGroup[] {
  if (!data) return [];
  const seen = new Set<string>();
  return data.pages
    .flatMap((page) => page.notifications)
    .filter((group) => {
      if (seen.has(group.id)) return false;
      seen.add(group.id);
      return true;
    });
}

function KindIcon({ kind }: { kind: NotificationGroup['kind'] }) {
  switch (kind) {
    case 'like':
      return <HeartIcon size={18} fill="currentColor" />;
    case 'comment':
      return <CommentIcon size={18} />;
    case 'follow':
      return <UserIcon size={18} />;
    case 'mention':
      return <AtIcon size={18} />;
    case 'repost':
      return <RepostIcon size={18} />;
    case 'poll':
      return <PollIcon size={18} />;
  }
}

/** One group: kind, the members' avatars, the sentence, what it is about and when. */
function NotificationEntry({ group }: { group: NotificationGroup }) {
  const viewerId = useSession().session?.user._id ?? null;
  const path = notificationPath(group);
  const textId = useId();
  const aboutId = useId();
  const dateId = useId();
  const showsAbout =
    group.kind !== 'comment' && group.post !== null && group.post.content.trim() !== '';
  const about = showsAbout ? (
    <span id={aboutId} className="notification__excerpt">
      {group.post?.content}
    </span>
  ) : null;
  const body: ReactNode = (
    <>
      <span className={`notification__kind notification__kind--${group.kind}`}>
        <KindIcon kind={group.kind} />
      </span>
      <span className="notification__body">
        <span className="notification__avatars">
          {group.actors.map((actor) => (
            <Avatar key={actor._id} src={actor.avatarURL} size="sm" alt="" />
          ))}
        </span>
        <span id={textId} className="notification__text">
          {!group.read && (
            <>
              <span className="visually-hidden">Unread:</span>{' '}
            </>
          )}
          {group.kind === 'poll' ? (
            pollEndedText(group, viewerId)
          ) : (
            <>
              <strong className="notification__actors">{actorsPhrase(group)}</strong>{' '}
              {notificationVerb(group.kind)}
            </>
          )}
          {group.kind === 'comment' && group.comment && (
            <>
              {': '}
              <span className="notification__quote">{group.comment.text}</span>
            </>
          )}
        </span>
        {about}
        <time id={dateId} className="notification__date" dateTime={group.latestAt}>
          {formatPostDate(group.latestAt)}
        </time>
      </span>
      {group.post?.mediaURL && (
        <img
          className="notification__thumb"
          src={group.post.mediaURL}
          alt=""
          loading="lazy"
          decoding="async"
        />
      )}
    </>
  );
  const className = ['notification', !group.read && 'notification--unread']
    .filter(Boolean)
    .join(' ');
  return (
    <li className="notifications__item" data-testid="notification">
      {path === null ? (
        <div className={className}>{body}</div>
      ) : (
        <Link
          to={path}
          className={className}
          aria-labelledby={textId}
          aria-describedby={showsAbout ? `${aboutId} ${dateId}` : dateId}
        >
          {body}
        </Link>
      )}
    </li>
  );
}

/** Placeholder rows while the first page loads. */
function NotificationSkeletons({ count = 4 }: { count?: number }) {
  return (
    <ul className="notifications" role="status" aria-label="Loading notifications">
      {Array.from({ length: count }, (_, index) => (
        <li key={index} className="notification notification--skeleton" aria-hidden="true">
          <span className="skeleton skeleton--icon" />
          <span className="notification__body">
            <span className="skeleton skeleton--avatar-sm" />
            <span className="skeleton skeleton--line" style={{ width: '70%' }} />
            <span className="skeleton skeleton--line" style={{ width: '45%' }} />
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The member's notifications, newest first, grouped (the likes of one post, new followers…),
 * loaded page by page as the member scrolls. Unread ones stand out; opening the page marks
 * everything read once the first page is shown (the badge drops to 0).
 */
export function NotificationsPage() {
  const list = useNotifications();
  const unread = useUnreadCount();
  const { mutate: markRead } = useMarkNotificationsRead();
  const groups = useMemo(() => flattenGroups(list.data), [list.data]);
  const { fetchNextPage, hasNextPage, isFetchingNextPage, isFetchNextPageError } = list;
  const markedAt = useRef(0);

  // Once per answer shown (the first page, or a refresh after something new arrived).
  const shownAt = list.isSuccess && !list.isFetching ? list.dataUpdatedAt : 0;
  useEffect(() => {
    if (shownAt === 0 || unread === 0 || markedAt.current === shownAt) return;
    markedAt.current = shownAt;
    markRead();
  }, [shownAt, unread, markRead]);

  const loadMore = useCallback(() => {
    void fetchNextPage({ cancelRefetch: false });
  }, [fetchNextPage]);

  let content: ReactNode;
  if (list.isPending) {
    content = <NotificationSkeletons />;
  } else if (list.isError && groups.length === 0) {
    content = (
      <div className="feed__state feed__state--error" role="alert">
        <AlertIcon size={28} />
        <p>Notifications could not be loaded.</p>
        <Button
          variant="secondary"
          size="sm"
          loading={list.isFetching}
          onClick={() => {
            void list.refetch();
          }}
        >
          <RefreshIcon size={16} />
          Retry
        </Button>
      </div>
    );
  } else if (groups.length === 0) {
    content = <p className="feed__state feed__state--empty">No notifications yet</p>;
  } else {
    content = (
      <>
        <ul className="notifications" aria-label="Notifications" aria-busy={isFetchingNextPage}>
          {groups.map((group) => (
            <NotificationEntry key={group.id} group={group} />
          ))}
        </ul>
        <ListEnd
          hasNextPage={hasNextPage}
          isFetchingNextPage={isFetchingNextPage}
          failed={isFetchNextPageError}
          fetchNextPage={loadMore}
          itemCount={groups.length}
          noun="notifications"
        />
      </>
    );
  }

  return (
    <section className="page">
      <PageHeader title="Notifications" />
      {content}
    </section>
  );
}
