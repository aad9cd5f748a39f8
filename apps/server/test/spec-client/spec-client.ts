import { CookieJar } from 'tough-cookie';

/**
 * A client written to the product specification alone (../shared/spec/product-spec.md), as its
 * original front end behaved: it reads without a token (reads are open), keeps the login answer's
 * user as the current user, decides every state from the entities' arrays (likedBy, followers,
 * following, comments), replaces its lists with what each call answers, and keys lists by `_id`
 * and `id`. It knows nothing of Perch's counts, cursors or flags. Like a browser, it keeps the
 * cookies the server sets and sends them back on every call.
 */

interface Named {
  _id: string;
  id: string;
  username: string;
}
export interface SpecUser extends Named {
  firstName: string;
  lastName: string;
  bio: string;
  avatarURL: string | null;
  followers: Named[];
  following: Named[];
}
export interface SpecComment extends Named {
  text: string;
}
export interface SpecPost {
  _id: string;
  id: string;
  content: string;
  mediaURL: string | null;
  username: string;
  userId: string;
  createdAt: string;
  comments: SpecComment[];
  likes: { likeCount: number; likedBy: Named[]; dislikedBy: Named[] };
}
export type SpecSort = 'Trending' | 'Latest' | 'Oldest';

interface Answer {
  status: number;
  data: Record<string, unknown>;
}

const ok = (status: number) => status === 200 || status === 201;

/** Local storage, shared by every "page load" of the same browser. */
export type SpecStorage = Map<string, string>;

export class SpecClient {
  token: string | null = null;
  currentUser: SpecUser | null = null;
  users: SpecUser[] = [];
  bookmarks: SpecPost[] = [];
  userDetails: SpecUser | null = null;
  posts: SpecPost[] = [];
  readonly toasts: string[] = [];

  /** A page load: the session comes back from local storage (spec section 4, Startup). */
  constructor(
    private readonly baseUrl: string,
    private readonly jar: CookieJar = new CookieJar(),
    private readonly storage: SpecStorage = new Map(),
  ) {
    const saved = storage.get('loginDetails');
    if (saved) {
      const record = JSON.parse(saved) as { token: string; user: SpecUser };
      this.token = record.token;
      this.currentUser = record.user;
    }
  }

  /** The same browser opened again: same cookies, same local storage. */
  reload(): SpecClient {
    return new SpecClient(this.baseUrl, this.jar, this.storage);
  }

