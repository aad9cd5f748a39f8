import type { PostMedia } from '@perch/contract';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PostAlbum } from './PostAlbum';

const images: PostMedia[] = ['One', 'Two', 'Three', 'Four'].map((name, i) => ({
  url: `/media/${String(i)}.webp`,
  alt: i === 2 ? null : `Picture ${name}`,
  width: 800,
  height: 600,
  blurhash: null,
}));

const shown = () => within(screen.getByRole('group')).getAllByRole('img')[0];

describe('PostAlbum', () => {
  it('moves with the buttons, the arrow keys and the dots, and tells where it stands', async () => {
    const user = userEvent.setup();
    render(<PostAlbum images={images} fallbackAlt="Image posted by Ada" sensitive={false} />);
    expect(screen.getByText('1 / 4')).toBeInTheDocument();
    expect(shown()).toHaveAttribute('alt', 'Picture One');
    expect(screen.getByRole('button', { name: 'Previous image' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Next image' }));
    expect(screen.getByText('2 / 4')).toBeInTheDocument();
    expect(shown()).toHaveAttribute('alt', 'Picture Two');

    screen.getByRole('group').focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByText('3 / 4')).toBeInTheDocument();
    expect(shown()).toHaveAttribute('alt', 'Image posted by Ada');
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByText('2 / 4')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Image 4' }));
    expect(screen.getByRole('button', { name: 'Image 4' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Next image' })).toBeDisabled();
  });

  it('turns the image with a swipe', () => {
    render(<PostAlbum images={images} fallbackAlt="Image" sensitive={false} />);
    const box = shown()?.closest('.post-card__media');
    if (!box) throw new Error('no image box');
    fireEvent.pointerDown(box, { clientX: 300 });
    fireEvent.pointerUp(box, { clientX: 200 });
    expect(screen.getByText('2 / 4')).toBeInTheDocument();
    fireEvent.pointerDown(box, { clientX: 100 });
    fireEvent.pointerUp(box, { clientX: 120 });
    expect(screen.getByText('2 / 4')).toBeInTheDocument();
  });

  it('opens a full-screen viewer that moves, closes with Escape and gives focus back', async () => {
    const user = userEvent.setup();
    render(<PostAlbum images={images} fallbackAlt="Image" sensitive={false} />);
    const opener = screen.getByRole('button', { name: 'Open image 1 full screen' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Image 1 of 4' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('dialog', { name: 'Image 2 of 4' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open image 2 full screen' })).toHaveFocus();
  });

  it('hides the whole album behind one cover when sensitive', async () => {
    const user = userEvent.setup();
    render(<PostAlbum images={images} fallbackAlt="Image" sensitive />);
    expect(screen.queryByRole('button', { name: /full screen/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Show images/ }));
    await user.click(screen.getByRole('button', { name: 'Next image' }));
    expect(screen.getByRole('button', { name: 'Open image 2 full screen' })).toBeInTheDocument();
    expect(shown()).toHaveAttribute('alt', 'Picture Two');
  });
});
