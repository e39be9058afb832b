import { RichText } from '@web/components/ui/rich-text.js';

interface BioTextProps {
  bio: string;
  className?: string;
}

/** A bio as plain text with its web addresses as links (mentions and hashtags stay text in bios). */
export function BioText({ bio, className }: BioTextProps) {
  return <RichText text={bio} className={className} />;
}
