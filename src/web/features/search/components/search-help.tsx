/** The search box's language, spelled out (issue: notifications and search §3). */
export function SearchHelp({ open = false }: { open?: boolean }) {
  return (
    <details className="search-help" open={open}>
      <summary>Search tips</summary>
      <dl className="search-help__list">
        <div>
          <dt>
            <code>from:username</code>
          </dt>
          <dd>Posts by one person.</dd>
        </div>
        <div>
          <dt>
            <code>#tag</code>
          </dt>
          <dd>Posts with that hashtag.</dd>
        </div>
        <div>
          <dt>
            <code>&quot;exact phrase&quot;</code>
          </dt>
          <dd>Those words, in that order.</dd>
        </div>
        <div>
          <dt>Several words</dt>
          <dd>Posts with all of them; the last may be unfinished.</dd>
        </div>
      </dl>
    </details>
  );
}
