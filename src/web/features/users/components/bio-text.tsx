import { RichText } from '@web/components/ui/rich-text.js';

interface BioTextProps {
  bio: string;
  /** The accounts the bio mentions that exist (the user document's bioMentions): only these link. */
  mentions: readonly string[];
  className?: string;
}

/** A bio with its web addresses, #hashtags and the @mentions of existing accounts as links, as posts have. */
export function BioText({ bio, mentions, className }: BioTextProps) {
  return <RichText text={bio} className={className} mentions={mentions} hashtags />;
}
