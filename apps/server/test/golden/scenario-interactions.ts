import type { Comment } from '@perch/contract';
import type { Recorder } from './recorder';
import type { MemberName, World } from './scenario-writes';

const UNKNOWN_ID = '00000000000000000000000000';

async function likes(r: Recorder, w: World): Promise<void> {
  const like = (who: MemberName, postId: string, minimal = true) =>
    r.send(who, { method: 'POST', url: `/api/posts/like/${postId}`, minimal });
  await like('ben', w.post('hello'), false);
  for (const who of ['cara', 'eve', 'dan', 'finn'] as const) await like(who, w.post('hello'));
  await like('ben', w.post('photo'));
  await like('cara', w.post('bread'));
  await like('anna', w.post('bread'));
  await like('ben', w.post('hello'));
  await like('ben', UNKNOWN_ID);
  await r.send('ben', {
    method: 'POST',
    url: `/api/posts/dislike/${w.post('photo')}`,
    minimal: true,
  });
  await r.send('ben', {
    method: 'POST',
    url: `/api/posts/dislike/${w.post('photo')}`,
    minimal: true,
  });
  await r.send('ben', { method: 'POST', url: `/api/posts/dislike/${w.post('cafe')}` });
  await r.send('anonymous', { method: 'POST', url: `/api/posts/like/${w.post('cafe')}` });
}

async function bookmarks(r: Recorder, w: World): Promise<void> {
  const add = (who: MemberName, postId: string, minimal = true) =>
    r.send(who, { method: 'POST', url: `/api/users/bookmark/${postId}`, minimal });
  await add('ben', w.post('hello'), false);
  await add('ben', w.post('cafe'));
  await add('ben', w.post('bread'));
  await add('cara', w.post('hello'));
  await add('eve', w.post('bread'));
  await add('ben', w.post('hello'));
  await r.send('ben', { method: 'POST', url: `/api/users/remove-bookmark/${w.post('cafe')}` });
  await r.send('ben', { method: 'POST', url: `/api/users/remove-bookmark/${w.post('cafe')}` });
}

async function comments(r: Recorder, w: World): Promise<void> {
  const hello = w.post('hello');
  const bread = w.post('bread');
  const add = async (
    key: string,
    who: MemberName,
    postId: string,
    text: string,
    minimal = true,
  ) => {
    const url = `/api/comments/add/${postId}`;
    const body = await r.json<{ comment: Comment }>(who, {
      method: 'POST',
      url,
      payload: { commentData: { text } },
      minimal,
    });
    w.comments.set(key, body.comment._id);
  };
  await add('great', 'ben', hello, 'Great post @anna #perch', false);
  await add('agreed', 'cara', hello, 'Agreed!');
  await add('thanks', 'anna', hello, 'Thanks @cara');
  await add('dan', 'dan', hello, 'dan was here');
  await add('finn', 'finn', hello, 'finn likes #coffee too');
  await add('tmp', 'cara', bread, 'a comment the post author removes');
  await add('eveOnBread', 'eve', bread, 'Smells good #baking');
  await r.send('cara', {
    method: 'POST',
    url: `/api/comments/add/${hello}`,
    payload: { commentData: { text: '  ' } },
  });
  await r.send('cara', {
    method: 'POST',
    url: `/api/comments/add/${UNKNOWN_ID}`,
    payload: { commentData: { text: 'hi' } },
  });
  const edit = (who: MemberName, postId: string, key: string, text: string, minimal = true) =>
    r.send(who, {
      method: 'POST',
      url: `/api/comments/edit/${postId}/${w.comment(key)}`,
      payload: { commentData: { text } },
      minimal,
    });
  await edit('cara', hello, 'agreed', 'Agreed, #coffee forever!');
  await edit('cara', hello, 'agreed', 'Agreed, #coffee forever, @eve!', true);
  await edit('ben', hello, 'agreed', 'not mine');
  const remove = (who: MemberName, postId: string, key: string, minimal = true) =>
    r.send(who, {
      method: 'DELETE',
      url: `/api/comments/delete/${postId}/${w.comment(key)}`,
      minimal,
    });
  await remove('anna', bread, 'eveOnBread');
  await remove('ben', bread, 'tmp');
  await remove('ben', hello, 'eveOnBread');
}

