import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { UPDATE_PROMPT_TEXT, UpdatePrompt } from './UpdatePrompt';

describe('UpdatePrompt', () => {
  it('reloads into the new version only when asked, and can wait', async () => {
    const user = userEvent.setup();
    const onReload = vi.fn(() => new Promise<void>(() => undefined));
    const onDismiss = vi.fn();
    render(<UpdatePrompt onReload={onReload} onDismiss={onDismiss} />);
    expect(screen.getByText(UPDATE_PROMPT_TEXT)).toBeInTheDocument();
    expect(onReload).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Later' }));
    expect(onDismiss).toHaveBeenCalledOnce();
    expect(onReload).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Reload' }));
    expect(onReload).toHaveBeenCalledOnce();
    expect(screen.getByRole('button', { name: 'Reload' })).toHaveAttribute('aria-busy', 'true');
  });
});
