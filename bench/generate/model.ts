import type { Sink } from '../lib/sink';
import { generateImageCounts } from './albums';
import { generateComments, type Comments } from './comments';
import { generateFollowGraph, type FollowGraph } from './follows';
import { generateLikeCounts } from './like-counts';
import { generateMembers, type Members } from './members';
import { generatePosts, type Posts } from './posts';
import { generateRepostCounts } from './reposts';

/** Everything the load writes that is drawn up front; members and posts are referred to by index. */
export interface Model {
  members: Members;
  follows: FollowGraph;
  posts: Posts;
  /** Per post. */
  likeCount: Int32Array;
  /** Per post: a share of its likers repost it (see reposts.ts). */
  repostCount: Int32Array;
  /** Per post: how many images it shows (see albums.ts). */
  imageCount: Uint8Array;
  comments: Comments;
}

/** Each step draws from its own PRNG stream, so one step's draws never shift another's. */
export function generateModel(
  seed: string,
  postCount: number,
  memberCount: number,
  now: number,
): Model {
  const members = generateMembers(seed, memberCount, now);
  const follows = generateFollowGraph(seed, members);
  const posts = generatePosts(seed, postCount, now, members);
  const likeCount = generateLikeCounts(seed, posts, follows);
  const repostCount = generateRepostCounts(seed, likeCount);
  const comments = generateComments(seed, now, members, posts, likeCount);
  const imageCount = generateImageCounts(seed, postCount);
  return { members, follows, posts, likeCount, repostCount, imageCount, comments };
}

/** What each table's load reads: the model, where its rows go, and the instance's seed and end. */
export interface LoadInput {
  sink: Sink;
  model: Model;
  seed: string;
  now: number;
}
