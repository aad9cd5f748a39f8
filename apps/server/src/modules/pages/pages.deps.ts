import type { CommentsService } from '../comments/comments.service';
import type { MediaService } from '../media/media.service';
import type { PostsService } from '../posts/posts.service';
import type { UsersService } from '../users/users.service';

/** What the public pages read, all of it through other modules' services as a visitor. */
export interface PagesDeps {
  users: Pick<UsersService, 'publicMember' | 'publicAmong'>;
  posts: Pick<PostsService, 'byAuthor' | 'open'>;
  comments: Pick<CommentsService, 'list'>;
  media: Pick<MediaService, 'sizesOf'>;
}
