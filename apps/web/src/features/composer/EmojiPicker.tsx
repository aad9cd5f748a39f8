import { Component, lazy, Suspense, type ReactNode } from 'react';
import type { EmojiPickerPanelProps } from './EmojiPickerPanel';

const EmojiPickerPanel = lazy(() => import('./EmojiPickerPanel'));

/** Renders nothing when its children fail (a picker that cannot load or render stays away). */
export class SilentBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/** The emoji picker, fetched the first time it opens. */
export function EmojiPicker({ onPick }: EmojiPickerPanelProps) {
  return (
    <div className="emoji-popover">
      <SilentBoundary>
        <Suspense
          fallback={
            <div className="emoji-popover__loading" role="status">
              <span className="btn__spinner" aria-hidden="true" />
              <span className="visually-hidden">Loading emojis</span>
            </div>
          }
        >
          <EmojiPickerPanel onPick={onPick} />
        </Suspense>
      </SilentBoundary>
    </div>
  );
}
