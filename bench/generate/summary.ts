import { percentile } from '../lib/prng';
import type { Model } from './model';

/** Log lines on the model's skew: likes, reposts and images per post, followers and followees per member. */
export function describeDistributions(model: Model): string[] {
  const sortedLikes = Int32Array.from(model.likeCount).sort();
  const sortedReposts = Int32Array.from(model.repostCount).sort();
  const sortedFollowers = Int32Array.from(model.follows.followers).sort();
  const sortedFollowing = Int32Array.from(model.follows.following).sort();
  return [
    `  likes per post: p50 ${percentile(sortedLikes, 50)}, p99 ${percentile(sortedLikes, 99)}, max ${
      sortedLikes[sortedLikes.length - 1] ?? 0
    }; posts with ≥1000 likes: ${sortedLikes.filter((n) => n >= 1000).length}`,
    `  reposts per post: p90 ${percentile(sortedReposts, 90)}, p99 ${percentile(sortedReposts, 99)}, max ${
      sortedReposts[sortedReposts.length - 1] ?? 0
    }; posts reposted: ${sortedReposts.filter((n) => n > 0).length}`,
    `  posts with images: ${model.imageCount.filter((n) => n > 0).length}, albums (2+): ${
      model.imageCount.filter((n) => n > 1).length
    }`,
    `  followers: p50 ${percentile(sortedFollowers, 50)}, p99 ${percentile(sortedFollowers, 99)}, max ${
      sortedFollowers[sortedFollowers.length - 1] ?? 0
    } (${model.members.celebrities.length} celebrities); following: p50 ${percentile(sortedFollowing, 50)}, p90 ${percentile(
      sortedFollowing,
      90,
    )}, max ${sortedFollowing[sortedFollowing.length - 1] ?? 0}`,
  ];
}
