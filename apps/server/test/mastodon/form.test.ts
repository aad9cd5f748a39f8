import { describe, expect, it } from 'vitest';
import { parseForm } from '../../src/mastodon/form';

describe("Mastodon's form bodies", () => {
  it('reads lists, repeated names and nested parameters as Rails does', () => {
    const form = parseForm(
      'status=Hi&media_ids[]=a&media_ids[]=b&poll[options][]=x&poll[options][]=y&poll[multiple]=true&scope=read&scope=write',
    );
    expect({ ...form, poll: { ...(form.poll as object) } }).toEqual({
      status: 'Hi',
      media_ids: ['a', 'b'],
      poll: { options: ['x', 'y'], multiple: 'true' },
      scope: ['read', 'write'],
    });
  });

  it('never reaches an object prototype', () => {
    const form = parseForm('__proto__[polluted]=yes&a[constructor][prototype][bad]=1&ok=1');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).bad).toBeUndefined();
    expect(Object.keys(form)).toEqual(['ok']);
  });
});
