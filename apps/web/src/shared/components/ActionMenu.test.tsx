import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ActionMenu } from './ActionMenu';

function setup() {
  const onEdit = vi.fn();
  const onDelete = vi.fn();
  const user = userEvent.setup();
  render(
    <>
      <p>Elsewhere</p>
      <ActionMenu
        label="Post menu"
        trigger="…"
        items={[
          { label: 'Edit', onSelect: onEdit },
          { label: 'Delete', onSelect: onDelete, danger: true },
        ]}
      />
    </>,
  );
  return { user, onEdit, onDelete, trigger: screen.getByRole('button', { name: 'Post menu' }) };
}

describe('ActionMenu', () => {
  it('opens from the keyboard, moves with the arrows and chooses with Enter', async () => {
    const { user, onDelete, trigger } = setup();
    trigger.focus();

    await user.keyboard('{ArrowDown}');
    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('menuitem', { name: 'Edit' })).toHaveFocus();

    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Delete' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Edit' })).toHaveFocus();
    await user.keyboard('{End}{Enter}');

    expect(onDelete).toHaveBeenCalledOnce();
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(trigger).toHaveFocus();
  });

  it('closes on Escape and on a click elsewhere, choosing nothing', async () => {
    const { user, onEdit, onDelete, trigger } = setup();

    await user.click(trigger);
    expect(screen.getByRole('menu', { name: 'Post menu' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(trigger).toHaveFocus();

    await user.click(trigger);
    await user.click(screen.getByText('Elsewhere'));
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    expect(onEdit).not.toHaveBeenCalled();
    expect(onDelete).not.toHaveBeenCalled();
  });
});
