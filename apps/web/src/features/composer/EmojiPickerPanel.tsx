import EmojiPicker, { EmojiStyle } from 'emoji-picker-react';

export interface EmojiPickerPanelProps {
  onPick: (emoji: string) => void;
}

/**
 * The emoji picker with the library's defaults, drawing emojis with the system font so that
 * nothing is fetched from elsewhere. Loaded on demand (see EmojiPicker.tsx).
 */
export default function EmojiPickerPanel({ onPick }: EmojiPickerPanelProps) {
  return (
    <EmojiPicker
      emojiStyle={EmojiStyle.NATIVE}
      onEmojiClick={(data) => {
        onPick(data.emoji);
      }}
    />
  );
}
