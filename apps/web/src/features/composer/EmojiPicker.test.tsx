import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SilentBoundary } from './EmojiPicker';

function Broken(): never {
  throw new Error('The picker could not render.');
}

describe('SilentBoundary', () => {
  it('renders its children', () => {
    render(
      <SilentBoundary>
        <p>Picker</p>
      </SilentBoundary>,
    );
    expect(screen.getByText('Picker')).toBeInTheDocument();
  });

  it('shows nothing when they fail to render', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { container } = render(
      <div data-testid="holder">
        <SilentBoundary>
          <Broken />
        </SilentBoundary>
      </div>,
    );
    expect(screen.getByTestId('holder')).toBeEmptyDOMElement();
    expect(container.textContent).toBe('');
  });
});
