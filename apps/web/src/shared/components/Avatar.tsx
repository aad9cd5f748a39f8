import { useState } from 'react';
import defaultAvatarUrl from '../assets/default-avatar.svg';
import './Avatar.css';

export type AvatarSize = 'xs' | 'sm' | 'md' | 'lg' | 'xl';

export interface AvatarProps {
  /** The member's picture; the default avatar shows when missing or when it fails to load. */
  src?: string | null;
  /** Text alternative. Leave empty when the name is shown next to the avatar. */
  alt?: string;
  size?: AvatarSize;
  className?: string;
}

export { defaultAvatarUrl };

export function Avatar({ src, alt = '', size = 'md', className }: AvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const usable = src !== undefined && src !== null && src !== '' && src !== failedSrc;
  const shown = usable ? src : defaultAvatarUrl;

  return (
    <img
      src={shown}
      alt={alt}
      className={['avatar', `avatar--${size}`, className].filter(Boolean).join(' ')}
      loading="lazy"
      decoding="async"
      draggable={false}
      onError={
        usable
          ? () => {
              setFailedSrc(src);
            }
          : undefined
      }
    />
  );
}
