/** The shape of a post while the list loads. */
export function PostSkeleton() {
  return (
    <div className="post post--skeleton" aria-hidden="true">
      <div className="post__header">
        <span className="skeleton post-skeleton__avatar" />
        <span className="post-skeleton__byline">
          <span className="skeleton skeleton--line skeleton--short" />
        </span>
      </div>
      <span className="skeleton skeleton--line" />
      <span className="skeleton skeleton--line skeleton--medium" />
    </div>
  );
}
