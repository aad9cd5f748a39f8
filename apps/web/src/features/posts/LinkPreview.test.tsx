import type { PreviewCard } from '@perch/contract';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LinkPreview } from './LinkPreview';

const card: PreviewCard = {
  url: 'https://www.example.com/perches',
  title: 'Perches of the north',
  description: 'Where they sit.',
  siteName: 'Field Notes',
  imageURL: '/media/ab/ab12.webp',
  imageWidth: 1200,
  imageHeight: 630,
};

describe('LinkPreview', () => {
  it('is one link to the page, named by its title, opening in a new tab without a referrer', () => {
    render(<LinkPreview card={card} />);
    const link = screen.getByRole('link', { name: 'Perches of the north' });
    expect(link).toHaveAttribute('href', card.url);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(link).toHaveAccessibleDescription(/Field Notes\s*Where they sit\./);
  });

  it('shows the stored image as decoration, loaded lazily, and drops it when it fails', () => {
    const { container } = render(<LinkPreview card={card} />);
    const image = screen.getByRole('presentation');
    expect(image.tagName).toBe('IMG');
    expect(image).toHaveAttribute('alt', '');
    expect(image).toHaveAttribute('loading', 'lazy');
    expect(image).toHaveAttribute('src', card.imageURL);
    fireEvent.error(image);
    expect(container.querySelector('img')).toBeNull();
  });

  it("names the link's host when the page names no site", () => {
    render(<LinkPreview card={{ ...card, siteName: null, imageURL: null, description: null }} />);
    expect(screen.getByText('example.com')).toBeInTheDocument();
    expect(screen.queryByRole('img')).toBeNull();
  });
});
