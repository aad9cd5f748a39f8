import { describe, expect, it } from 'vitest';
import { openingScreens, shouldMountApp } from './boot';

function root(publicPage?: 'profile' | 'post'): HTMLElement {
  const element = document.createElement('div');
  element.id = 'root';
  if (publicPage !== undefined) element.dataset.publicPage = publicPage;
  return element;
}

describe('shouldMountApp', () => {
  it('leaves a public page the server rendered to a reader without a session', () => {
    expect(shouldMountApp(root('profile'), false)).toBe(false);
    expect(shouldMountApp(root('post'), false)).toBe(false);
  });

  it('mounts the app over a public page for a member with a session', () => {
    expect(shouldMountApp(root('profile'), true)).toBe(true);
    expect(shouldMountApp(root('post'), true)).toBe(true);
  });

  it('mounts the app on its own empty root, with or without a session', () => {
    expect(shouldMountApp(root(), false)).toBe(true);
    expect(shouldMountApp(root(), true)).toBe(true);
  });
});

describe('openingScreens', () => {
  it('fetches the signed-in layout beside the screen of the address', () => {
    expect(openingScreens('/', true)).toEqual(['layout', 'home']);
    expect(openingScreens('/explore', true)).toEqual(['layout', 'explore']);
    expect(openingScreens('/profile/grace_h', true)).toEqual(['layout', 'profile']);
    expect(openingScreens('/@grace_h', true)).toEqual(['layout', 'profile']);
    expect(openingScreens('/@grace_h/', true)).toEqual(['layout', 'profile']);
    expect(openingScreens('/post/p-1', true)).toEqual(['layout', 'post']);
    expect(openingScreens('/@grace_h/p-1', true)).toEqual(['layout', 'post']);
    expect(openingScreens('/tags/harbour', true)).toEqual(['layout', 'tag']);
    expect(openingScreens('/settings/', true)).toEqual(['layout', 'settings']);
  });

  it('fetches the login page where a visitor without a session is sent', () => {
    expect(openingScreens('/', false)).toEqual(['login']);
    expect(openingScreens('/@grace_h', false)).toEqual(['login']);
    expect(openingScreens('/login', false)).toEqual(['login']);
    expect(openingScreens('/signup', false)).toEqual(['signup']);
  });

  it('fetches the 404 page for an unknown address', () => {
    expect(openingScreens('/nowhere', true)).toEqual(['notFound']);
    expect(openingScreens('/nowhere', false)).toEqual(['notFound']);
    expect(openingScreens('/@grace_h/p-1/more', true)).toEqual(['notFound']);
    expect(openingScreens('/@', true)).toEqual(['notFound']);
  });
});
