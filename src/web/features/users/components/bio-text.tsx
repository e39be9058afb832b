import { Fragment, useMemo } from 'react';
import { bioSegments } from '../profile-links.js';

interface BioTextProps {
  bio: string;
  className?: string;
}

/**
 * A bio as plain text (line breaks kept by CSS) with its web addresses as links. Built from
 * linkifyjs tokens as React elements, never as HTML. Links are user content: nofollow, ugc.
 */
export function BioText({ bio, className }: BioTextProps) {
  const segments = useMemo(() => bioSegments(bio), [bio]);
  return (
    <p className={className}>
      {segments.map((segment, index) =>
        segment.kind === 'link' ? (
          <a key={index} href={segment.href} rel="nofollow noopener ugc">
            {segment.text}
          </a>
        ) : (
          <Fragment key={index}>{segment.text}</Fragment>
        ),
      )}
    </p>
  );
}
