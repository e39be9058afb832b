import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { onDemand } from './on-demand.js';
import { whenPageSettled } from './page-settled.js';
import {
  plainSegments,
  quickSegments,
  type RichSegment,
  type RichTextOptions,
} from './rich-segments.js';

/** The link finder's chunk (ADR 0054), loaded once, when a text needs it. */
const loadLinkFinder = onDemand(() => import('./link-finder.js'));

/**
 * The distinct hashtags of a text, lowercased, as the feeds file it: read at once when the quick reading
 * takes the text, else by the link finder, loaded for it. None when the finder cannot be loaded (offline).
 */
export async function hashtagsIn(text: string): Promise<string[]> {
  const options = { hashtags: true };
  let segments = quickSegments(text, options);
  if (segments === null) {
    try {
      segments = (await loadLinkFinder()).linkedSegments(text, options);
    } catch {
      return [];
    }
  }
  const tags = new Set<string>();
  for (const segment of segments) if (segment.kind === 'hashtag') tags.add(segment.tag);
  return [...tags];
}

/** `linkedSegments` of link-finder.ts: splits a text into its runs, with every link linkifyjs finds. */
type LinkFinder = (text: string, options?: RichTextOptions) => RichSegment[];

/**
 * The link finder (ADR 0054): linkifyjs, its plugins and the tables it builds before its first scan, in a
 * chunk of its own that no page waits for. A text the quick reading cannot split shows as plain text until
 * the finder is in, then with its links; the first page asks for it once it has settled, later pages at
 * once.
 */
let linkFinder: LinkFinder | null = null;
let requested = false;
const finderListeners = new Set<() => void>();

/** Loads the link finder once the first page has settled; after a failed load, the next text asks again. */
function requestLinkFinder(): void {
  if (linkFinder || requested) return;
  requested = true;
  void whenPageSettled()
    .then(loadLinkFinder)
    .then(
      (module) => {
        linkFinder = module.linkedSegments;
        for (const listener of finderListeners) listener();
      },
      () => {
        requested = false;
      },
    );
}

function subscribeToLinkFinder(listener: () => void): () => void {
  finderListeners.add(listener);
  return () => {
    finderListeners.delete(listener);
  };
}

const currentLinkFinder = () => linkFinder;

/**
 * A text's runs: at once when the quick reading splits it, else plain until the link finder is in, which
 * it then asks for.
 */
export function useRichSegments(text: string, options: RichTextOptions): RichSegment[] {
  const { mentions, hashtags } = options;
  const quick = useMemo(
    () => quickSegments(text, { mentions, hashtags }),
    [text, mentions, hashtags],
  );
  const finder = useSyncExternalStore(subscribeToLinkFinder, currentLinkFinder, currentLinkFinder);
  const waiting = quick === null;
  useEffect(() => {
    if (waiting) requestLinkFinder();
  }, [waiting]);
  return useMemo(
    () => quick ?? (finder ? finder(text, { mentions, hashtags }) : plainSegments(text)),
    [quick, finder, text, mentions, hashtags],
  );
}
