import type { MediaUploadResponse, Post, SignupResponse, User } from '@perch/contract';
import { filePart, multipart, png } from '../media/fixtures';
import type { Recorder } from './recorder';

/** The members of the instance: username and the name the golden file shows them by. */
export const MEMBERS = ['anna', 'ben', 'cara', 'dan', 'eve', 'finn'] as const;
export type MemberName = (typeof MEMBERS)[number];
export const PASSWORD = 'correct horse battery';

/** What later steps need to name: members, and posts and comments by a name of the scenario. */
export class World {
  readonly posts = new Map<string, string>();
  readonly comments = new Map<string, string>();
  imageURL = '';

  constructor(readonly users: Record<MemberName, User>) {}

  post(key: string): string {
    const id = this.posts.get(key);
    if (id === undefined) throw new Error(`no post ${key} in the scenario`);
    return id;
  }

  comment(key: string): string {
    const id = this.comments.get(key);
    if (id === undefined) throw new Error(`no comment ${key} in the scenario`);
    return id;
  }
}

const capitalised = (name: string) => `${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`;

async function signUp(r: Recorder): Promise<Record<MemberName, User>> {
  const users: Partial<Record<MemberName, User>> = {};
  for (const name of MEMBERS) {
    const body = await r.json<SignupResponse>('anonymous', {
      method: 'POST',
      url: '/api/auth/signup',
      payload: {
        firstName: capitalised(name),
        lastName: `${capitalised(name)}son`,
        email: `${name}@example.com`,
        username: name,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      },
    });
    r.tokens.set(name, body.encodedToken);
    users[name] = body.createdUser;
  }
  const taken = { firstName: 'A', lastName: 'B', email: 'x@example.com', username: 'anna' };
  const signup = (payload: object) => ({
    method: 'POST' as const,
    url: '/api/auth/signup',
    payload,
  });
  await r.send('anonymous', signup({ ...taken, password: PASSWORD, confirmPassword: PASSWORD }));
  await r.send(
    'anonymous',
    signup({ ...taken, username: 'zed', password: PASSWORD, confirmPassword: 'other one' }),
  );
  await r.send('anonymous', signup({ username: 'zed' }));
  return users as Record<MemberName, User>;
}

async function uploadImage(r: Recorder, viewer: MemberName, purpose: string, seed: number) {
  const body = multipart([
    { name: 'purpose', value: purpose },
    filePart(await png(64, 48, seed), 'p.png', 'image/png'),
  ]);
  // The boundary is random: the headers are sent, the golden file shows only the answer.
  return r.json<MediaUploadResponse>(viewer, {
    method: 'POST',
    url: '/api/media',
    payload: body.payload,
    headers: body.headers,
  });
}

async function editProfile(r: Recorder): Promise<void> {
  const avatar = await uploadImage(r, 'anna', 'avatar', 11);
  const edit = (userData: object) => ({
    method: 'POST' as const,
    url: '/api/users/edit',
    payload: { userData },
  });
  await r.send(
    'anna',
    edit({
      firstName: 'Anna',
      lastName: 'Annason',
      bio: 'Writes about #coffee',
      avatarURL: avatar.url,
    }),
  );
  await r.send('anna', {
    ...edit({
      firstName: 'Anna',
      lastName: 'Annason',
      bio: 'Writes about #coffee',
      avatarURL: avatar.url,
    }),
    minimal: true,
  });
  await r.send('anna', edit({ firstName: 'Anna', lastName: 'Annason', username: 'other' }));
  await r.send('anna', edit({ firstName: '', lastName: 'Annason' }));
  await r.send(
    'ben',
    edit({ firstName: 'Ben', lastName: 'Benson', avatarURL: 'https://elsewhere.example/a.png' }),
  );
  await r.send('anonymous', edit({ firstName: 'Nobody', lastName: 'Nobody' }));
}

