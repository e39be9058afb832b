/** Placeholder with the profile's shape, so the page does not jump when the data arrives. */
export function ProfileSkeleton() {
  return (
    <div className="profile profile--skeleton" role="status" aria-label="Loading profile">
      <div className="profile__cover skeleton" />
      <div className="profile__body">
        <div className="profile__identity">
          <span className="avatar avatar--xl profile__avatar skeleton" />
          <div className="profile__names">
            <span className="skeleton skeleton--line skeleton--title" />
            <span className="skeleton skeleton--line skeleton--short" />
          </div>
        </div>
        <span className="skeleton skeleton--line" />
        <span className="skeleton skeleton--line skeleton--short" />
      </div>
    </div>
  );
}
