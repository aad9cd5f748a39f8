import type { Comment, Post } from '@perch/contract';
import { useId, useRef, useState, type RefObject, type SubmitEvent } from 'react';
import { Link } from 'react-router-dom';
import { Avatar } from '../../shared/components/Avatar';
import { Button } from '../../shared/components/Button';
import { MoreIcon } from '../../shared/components/icons';
import { useRequiredSession } from '../../entities/session/SessionProvider';
import { profilePath } from '../../shared/lib/paths';
import { MentionListbox, useMentionAutocomplete } from '../mentions';
import { ActionMenu, type ActionMenuItem } from '../../shared/components/ActionMenu';
import { EditIcon, TrashIcon } from '../../shared/components/postIcons';
import { RichText } from '../../shared/components/RichText';
import {
  flattenComments,
  useAddComment,
  useComments,
  useDeleteComment,
  useEditComment,
} from '../../entities/comment/comments.queries';
import './comments.css';

export const COMMENT_INPUT_LABEL = 'Add a new comment';

/** The name a comment shows: its author's, or 'Unknown' when the account is gone. */
export function commentAuthorName(comment: Comment): string {
  const name = [comment.firstName, comment.lastName].filter(Boolean).join(' ').trim();
  return name === '' ? 'Unknown' : name;
}

interface CommentItemProps {
  comment: Comment;
  canEdit: boolean;
  canDelete: boolean;
  deleting: boolean;
  onEdit: (comment: Comment) => void;
  onDelete: (comment: Comment) => void;
}

function CommentItem({
  comment,
  canEdit,
  canDelete,
  deleting,
  onEdit,
  onDelete,
}: CommentItemProps) {
  const name = commentAuthorName(comment);
  const known = comment.username !== null && name !== 'Unknown';
  const items: ActionMenuItem[] = [];
  if (canEdit) {
    items.push({
      label: 'Edit',
      icon: <EditIcon size={18} />,
      onSelect: () => {
        onEdit(comment);
      },
    });
  }
  if (canDelete) {
    items.push({
      label: 'Delete',
      icon: <TrashIcon size={18} />,
      danger: true,
      onSelect: () => {
        onDelete(comment);
      },
    });
  }

  return (
    <li
      className={['comment', deleting && 'comment--busy'].filter(Boolean).join(' ')}
      data-testid="comment"
      aria-busy={deleting || undefined}
    >
      <Avatar src={comment.profileAvatar ?? comment.avatarURL} size="sm" />
      <div className="comment__bubble">
        <p className="comment__meta">
          {known && comment.username !== null ? (
            <Link to={profilePath(comment.username)} className="comment__name">
              {name}
            </Link>
          ) : (
            <span className="comment__name">{name}</span>
          )}
          {known && <span className="comment__username">@{comment.username}</span>}
        </p>
        <p className="comment__text">
          <RichText text={comment.text} entities={comment.entities} />
        </p>
      </div>
      {items.length > 0 && (
        <ActionMenu
          label="Comment menu"
          className="comment__menu"
          trigger={<MoreIcon size={18} />}
          items={items}
        />
      )}
    </li>
  );
}

interface CommentFormProps {
  avatarURL: string | null;
  text: string;
  onTextChange: (text: string) => void;
  inputRef: RefObject<HTMLInputElement | null>;
  sending: boolean;
  /** A comment's text is in the box to be updated (Escape or Cancel stops that). */
  editing: boolean;
  onSubmit: (event: SubmitEvent<HTMLFormElement>) => void;
  onCancelEdit: () => void;
}