async function follows(r: Recorder, users: Record<MemberName, User>): Promise<void> {
  const follow = (who: MemberName, whom: MemberName, minimal = true) =>
    r.send(who, { method: 'POST', url: `/api/users/follow/${users[whom]._id}`, minimal });
  await follow('ben', 'anna', false);
  for (const [who, whom] of [
    ['eve', 'anna'],
    ['finn', 'anna'],
    ['dan', 'anna'],
    ['anna', 'ben'],
    ['cara', 'ben'],
    ['eve', 'cara'],
  ] as const) {
    await follow(who, whom);
  }
  await follow('ben', 'anna');
  await follow('anna', 'anna');
  await r.send('eve', { method: 'POST', url: `/api/users/unfollow/${users.cara._id}` });
  await r.send('eve', { method: 'POST', url: `/api/users/unfollow/${users.cara._id}` });
  await r.send('eve', { method: 'POST', url: '/api/users/follow/00000000000000000000000000' });
}

const POSTS: [key: string, author: MemberName, content: string][] = [
  ['hello', 'anna', 'Hello #Perch, good morning @ben! Coffee time #coffee'],
  ['bread', 'ben', 'Baking bread today #baking #coffee with @anna and @cara'],
  ['cafe', 'cara', 'Café crème in Paris #café, see https://example.com/menu#drinks'],
  ['dan', 'dan', 'dan here, also drinking #coffee'],
  ['eve', 'eve', "eve's first post #perch"],
  ['gone', 'anna', 'A post that will be deleted #coffee'],
  ['bread2', 'ben', 'Second loaf #baking'],
  ['finn', 'finn', 'finn says hi to @anna'],
];

async function createPosts(r: Recorder, world: World): Promise<void> {
  const create = (
    author: MemberName,
    postData: object,
    minimal: boolean,
    headers?: Record<string, string>,
  ) =>
    r.json<{ post: Post }>(author, {
      method: 'POST',
      url: '/api/posts',
      payload: { postData },
      minimal,
      ...(headers ? { headers } : {}),
    });
  for (const [index, [key, author, content]] of POSTS.entries()) {
    world.posts.set(key, (await create(author, { content, mediaURL: null }, index !== 0)).post._id);
  }
  const photo = {
    content: 'Sunset #photo',
    mediaURL: world.imageURL,
    mediaAlt: '  An orange sky  ',
  };
  world.posts.set('photo', (await create('anna', photo, true)).post._id);
  const key = { 'idempotency-key': 'golden-key-0001' };
  world.posts.set('once', (await create('eve', { content: 'Sent once' }, true, key)).post._id);
  await create('eve', { content: 'Sent once' }, true, key);
  await r.send('anna', {
    method: 'POST',
    url: '/api/posts',
    payload: { postData: { content: '   ' } },
  });
  await r.send('anna', {
    method: 'POST',
    url: '/api/posts',
    payload: { postData: { content: 'x'.repeat(2001) } },
  });
  await r.send('anna', {
    method: 'POST',
    url: '/api/posts',
    payload: { postData: { content: 'x', mediaURL: 'blob:abc' } },
  });
  await r.send('anonymous', {
    method: 'POST',
    url: '/api/posts',
    payload: { postData: { content: 'x' } },
  });
  await r.send('eve', {
    method: 'POST',
    url: '/api/posts',
    payload: { postData: { content: 'x' } },
    headers: { 'idempotency-key': 'no' },
  });
}

export async function buildInstance(r: Recorder): Promise<World> {
  const users = await signUp(r);
  const world = new World(users);
  world.imageURL = (await uploadImage(r, 'anna', 'post', 7)).url;
  await r.send('anna', {
    method: 'POST',
    url: '/api/media',
    payload: 'not a picture',
    headers: { 'content-type': 'text/plain' },
  });
  await editProfile(r);
  await follows(r, users);
  await createPosts(r, world);
  return world;
}