  private async call(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options: { body?: unknown; auth?: boolean } = {},
  ): Promise<Answer> {
    const url = `${this.baseUrl}/api${path}`;
    const headers: Record<string, string> = {};
    const cookie = await this.jar.getCookieString(url, { sameSiteContext: 'strict' });
    if (cookie) headers.cookie = cookie;
    if (options.auth && this.token) headers.authorization = this.token;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    for (const line of response.headers.getSetCookie()) {
      await this.jar.setCookie(line, url, { sameSiteContext: 'strict' });
    }
    const text = await response.text();
    const data = (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
    return { status: response.status, data };
  }

  private signedIn(record: { token: string; user: SpecUser }, message: string): void {
    this.storage.set('loginDetails', JSON.stringify(record));
    this.token = record.token;
    this.currentUser = record.user;
    this.toasts.push(message);
  }

  private get me(): SpecUser {
    if (!this.currentUser) throw new Error('no one is signed in');
    return this.currentUser;
  }

  // ---- auth (sections 4, 7, 8) ----------------------------------------------------------------

  async login(username: string, password: string): Promise<boolean> {
    if (username === '' && password === '') {
      this.toasts.push('Please fill all inputfields');
      return false;
    }
    const { status, data } = await this.call('POST', '/auth/login', {
      body: { username, password },
    });
    if (!ok(status)) {
      this.toasts.push('Invalid username and password');
      return false;
    }
    const user = data.foundUser as SpecUser;
    this.signedIn({ token: data.encodedToken as string, user }, `Welcome back, ${user.firstName}!`);
    return true;
  }

  async signup(fields: {
    firstName: string;
    lastName: string;
    email: string;
    username: string;
    password: string;
    confirmPassword: string;
  }): Promise<boolean> {
    if (fields.password !== fields.confirmPassword) {
      this.toasts.push('Your password and confirmation password do not match.');
      return false;
    }
    const { status, data } = await this.call('POST', '/auth/signup', { body: fields });
    if (!ok(status)) {
      this.toasts.push('There was an error signing you up');
      return false;
    }
    const user = data.createdUser as SpecUser;
    this.signedIn({ token: data.encodedToken as string, user }, `Hey! ${user.firstName}`);
    return true;
  }

  logout(): void {
    this.storage.delete('loginDetails');
    this.token = null;
    this.currentUser = null;
    this.toasts.push('Logged out successfully!');
  }

  // ---- posts ----------------------------------------------------------------------------------

  /** Reads are open: no token. The list is replaced wholesale. */
  async loadPosts(): Promise<void> {
    const { status, data } = await this.call('GET', '/posts');
    if (ok(status)) this.posts = keyed(data.posts as SpecPost[]);
  }

  private async replacePosts(
    request: Promise<Answer>,
    success: string | null,
    failure: (status: number) => string,
  ): Promise<boolean> {
    const { status, data } = await request;
    if (!ok(status)) {
      this.toasts.push(failure(status));
      return false;
    }
    this.posts = keyed(data.posts as SpecPost[]);
    if (success) this.toasts.push(success);
    return true;
  }

  /** An image is the address the image host answered; none is sent as ''. */
  createPost(content: string, mediaURL = ''): Promise<boolean> {
    const postData = { comments: [], content, mediaURL, userId: this.me._id };
    return this.replacePosts(
      this.call('POST', '/posts', { body: { postData }, auth: true }),
      'New post created',
      () => 'Something went wrong, try again!',
    );
  }

  editPost(post: SpecPost, content: string): Promise<boolean> {
    return this.replacePosts(
      this.call('POST', `/posts/edit/${post._id}`, {
        body: { postData: { ...post, content } },
        auth: true,
      }),
      'Post Edited',
      () => 'Smething went wrong, please try again.',
    );
  }

  deletePost(post: SpecPost): Promise<boolean> {
    return this.replacePosts(
      this.call('DELETE', `/posts/${post._id}`, { auth: true }),
      'Post Deleted',
      () => 'Post can not be delete',
    );
  }

  /** Section 4: liked when the current username is in likedBy. */
  isLiked(post: SpecPost): boolean {
    return post.likes.likedBy.some((user) => user.username === this.me.username);
  }

  /** The like button toggles between the like and dislike actions. */
  toggleLike(post: SpecPost): Promise<boolean> {
    return this.isLiked(post)
      ? this.replacePosts(
          this.call('POST', `/posts/dislike/${post._id}`, { auth: true }),
          null,
          () => 'Something went wrong.',
        )
      : this.like(post);
  }

  like(post: SpecPost): Promise<boolean> {
    return this.replacePosts(
      this.call('POST', `/posts/like/${post._id}`, { auth: true }),
      null,
      (status) =>
        status === 400 ? 'Cannot like a post that is already liked.' : 'Something went wrong',
    );
  }

  /** Section 4's sorts, applied to the loaded posts. */
  sorted(posts: readonly SpecPost[], sort: SpecSort): SpecPost[] {
    const time = (post: SpecPost) => Date.parse(post.createdAt);
    const order = {
      Trending: (a: SpecPost, b: SpecPost) => b.likes.likeCount - a.likes.likeCount,
      Latest: (a: SpecPost, b: SpecPost) => time(b) - time(a),
      Oldest: (a: SpecPost, b: SpecPost) => time(a) - time(b),
    }[sort];
    return [...posts].sort(order);
  }

  /** Home: posts of the current user and of the users they follow, compared by username. */
  homeFeed(sort: SpecSort = 'Latest'): SpecPost[] {
    const mine = (post: SpecPost) =>
      post.username === this.me.username ||
      this.me.following.some((user) => user.username === post.username);
    return this.sorted(this.posts.filter(mine), sort);
  }

  likedPosts(): SpecPost[] {
    return this.posts.filter((post) => this.isLiked(post));
  }

  // ---- comments: shown from post.comments, never GET /comments -------------------------------

  addComment(post: SpecPost, text: string): Promise<boolean> {
    if (text === '') return Promise.resolve(false);
    return this.replacePosts(
      this.call('POST', `/comments/add/${post._id}`, {
        body: { commentData: { text } },
        auth: true,
      }),
      null,
      () => 'Something went wrong!',
    );
  }

  editComment(post: SpecPost, comment: SpecComment, text: string): Promise<boolean> {
    return this.replacePosts(
      this.call('POST', `/comments/edit/${post._id}/${comment._id}`, {
        body: { commentData: { text } },
        auth: true,
      }),
      'Post edited',
      () => 'Something went wrong',
    );
  }

  deleteComment(post: SpecPost, comment: SpecComment): Promise<boolean> {
    return this.replacePosts(
      this.call('DELETE', `/comments/delete/${post._id}/${comment._id}`, { auth: true }),
      'Comment deleted',
      () => 'Something went wrong',
    );
  }

  // ---- bookmarks (the one read that sends a token: section 7) ---------------------------------

  async loadBookmarks(): Promise<void> {
    const { status, data } = await this.call('GET', '/users/bookmark', { auth: true });
    if (ok(status)) this.bookmarks = keyed(data.bookmarks as SpecPost[]);
  }

  isBookmarked(post: SpecPost): boolean {
    return this.bookmarks.some((saved) => saved._id === post._id);
  }

  async toggleBookmark(post: SpecPost): Promise<boolean> {
    const adding = !this.isBookmarked(post);
    const path = adding ? `/users/bookmark/${post._id}` : `/users/remove-bookmark/${post._id}`;
    const { status, data } = await this.call('POST', path, { auth: true });
    if (!ok(status)) {
      if (status !== 400) this.toasts.push('Something went wrong!');
      else this.toasts.push(adding ? 'Post is already bookmarked.' : 'Post not bookmarked yet');
      return false;
    }
    this.bookmarks = keyed(data.bookmarks as SpecPost[]);
    if (adding) this.toasts.push('Added to bookmarks.');
    return true;
  }

  // ---- users ----------------------------------------------------------------------------------

  async loadUsers(): Promise<void> {
    const { status, data } = await this.call('GET', '/users');
    if (ok(status)) this.users = keyed(data.users as SpecUser[]);
  }

  /** Section 5: neither the current user nor anyone they follow, compared by username. */
  whoToFollow(): SpecUser[] {
    return this.users.filter(
      (user) =>
        user.username !== this.me.username &&
        !this.me.following.find((followed) => followed.username === user.username),
    );
  }

  /** Section 5: the lowercased query as a substring of username, first or last name. */
  search(query: string): SpecUser[] {
    const q = query.toLowerCase();
    return this.users.filter((user) =>
      [user.username, user.firstName, user.lastName].some((field) => field.includes(q)),
    );
  }

  async loadProfile(username: string): Promise<void> {
    const { status, data } = await this.call('GET', `/users/${username}`);
    if (ok(status)) this.userDetails = data.user as SpecUser;
  }

  /** The profile's counts, as the original screen showed them. */
  profileCounts(user: SpecUser): { followers: number; following: number } {
    return { followers: user.followers.length, following: user.following.length };
  }

  /** Follow or Unfollow: whether the profile's followers hold the current user. */
  followsProfile(user: SpecUser): boolean {
    return user.followers.some((follower) => follower.username === this.me.username);
  }

  async toggleFollow(user: SpecUser): Promise<boolean> {
    const verb = this.followsProfile(user) ? 'unfollow' : 'follow';
    const { status, data } = await this.call('POST', `/users/${verb}/${user._id}`, { auth: true });
    if (!ok(status)) {
      this.toasts.push('Something went wrong');
      return false;
    }
    const followUser = data.followUser as SpecUser;
    this.currentUser = data.user as SpecUser;
    this.users = this.users.map((listed) => (listed._id === followUser._id ? followUser : listed));
    if (this.userDetails?._id === followUser._id) this.userDetails = followUser;
    this.toasts.push(`${verb === 'follow' ? 'Followed' : 'Unfollowed'} @${followUser.username}`);
    return true;
  }

  async editProfile(changes: {
    firstName: string;
    lastName: string;
    bio: string;
  }): Promise<boolean> {
    const { avatarURL, _id, username } = this.me;
    const userData = { ...changes, avatarURL: avatarURL ?? '', _id, username };
    const { status, data } = await this.call('POST', '/users/edit', {
      body: { userData },
      auth: true,
    });
    if (!ok(status)) {
      this.toasts.push('Something went wrong');
      return false;
    }
    this.currentUser = data.user as SpecUser;
    this.toasts.push('Pofile edited');
    return true;
  }
}

/** Lists are keyed by `_id` and by `id` (React keys): both must be there and agree. */
function keyed<T extends { _id: string; id: string }>(items: T[]): T[] {
  for (const item of items) {
    if (typeof item._id !== 'string' || item.id !== item._id) {
      throw new Error(`a listed record lacks a matching _id and id: ${JSON.stringify(item)}`);
    }
  }
  return items;
}
