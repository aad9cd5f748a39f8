import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { defaultAvatarUrl } from '../../shared/components/Avatar';
import { readStoredSession } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import {
  grace,
  linus,
  mockDirectory,
  profileCount,
  signIn,
  viewer,
} from '../../entities/member/users.mocks';

function profileCard() {
  return screen.getByRole('article', { name: 'Profile' });
}

describe('profile of another member', () => {
  it('shows their details, counts, a Follow button and a Posts heading', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    signIn();
    mockDirectory();
    renderApp('/profile/grace_h');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' }),
    ).toBeInTheDocument();
    const card = profileCard();
    expect(within(card).getByText('@grace_h')).toBeInTheDocument();
    expect(within(card).getByText('Compilers.')).toBeInTheDocument();
    expect(profileCount('Posts')).toBe('0');
    expect(profileCount('Followers')).toBe('5');
    expect(profileCount('Following')).toBe('0');
    expect(card.querySelector('img.profile-card__avatar')).toHaveAttribute('src', defaultAvatarUrl);
    expect(within(card).getByRole('button', { name: 'Follow' })).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Posts' })).toBeInTheDocument();
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
  });

  it('follows at once, then rolls back and says so when the server refuses', async () => {
    signIn();
    mockDirectory({ followStatus: 500 });
    const { user } = renderApp('/profile/grace_h');
    const card = await screen.findByRole('article', { name: 'Profile' });

    await user.click(within(card).getByRole('button', { name: 'Follow' }));

    // Optimistic: the button and the counts change before the answer.
    expect(await within(card).findByRole('button', { name: 'Unfollow' })).toBeInTheDocument();
    expect(profileCount('Followers')).toBe('6');
    expect(readStoredSession()).toMatchObject({ user: { followingCount: 2 } });

    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Follow' })).toBeInTheDocument();
    expect(profileCount('Followers')).toBe('5');
    expect(readStoredSession()).toMatchObject({ user: { followingCount: 1 } });
  });

  it("copies the profile's public address", async () => {
    signIn();
    mockDirectory();
    const { user } = renderApp('/profile/grace_h');
    const card = await screen.findByRole('article', { name: 'Profile' });

    await user.click(within(card).getByRole('button', { name: 'Copy link to profile' }));

    expect(await screen.findByText('Link copied.')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/@grace_h`);
  });

  it('unfollows a followed member', async () => {
    signIn();
    const received = mockDirectory();
    const { user } = renderApp('/profile/linus');
    const card = await screen.findByRole('article', { name: 'Profile' });
    expect(profileCount('Followers')).toBe('3');

    await user.click(within(card).getByRole('button', { name: 'Unfollow' }));

    expect(await screen.findByText('Unfollowed @linus')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Follow' })).toBeInTheDocument();
    expect(profileCount('Followers')).toBe('2');
    expect(received.follows).toEqual([{ userId: linus._id, follow: false }]);
    expect(readStoredSession()).toMatchObject({ user: { followingCount: 0 } });
    // Now a suggestion again.
    expect(
      await within(screen.getByRole('region', { name: 'Who to follow?' })).findByText(
        'Linus Torvalds',
      ),
    ).toBeInTheDocument();
  });

  it('ignores clicks while a follow is on its way', async () => {
    signIn();
    const received = mockDirectory();
    const { user } = renderApp('/profile/grace_h');
    const card = await screen.findByRole('article', { name: 'Profile' });

    await user.click(within(card).getByRole('button', { name: 'Follow' }));
    const unfollow = await within(card).findByRole('button', { name: 'Unfollow' });
    expect(unfollow).toHaveAttribute('aria-disabled', 'true');
    await user.click(unfollow);

    expect(await screen.findByText('Followed @grace_h')).toBeInTheDocument();
    expect(received.follows).toEqual([{ userId: grace._id, follow: true }]);
    expect(unfollow).not.toHaveAttribute('aria-disabled');
  });

  it("says 'User not found.' for an unknown username", async () => {
    signIn();
    mockDirectory();
    renderApp('/profile/nobody_here');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'User not found.' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go back home' })).toHaveAttribute('href', '/');
  });

  it('offers to try again when the profile cannot be loaded', async () => {
    signIn();
    mockDirectory();
    let calls = 0;
    server.use(
      http.get('/api/users/grace_h', () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ errors: ['Too many requests'] }, { status: 429 })
          : HttpResponse.json({ user: grace });
      }),
    );
    const { user } = renderApp('/profile/grace_h');

    await user.click(await screen.findByRole('button', { name: 'Try again' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' }),
    ).toBeInTheDocument();
    // Load failures stay silent: no toast.
    expect(screen.queryByText('Too many requests')).not.toBeInTheDocument();
  });
});

describe('own profile', () => {
  async function openEditor() {
    signIn();
    const received = mockDirectory();
    const app = renderApp('/profile/ada');
    const card = await screen.findByRole('article', { name: 'Profile' });
    expect(within(card).queryByRole('button', { name: /Follow/ })).not.toBeInTheDocument();
    await app.user.click(within(card).getByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Profile' });
    return { ...app, received, dialog, card };
  }

  it('opens Edit Profile filled with the current profile', async () => {
    const { dialog } = await openEditor();

    expect(within(dialog).getByLabelText('First Name')).toHaveValue('Ada');
    expect(within(dialog).getByLabelText('Last Name')).toHaveValue('Lovelace');
    expect(within(dialog).getByLabelText('Bio')).toHaveValue(viewer.bio);
    expect(within(dialog).getByLabelText('Change avatar')).toHaveAttribute(
      'accept',
      'image/jpeg,image/png,image/webp,image/gif',
    );
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Update' })).toBeInTheDocument();
  });

  it('requires the first and last name and sends nothing without them', async () => {
    const { user, dialog, received } = await openEditor();
    const firstName = within(dialog).getByLabelText('First Name');
    const lastName = within(dialog).getByLabelText('Last Name');
    await user.clear(firstName);
    await user.clear(lastName);
    await user.type(lastName, '   ');

    await user.click(within(dialog).getByRole('button', { name: 'Update' }));

    expect(within(dialog).getByText('First name is required.')).toBeInTheDocument();
    expect(within(dialog).getByText('Last name is required.')).toBeInTheDocument();
    expect(firstName).toHaveAttribute('aria-invalid', 'true');
    expect(firstName).toHaveFocus();
    expect(received.edits).toEqual([]);

    await user.type(firstName, 'A');
    expect(within(dialog).queryByText('First name is required.')).not.toBeInTheDocument();
  });

  it("saves, says 'Pofile edited' and shows the new name everywhere", async () => {
    const { user, dialog, received, card } = await openEditor();
    const firstName = within(dialog).getByLabelText('First Name');
    await user.clear(firstName);
    await user.type(firstName, '  Augusta ');
    const bio = within(dialog).getByLabelText('Bio');
    await user.clear(bio);
    await user.type(bio, 'Poetical science.');

    await user.click(within(dialog).getByRole('button', { name: 'Update' }));

    expect(await screen.findByText('Pofile edited')).toBeInTheDocument();
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    expect(received.edits).toEqual([
      {
        firstName: 'Augusta',
        lastName: 'Lovelace',
        bio: 'Poetical science.',
        avatarURL: null,
        username: 'ada',
      },
    ]);
    expect(
      within(card).getByRole('heading', { level: 1, name: 'Augusta Lovelace' }),
    ).toBeInTheDocument();
    expect(within(card).getByText('Poetical science.')).toBeInTheDocument();
    const sidebar = screen.getByRole('complementary', { name: 'Sidebar' });
    expect(within(sidebar).getByText('Augusta Lovelace')).toBeInTheDocument();
    expect(readStoredSession()).toMatchObject({
      user: { firstName: 'Augusta', bio: 'Poetical science.' },
    });
    // Focus goes back to the Edit button.
    await waitFor(() => {
      expect(within(card).getByRole('button', { name: 'Edit' })).toHaveFocus();
    });
  });

  it("keeps the form and says 'Something went wrong' when saving fails", async () => {
    signIn();
    mockDirectory({ editStatus: 500 });
    const { user } = renderApp('/profile/ada');
    const card = await screen.findByRole('article', { name: 'Profile' });
    await user.click(within(card).getByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Profile' });

    await user.click(within(dialog).getByRole('button', { name: 'Update' }));

    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit Profile' })).toBeInTheDocument();
    expect(readStoredSession()).toMatchObject({ user: { firstName: 'Ada' } });
  });

  it('previews a picked avatar at once, uploads it on Update and refuses other files', async () => {
    const createObjectURL = vi.fn(() => 'blob:avatar-preview');
    const revokeObjectURL = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
    const uploads: string[] = [];
    server.use(
      http.post('/api/media', async ({ request }) => {
        const form = await request.formData();
        const purpose = form.get('purpose');
        uploads.push(typeof purpose === 'string' ? purpose : 'not text');
        return HttpResponse.json(
          {
            url: '/media/new-avatar.webp',
            thumbnailURL: '/media/new-avatar-thumb.webp',
            width: 400,
            height: 400,
            blurhash: 'LEHV6nWB2yk8pyo0adR*.7kCMdnj',
            mimeType: 'image/webp',
            size: 1234,
          },
          { status: 201 },
        );
      }),
    );
    const { user, dialog, received, card } = await openEditor();
    const picker = within(dialog).getByLabelText('Change avatar');

    // A file chooser set to show all files lets a member pick anything.
    await userEvent
      .setup({ applyAccept: false })
      .upload(picker, new File(['%PDF'], 'notes.pdf', { type: 'application/pdf' }));
    expect(
      within(dialog).getByText('Only JPEG, PNG, WebP and GIF images can be uploaded.'),
    ).toBeInTheDocument();

    await user.upload(picker, new File(['png'], 'me.png', { type: 'image/png' }));
    expect(
      within(dialog).queryByText('Only JPEG, PNG, WebP and GIF images can be uploaded.'),
    ).not.toBeInTheDocument();
    expect(dialog.querySelector('img.edit-profile__preview')).toHaveAttribute(
      'src',
      'blob:avatar-preview',
    );
    expect(uploads).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Update' }));

    expect(await screen.findByText('Pofile edited')).toBeInTheDocument();
    expect(uploads).toEqual(['avatar']);
    expect(received.edits[0]?.avatarURL).toBe('/media/new-avatar.webp');
    await waitFor(() => {
      expect(card.querySelector('img.profile-card__avatar')).toHaveAttribute(
        'src',
        '/media/new-avatar.webp',
      );
    });
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:avatar-preview');
  });
});
