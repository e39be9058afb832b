import { useState } from 'react';
import { displayNameOf, type NameParts } from '@shared/display-name.js';
import { defaultImages } from '@shared/paths.js';
import { avatarSources, srcSetOf } from '@web/lib/image-sources.js';

/** A user document, or an author (which carries only the small rendition). */
type AvatarUser = NameParts & { avatar?: string | null; avatarThumb?: string | null };

const pixels = { sm: 32, md: 40, lg: 96, xl: 144 } as const;

interface AvatarProps {
  user: AvatarUser | null;
  /** Say whose avatar it is, or "" when the name is printed right beside it. */
  alt: string;
  size?: keyof typeof pixels;
  className?: string;
}

function initialsOf(user: AvatarUser | null): string {
  const words = displayNameOf(user).split(/\s+/).filter(Boolean);
  return words
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
}

/**
 * spec §3: the user's avatar, else /img/default-avatar.png; when an image fails to load,
 * /default-avatar.png is tried once. If even that fails we draw initials instead of looping.
 */
export function Avatar({ user, alt, size = 'md', className }: AvatarProps) {
  // Small places take the 96×96 rendition when the server made one.
  const small = size === 'sm' || size === 'md';
  const preferred =
    (small ? user?.avatarThumb : null) || user?.avatar || user?.avatarThumb || defaultImages.avatar;
  const [failed, setFailed] = useState<{ src: string; fallbackFailed: boolean } | null>(null);
  const usingFallback = failed?.src === preferred;
  // The browser picks 96 or 400 for the size drawn and the screen's density (a 144 px avatar on a 2× phone).
  const srcSet = usingFallback
    ? undefined
    : srcSetOf(avatarSources(user?.avatar ?? null, user?.avatarThumb ?? null));
  const classes = ['avatar', `avatar--${size}`, className ?? ''].join(' ').trim();

  if (usingFallback && failed.fallbackFailed) {
    return (
      <span
        className={`${classes} avatar--initials`}
        role={alt ? 'img' : undefined}
        aria-label={alt || undefined}
        aria-hidden={alt ? undefined : true}
      >
        {initialsOf(user)}
      </span>
    );
  }

  return (
    <img
      className={classes}
      src={usingFallback ? defaultImages.avatarFallback : preferred}
      srcSet={srcSet}
      sizes={srcSet ? `${String(pixels[size])}px` : undefined}
      alt={alt}
      width={pixels[size]}
      height={pixels[size]}
      loading="lazy"
      decoding="async"
      onError={() => {
        setFailed(
          usingFallback
            ? { src: preferred, fallbackFailed: true }
            : { src: preferred, fallbackFailed: false },
        );
      }}
    />
  );
}
