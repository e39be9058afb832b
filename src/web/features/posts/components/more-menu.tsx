import { Suspense, useState, type Ref } from 'react';
import { MoreIcon } from './post-icons.js';
import { loadPostMenu, PostMenu, preload } from './lazy-parts.js';
import type { PostMenuProps } from './post-menu.js';

interface PlaceholderProps {
  triggerRef: Ref<HTMLButtonElement>;
  busy: boolean;
  onRequest?: () => void;
}

/** Looks and reads like the menu's button: "More", a menu popup, closed. */
function Placeholder({ triggerRef, busy, onRequest }: PlaceholderProps) {
  return (
    <button
      ref={triggerRef}
      type="button"
      className="post__more"
      aria-label="More"
      aria-haspopup="menu"
      aria-expanded={false}
      aria-busy={busy || undefined}
      onPointerEnter={() => {
        preload(loadPostMenu);
      }}
      onFocus={() => {
        preload(loadPostMenu);
      }}
      onClick={onRequest}
    >
      <MoreIcon />
    </button>
  );
}

/**
 * The More button. Its menu's code (Radix) arrives on first use, so readers who never open it never
 * download it: until then a plain button of the same look and name stands in, and pressing it opens
 * the menu as soon as the code is in.
 */
export function MoreMenu(props: Omit<PostMenuProps, 'initiallyOpen'>) {
  const [requested, setRequested] = useState(false);
  if (!requested) {
    return (
      <Placeholder
        busy={false}
        triggerRef={props.triggerRef}
        onRequest={() => {
          setRequested(true);
        }}
      />
    );
  }
  return (
    <Suspense fallback={<Placeholder busy triggerRef={props.triggerRef} />}>
      <PostMenu {...props} initiallyOpen />
    </Suspense>
  );
}
