import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Avatar, defaultAvatarUrl } from './Avatar';

describe('Avatar', () => {
  it('shows the default avatar when there is no picture', () => {
    render(<Avatar src={null} alt="Ada Lovelace" />);
    expect(screen.getByRole('img', { name: 'Ada Lovelace' })).toHaveAttribute(
      'src',
      defaultAvatarUrl,
    );
  });

  it('falls back to the default avatar when the picture fails to load', () => {
    render(<Avatar src="/uploads/ada.png" alt="Ada Lovelace" />);
    const image = screen.getByRole('img', { name: 'Ada Lovelace' });
    expect(image).toHaveAttribute('src', '/uploads/ada.png');

    fireEvent.error(image);

    expect(image).toHaveAttribute('src', defaultAvatarUrl);
  });
});