async function votes(r: Recorder, w: World): Promise<void> {
  const hello = w.post('hello');
  const vote = (who: MemberName, direction: 'up' | 'down', key: string, minimal = true) =>
    r.send(who, {
      method: 'POST',
      url: `/api/comments/${direction}vote/${hello}/${key === 'nothing' ? UNKNOWN_ID : w.comment(key)}`,
      minimal,
    });
  await vote('anna', 'up', 'great', false);
  await vote('cara', 'down', 'great');
  await vote('eve', 'up', 'great');
  await vote('ben', 'up', 'agreed');
  await vote('anna', 'up', 'great');
  await vote('cara', 'up', 'great');
  await vote('cara', 'down', 'thanks', false);
  await vote('cara', 'down', 'thanks');
  await vote('cara', 'up', 'nothing');
  await r.send('cara', {
    method: 'POST',
    url: `/api/comments/upvote/${w.post('bread')}/${w.comment('great')}`,
  });
}

async function postEdits(r: Recorder, w: World): Promise<void> {
  const edit = (who: MemberName, postId: string, postData: object, minimal = true) =>
    r.send(who, {
      method: 'POST',
      url: `/api/posts/edit/${postId}`,
      payload: { postData },
      minimal,
    });
  await edit('anna', w.post('hello'), {
    content: 'Hello #Perch, good morning @ben and @eve! Coffee time #coffee #edited',
  });
  await edit('anna', w.post('photo'), { mediaAlt: 'The sky at dusk' }, true);
  await edit('anna', w.post('photo'), { content: '', mediaURL: null }, true);
  await edit('ben', w.post('hello'), { content: 'not mine' });
  await r.send('ben', { method: 'DELETE', url: `/api/posts/${w.post('gone')}` });
  await r.send('anna', { method: 'DELETE', url: `/api/posts/${w.post('gone')}` });
  await r.send('anna', { method: 'DELETE', url: `/api/posts/${w.post('gone')}`, minimal: true });
}

async function safety(r: Recorder, w: World): Promise<void> {
  const { anna, ben, dan } = w.users;
  await r.send('eve', { method: 'POST', url: `/api/users/mute/${ben._id}` });
  await r.send('eve', { method: 'POST', url: `/api/users/mute/${ben._id}` });
  await r.send('anna', { method: 'POST', url: `/api/users/block/${dan._id}` });
  await r.send('anna', { method: 'POST', url: `/api/users/block/${anna._id}` });
  await r.send('cara', { method: 'POST', url: `/api/users/block/${UNKNOWN_ID}` });
  await r.send('cara', { method: 'POST', url: `/api/users/block/${dan._id}` });
  await r.send('cara', { method: 'POST', url: `/api/users/unblock/${dan._id}` });
  await r.send('cara', { method: 'POST', url: `/api/users/mute/${ben._id}` });
  await r.send('cara', { method: 'POST', url: `/api/users/unmute/${ben._id}` });
  await r.send('dan', { method: 'POST', url: `/api/users/follow/${anna._id}` });
  await r.send('dan', { method: 'POST', url: `/api/posts/like/${w.post('hello')}` });
  await r.send('dan', { method: 'POST', url: `/api/users/bookmark/${w.post('hello')}` });
  await r.send('dan', {
    method: 'POST',
    url: `/api/comments/add/${w.post('hello')}`,
    payload: { commentData: { text: 'hey' } },
  });
  await r.send('dan', {
    method: 'POST',
    url: `/api/comments/upvote/${w.post('hello')}/${w.comment('thanks')}`,
  });
}

/** Likes, bookmarks, comments and votes, edits and deletes, mutes and blocks, in a fixed order. */
export async function interact(r: Recorder, w: World): Promise<void> {
  await likes(r, w);
  await bookmarks(r, w);
  await comments(r, w);
  await votes(r, w);
  await postEdits(r, w);
  await safety(r, w);
}
