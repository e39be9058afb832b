/*
 * Characters as a person sees them (issue: notifications, search and the everyday things §4): grapheme
 * clusters, so 👩‍👩‍👧‍👦, 🇫🇷, 👍🏽 and an e with a combining accent are one each. The web app's counters and
 * the server's limits both count here, so a form and the server never disagree.
 */

/**
 * Built once, on the first text with a character beyond ASCII: building a Segmenter loads the locale data
 * (ICU), which costs far more than segmenting a post, and in a browser it is the page's first use of that
 * data, about 20 ms of a fast machine's main thread (ADR 0045). Null where there is no Intl.Segmenter.
 */
let segmenter: Intl.Segmenter | null | undefined;

function graphemeSegmenter(): Intl.Segmenter | null {
  if (segmenter === undefined) {
    segmenter =
      typeof Intl.Segmenter === 'function'
        ? new Intl.Segmenter(undefined, { granularity: 'grapheme' })
        : null;
  }
  return segmenter;
}

// Between two ASCII characters there is always a cluster boundary, except inside CR LF: only the runs of
// other characters need the segmenter, and only the clusters that touch them are asked for. Each cluster
// read costs about a microsecond, so an English post with an emoji in it is counted in a fraction of that.
const otherRun = /[^\p{ASCII}]+/gu;
const beyondAscii = /[^\p{ASCII}]/u;

/** Clusters of text[from, to), all ASCII: one per character, CR LF counted once. */
function asciiClusters(text: string, from: number, to: number): number {
  let count = to - from;
  for (let index = text.indexOf('\r\n', from); index !== -1 && index + 1 < to;) {
    count -= 1;
    index = text.indexOf('\r\n', index + 2);
  }
  return count;
}

/**
 * Characters as people count them (grapheme clusters), for limits and live counters. With `atMost`, the
 * count stops at atMost + 1, so checking a limit never walks the rest of a long text.
 */
export function charCount(text: string, atMost = Infinity): number {
  if (!beyondAscii.test(text)) return Math.min(asciiClusters(text, 0, text.length), atMost + 1);
  const segmenter = graphemeSegmenter();
  if (!segmenter) {
    // A browser without Intl.Segmenter (before 2024) counts code points: never fewer than the server does.
    let points = 0;
    for (const _ of text) if (++points > atMost) break;
    return points;
  }
  const segments = segmenter.segment(text);
  let count = 0;
  // Everything before `counted` is counted, and a cluster ends there.
  let counted = 0;
  for (const run of text.matchAll(otherRun)) {
    const end = run.index + run[0].length;
    if (end <= counted) continue;
    // The cluster of the character before the run may reach into it: an e and its combining accent.
    let at = segments.containing(Math.max(run.index - 1, counted))?.index ?? run.index;
    count += asciiClusters(text, counted, at);
    while (at < end && count <= atMost) {
      const cluster = segments.containing(at);
      if (!cluster) break;
      count += 1;
      at = cluster.index + cluster.segment.length;
    }
    if (count > atMost) return atMost + 1;
    counted = at;
  }
  return Math.min(count + asciiClusters(text, counted, text.length), atMost + 1);
}

/** Line endings as \n, trailing spaces of the whole text trimmed. */
export function normaliseMultiline(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}
