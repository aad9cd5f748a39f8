import { postMessages } from './messages';

interface UndoToastProps {
  onUndo: () => void;
}

/** "Post Deleted", with the Undo that keeps it while the window is open. */
export function UndoToast({ onUndo }: UndoToastProps) {
  return (
    <span className="undo-toast">
      <span>{postMessages.deleted}</span>
      <button type="button" className="undo-toast__button" onClick={onUndo}>
        Undo
      </button>
    </span>
  );
}
