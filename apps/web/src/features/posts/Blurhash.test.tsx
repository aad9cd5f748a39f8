import type { PostMedia } from '@perch/contract';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { BlurhashPlaceholder } from './BlurhashPlaceholder';
import { PostAlbum } from './PostAlbum';

const HASH = 'LEHV6nWB2yk8pyo0adR*.7kCMdnj';

const images: PostMedia[] = [HASH, null].map((blurhash, i) => ({
  url: `/media/${String(i)}.webp`,
  alt: `Picture ${String(i + 1)}`,
  width: 800,
  height: 600,
  blurhash,
}));

const shown = () => within(screen.getByRole('group')).getAllByRole('img')[0];

describe('blurhash placeholders', () => {
  it('cover an album image while it loads, go once it has, and stay away for an image already loaded', async () => {
    const user = userEvent.setup();
    render(<PostAlbum images={images} fallbackAlt="Image posted by Ada" sensitive={false} />);
    const placeholder = screen.getByTestId('blurhash');
    expect(placeholder).toHaveAttribute('aria-hidden', 'true');

    const first = shown();
    if (!first) throw new Error('No image shown.');
    fireEvent.load(first);
    expect(screen.queryByTestId('blurhash')).toBeNull();

    // The second image has no blurhash recorded: nothing is drawn for it.
    await user.click(screen.getByRole('button', { name: 'Next image' }));
    expect(screen.queryByTestId('blurhash')).toBeNull();
    // Back on the first, already loaded: no placeholder flashes over it.
    await user.click(screen.getByRole('button', { name: 'Previous image' }));
    expect(shown()).toHaveAttribute('alt', 'Picture 1');
    expect(screen.queryByTestId('blurhash')).toBeNull();
  });

  it('draws the decoded hash on its canvas', () => {
    const putImageData = vi.fn();
    const context = {
      createImageData: (width: number, height: number) => ({
        data: new Uint8ClampedArray(width * height * 4),
      }),
      putImageData,
    };
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(
      context as unknown as CanvasRenderingContext2D,
    );
    render(<BlurhashPlaceholder hash={HASH} />);
    expect(putImageData).toHaveBeenCalledTimes(1);
    const [drawn] = putImageData.mock.calls[0] as [{ data: Uint8ClampedArray }];
    // Opaque pixels with colour: the hash was decoded, not left blank.
    expect(drawn.data[3]).toBe(255);
    expect(drawn.data.slice(0, 3).some((value) => value > 0)).toBe(true);
  });
});
