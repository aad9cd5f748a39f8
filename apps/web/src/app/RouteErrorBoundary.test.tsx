import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { RouteErrorBoundary } from './RouteErrorBoundary';

function Broken(): never {
  throw new Error('cannot render');
}

describe('RouteErrorBoundary', () => {
  it('shows the error page for a screen that fails, and the next screen once the member moves', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const user = userEvent.setup();
    render(
      <MemoryRouter initialEntries={['/broken']}>
        <Link to="/fine">Elsewhere</Link>
        <RouteErrorBoundary>
          <Routes>
            <Route path="/broken" element={<Broken />} />
            <Route path="/fine" element={<p>Fine screen</p>} />
          </Routes>
        </RouteErrorBoundary>
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByText('Fine screen')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).toBeNull();
  });
});
