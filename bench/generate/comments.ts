import { ulid } from 'ulid';
import { AliasTable, Prng } from '../lib/prng';
import { IntList } from './int-list';
import type { Members } from './members';
import type { Posts } from './posts';
import { sortTiedIds } from './tied-ids';

const COMMENTS_PER_POST = 0.5;

export interface Comments {
  /** Per post: how many comments it has. */
  commentCount: Int32Array;
  commentPost: Int32Array;
  commentAuthor: Int32Array;
  commentTime: Float64Array;
  commentIds: string[];
}

/** Comments: where, who, when; then in id (time) order. */
export function generateComments(
  seed: string,
  now: number,
  members: Members,
  posts: Posts,
  likeCount: Int32Array,
): Comments {
  const { memberTime, engagement } = members;
  const { postTime } = posts;
  const P = postTime.length;
  const commentCount = new Int32Array(P);
  const prng = new Prng(seed, 'comments');
  const table = new AliasTable(engagement);
  let likes = 0;
  for (let i = 0; i < P; i++) likes += likeCount[i] ?? 0;
  const meanLikes = likes / P;
  const commentedPosts = new IntList();
  const authors = new IntList();
  const times: number[] = [];
  for (let i = 0; i < P; i++) {
    const n = prng.poisson((COMMENTS_PER_POST * ((likeCount[i] ?? 0) + 1)) / (meanLikes + 1));
    commentCount[i] = n;
    const t = postTime[i] ?? 0;
    for (let k = 0; k < n; k++) {
      const author = table.draw(prng);
      const from = Math.max(t, memberTime[author] ?? 0);
      commentedPosts.push(i);
      authors.push(author);
      times.push(Math.floor(from + (now - from) * Math.pow(prng.float(), 3)));
    }
  }
  const order = Uint32Array.from({ length: commentedPosts.length }, (_, i) => i).sort(
    (a, b) => (times[a] ?? 0) - (times[b] ?? 0) || a - b,
  );
  const n = order.length;
  const commentPost = new Int32Array(n);
  const commentAuthor = new Int32Array(n);
  const commentTime = new Float64Array(n);
  const commentIds = new Array<string>(n);
  for (let j = 0; j < n; j++) {
    const i = order[j] ?? 0;
    commentPost[j] = commentedPosts.data[i] ?? 0;
    commentAuthor[j] = authors.data[i] ?? 0;
    commentTime[j] = times[i] ?? 0;
    commentIds[j] = ulid(commentTime[j], prng.fn);
  }
  sortTiedIds(commentIds, commentTime);
  return { commentCount, commentPost, commentAuthor, commentTime, commentIds };
}
