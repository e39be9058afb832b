/*
 * How SQLite's search ranks the matches it found (ADR 0043): by how much of each post the search's words
 * are, then by age, as PostgreSQL's `ts_rank` does it, from the text alone. FTS5's own `bm25` weighs each
 * word by how rare it is in the whole index, and to know that it reads every post holding the word:
 * 10–20 ms for a common word on a million posts, on every search, when every match holds every word anyway.
 */

/** Relevance halves when a post is this many days old, and keeps falling with age. */
export const recencyDays = 30;

/** BM25's term-frequency saturation and length normalisation, as FTS5's `bm25` sets them. */
const k1 = 1.2;
const b = 0.75;

/**
 * A text's words as the index splits them (`unicode61 remove_diacritics 2`): runs of letters and digits,
 * lower-cased, without accents. Close enough for ranking, which only weighs posts the index already matched.
 */
export function searchTokens(text: string): string[] {
  const tokens = ascii.test(text)
    ? text.toLowerCase().split(/[^a-z0-9]+/)
    : foldForSearch(text).split(/[^\p{L}\p{N}]+/u);
  return tokens.filter((token) => token !== '');
}

// eslint-disable-next-line no-control-regex -- all of ASCII, control characters included
const ascii = /^[\x00-\x7F]*$/;

/** Lower case without accents: `Café` → `cafe` (ASCII has none to remove). */
export function foldForSearch(text: string): string {
  if (ascii.test(text)) return text.toLowerCase();
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** One thing a post must hold: a word or a phrase (its words in a row), the last word perhaps unfinished. */
export interface RankTerm {
  tokens: readonly string[];
  prefix: boolean;
}

/** A match read for ranking. */
export interface RankCandidate {
  id: number;
  body: string;
  createdAt: string;
}

function occurrences(tokens: readonly string[], term: RankTerm): number {
  const last = term.tokens.length - 1;
  if (last < 0) return 0;
  let count = 0;
  for (let start = 0; start + last < tokens.length; start += 1) {
    let index = 0;
    while (index <= last) {
      const token = tokens[start + index] ?? '';
      const wanted = term.tokens[index] ?? '';
      const same = term.prefix && index === last ? token.startsWith(wanted) : token === wanted;
      if (!same) break;
      index += 1;
    }
    if (index > last) count += 1;
  }
  return count;
}

/**
 * The matches' ids, best first: each post scores, for every term, BM25's saturating count of it
 * normalised by the post's length against the matches' average, divided by `1 + age in days / 30`; ties
 * go to the newer post. The index matched every post on every term, so a term the split above misses
 * counts once.
 */
export function rankMatches(
  candidates: readonly RankCandidate[],
  terms: readonly RankTerm[],
  now: string,
): number[] {
  const split = candidates.map((candidate) => searchTokens(candidate.body));
  const averageLength =
    split.reduce((sum, tokens) => sum + tokens.length, 0) / Math.max(1, split.length) || 1;
  const nowMs = Date.parse(now);
  const scored = candidates.map((candidate, index) => {
    const tokens = split[index] ?? [];
    const norm = k1 * (1 - b + (b * tokens.length) / averageLength);
    let relevance = 0;
    for (const term of terms) {
      const frequency = Math.max(1, occurrences(tokens, term));
      relevance += (frequency * (k1 + 1)) / (frequency + norm);
    }
    const ageDays = Math.max(0, (nowMs - Date.parse(candidate.createdAt)) / 86_400_000) || 0;
    return { id: candidate.id, score: relevance / (1 + ageDays / recencyDays) };
  });
  scored.sort((x, y) => y.score - x.score || y.id - x.id);
  return scored.map((entry) => entry.id);
}