/** The box a comment is written (or edited) in, which offers members while an @mention is typed. */
function CommentForm({
  avatarURL,
  text,
  onTextChange,
  inputRef,
  sending,
  editing,
  onSubmit,
  onCancelEdit,
}: CommentFormProps) {
  const inputId = useId();
  const trimmed = text.trim();
  const mention = useMentionAutocomplete({ text, onTextChange, fieldRef: inputRef });
  return (
    <form className="comments__form" onSubmit={onSubmit} noValidate>
      <Avatar src={avatarURL} size="sm" />
      <label htmlFor={inputId} className="visually-hidden">
        {COMMENT_INPUT_LABEL}
      </label>
      <div className="mention-field comments__field">
        <input
          ref={inputRef}
          id={inputId}
          className="comments__input"
          placeholder={COMMENT_INPUT_LABEL}
          autoComplete="off"
          value={text}
          readOnly={sending}
          {...mention.fieldProps}
          onChange={(event) => {
            mention.trackCaret(event);
            onTextChange(event.target.value);
          }}
          onKeyDown={(event) => {
            if (mention.handleKeyDown(event)) return;
            if (event.key === 'Escape' && editing) {
              event.preventDefault();
              onCancelEdit();
            }
          }}
        />
        <MentionListbox {...mention.listboxProps} />
      </div>
      <Button type="submit" size="sm" disabled={trimmed === ''} loading={sending}>
        {editing ? 'Update' : 'Comment'}
      </Button>
      {editing && (
        <Button variant="ghost" size="sm" onClick={onCancelEdit}>
          Cancel
        </Button>
      )}
    </form>
  );
}

function CommentsLoading() {
  return (
    <p className="comments__status" role="status">
      <span className="btn__spinner" aria-hidden="true" />
      <span className="visually-hidden">Loading comments</span>
    </p>
  );
}

function CommentsLoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="comments__status" role="alert">
      Comments could not be loaded.
      <Button variant="ghost" size="sm" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}

/**
 * A post's comments under its card: the 'Add a new comment' box (sends only non-blank text),
 * the list or 'No comments yet', and 'Load more' while older pages remain. A comment's author
 * may edit it (its text goes into the box, whose button becomes Update) or delete it; the
 * post's author may delete any comment on the post.
 */
export function CommentsSection({ id, post }: { id?: string; post: Post }) {
  const { user } = useRequiredSession();
  const inputRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<Comment | null>(null);
  const comments = useComments(post._id);
  const add = useAddComment(post._id);
  const edit = useEditComment(post._id);
  const remove = useDeleteComment(post._id);
  const list = flattenComments(comments.data);
  const trimmed = text.trim();
  const sending = add.isPending || edit.isPending;
  const ownsPost = post.userId === user._id;

  const stopEditing = () => {
    setEditing(null);
    setText('');
  };

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (trimmed === '' || sending) return;
    if (editing) {
      edit.mutate({ commentId: editing._id, text: trimmed }, { onSuccess: stopEditing });
    } else {
      add.mutate(trimmed, {
        onSuccess: () => {
          setText('');
        },
      });
    }
  };

  const startEditing = (comment: Comment) => {
    setEditing(comment);
    setText(comment.text);
    inputRef.current?.focus();
  };

  const deleteOne = (comment: Comment) => {
    if (editing?._id === comment._id) stopEditing();
    remove.mutate(comment._id);
  };

  return (
    <section id={id} className="comments" aria-label="Comments">
      <CommentForm
        avatarURL={user.avatarURL}
        text={text}
        onTextChange={setText}
        inputRef={inputRef}
        sending={sending}
        editing={editing !== null}
        onSubmit={submit}
        onCancelEdit={stopEditing}
      />

      {comments.isPending ? (
        <CommentsLoading />
      ) : comments.isError && list.length === 0 ? (
        <CommentsLoadFailed
          onRetry={() => {
            void comments.refetch();
          }}
        />
      ) : list.length === 0 ? (
        <p className="comments__empty">No comments yet</p>
      ) : (
        <ul className="comments__list">
          {list.map((comment) => {
            const ownsComment = comment.userId !== null && comment.userId === user._id;
            return (
              <CommentItem
                key={comment._id}
                comment={comment}
                canEdit={ownsComment}
                canDelete={ownsComment || ownsPost}
                deleting={remove.isPending && remove.variables === comment._id}
                onEdit={startEditing}
                onDelete={deleteOne}
              />
            );
          })}
        </ul>
      )}

      {comments.hasNextPage && (
        <Button
          variant="ghost"
          size="sm"
          className="comments__more"
          loading={comments.isFetchingNextPage}
          onClick={() => {
            void comments.fetchNextPage();
          }}
        >
          Load more
        </Button>
      )}
    </section>
  );
}
