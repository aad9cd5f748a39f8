/** Placeholder cards shown while a feed loads. */
export function PostSkeletons({ count = 3 }: { count?: number }) {
  return (
    <div className="post-skeletons" role="status" aria-label="Loading posts">
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className="post-card post-card--skeleton" data-testid="post-skeleton">
          <div className="post-card__header">
            <span className="skeleton skeleton--avatar" />
            <span className="post-skeleton__lines">
              <span className="skeleton skeleton--line" style={{ width: '40%' }} />
              <span className="skeleton skeleton--line" style={{ width: '25%' }} />
            </span>
          </div>
          <span className="skeleton skeleton--line" style={{ width: '92%' }} />
          <span className="skeleton skeleton--line" style={{ width: '78%' }} />
          <span className="skeleton skeleton--line" style={{ width: '55%' }} />
        </div>
      ))}
    </div>
  );
}
