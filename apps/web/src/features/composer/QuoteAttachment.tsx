import type { Post } from '@perch/contract';
import { QuoteEmbed, quoteOfPost } from '../../entities/post/QuoteEmbed';
import { Button } from '../../shared/components/Button';

interface QuoteAttachmentProps {
  post: Post;
  /** Called with null when the member removes the quote. */
  onChange: (post: Post | null) => void;
}

/** The post a new post quotes, under the text, with Remove quote. */
export function QuoteAttachment({ post, onChange }: QuoteAttachmentProps) {
  return (
    <div className="quote-composer">
      <QuoteEmbed quote={quoteOfPost(post)} />
      <Button
        type="button"
        variant="ghost"
        className="quote-composer__remove"
        onClick={() => {
          onChange(null);
        }}
      >
        Remove quote
      </Button>
    </div>
  );
}
