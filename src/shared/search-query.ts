/**
 * The search box's language (issue: notifications and search §3): words, "quoted phrases", `from:username`
 * and `#tag`. Everything else is text: operators of the databases' own query languages (`*`, `NEAR`, `AND`,
 * `OR`, `NOT`, `^`, `:`, parentheses, `-`) are read as words or separators, never passed on as syntax. The
 * server hands each word and phrase to the database's tokenizer as quoted text (search.repository.ts), so a
 * query is split into words exactly as the posts it searches were.
 */

/** What the search box asked for. */
export interface SearchQuery {
  /** Words every result contains, as typed, trimmed of symbols at either end. */
  words: string[];
  /** Phrases every result contains as written, whitespace collapsed. */
  phrases: string[];
  /** The username of `from:`, lower-cased and without `@`; null when the query has none. */
  from: string | null;
  /** Hashtags every result carries, lower-cased and without `#`, as posts store them. */
  tags: string[];
  /** The query ends with a word (not a phrase), which may be unfinished: it matches as a prefix. */
  prefix: boolean;
}

/** Terms (words, phrases, tags and `from:`) read from one query; more are ignored. */
export const searchTermsMax = 16;
/** Words of one phrase; a longer phrase matches by its first ones. */
export const phraseWordsMax = 16;

/** Letters and digits: what both databases' tokenizers index (combining marks only as parts of words). */
const wordCharacter = /[\p{L}\p{N}]/u;
const edgeSymbols = /^[^\p{L}\p{N}\p{M}]+|[^\p{L}\p{N}\p{M}]+$/gu;
const wordPieces = /[\p{L}\p{N}\p{M}]+/gu;
/** Straight and typographic double quotes open and close phrases. */
const quotes = new Set(['"', '“', '”', '„', '«', '»']);
/** A hashtag as posts' hashtags are read (hashtagSchema): letters, digits and underscores, at most 100. */
const hashtag = /^#+([\p{L}\p{N}_]{1,100})/u;
const username = /^[a-z0-9_]{1,64}$/;
const fromPrefix = /^from:@?/i;
/** Whitespace, and control characters (a NUL byte, say), which no text may carry to a database. */
const separator = /[\s\p{Cc}]/u;

/** True when `text` has anything a tokenizer would index: a letter or digit. */
function hasWord(text: string): boolean {
  return wordCharacter.test(text);
}

/** Text people type, with control characters read as spaces: what a name search may send to a database. */
export function searchableText(text: string): string {
  return text.replace(/\p{Cc}/gu, ' ');
}

/** Reads the text of the search box. Pure and total: any string gives a query, possibly an empty one. */
export function parseSearchQuery(text: string): SearchQuery {
  const query: SearchQuery = { words: [], phrases: [], from: null, tags: [], prefix: false };
  const seenWords = new Set<string>();
  const seenPhrases = new Set<string>();
  let terms = 0;
  /** Whether the last term read was a word. */
  const last = { word: false };

  const take = (): boolean => {
    if (terms >= searchTermsMax) return false;
    terms += 1;
    return true;
  };

  const addPhrase = (raw: string) => {
    const pieces = (raw.match(wordPieces) ?? []).filter(hasWord);
    if (pieces.length === 0) return;
    last.word = false;
    if (pieces.length === 1) {
      // A one-word phrase is that word, matched whole.
      addWord(pieces[0] ?? '', false);
      return;
    }
    const words = raw.trim().split(/\s+/u).filter(hasWord).slice(0, phraseWordsMax);
    const phrase = words.join(' ');
    const key = phrase.toLowerCase();
    if (seenPhrases.has(key) || !take()) return;
    seenPhrases.add(key);
    query.phrases.push(phrase);
  };

  const addWord = (word: string, typed: boolean) => {
    const key = word.toLowerCase();
    if (seenWords.has(key)) {
      // Already asked for, earlier in the text: it is not the one being typed.
      last.word = false;
      return;
    }
    if (!take()) {
      last.word = false;
      return;
    }
    seenWords.add(key);
    query.words.push(word);
    last.word = typed;
  };

  const addChunk = (chunk: string) => {
    if (fromPrefix.test(chunk)) {
      const name = chunk.replace(fromPrefix, '').toLowerCase();
      if (name === '') return;
      if (username.test(name)) {
        if (query.from === null && !take()) return;
        // The last from: wins, as when someone types a new name after an old one.
        query.from = name;
        last.word = false;
        return;
      }
    }
    const tag = hashtag.exec(chunk);
    if (tag?.[1]) {
      const value = tag[1].toLowerCase();
      last.word = false;
      if (!query.tags.includes(value) && take()) query.tags.push(value);
      return;
    }
    const word = chunk.replace(edgeSymbols, '');
    if (!hasWord(word)) return;
    addWord(word, true);
  };

  let chunk = '';
  let phrase: string | null = null;
  const endChunk = () => {
    if (chunk !== '') addChunk(chunk);
    chunk = '';
  };
  for (const character of text) {
    if (phrase !== null) {
      if (quotes.has(character)) {
        addPhrase(phrase);
        phrase = null;
      } else {
        phrase += separator.test(character) ? ' ' : character;
      }
    } else if (quotes.has(character)) {
      endChunk();
      phrase = '';
    } else if (separator.test(character)) {
      endChunk();
    } else {
      chunk += character;
    }
  }
  // An unbalanced quote closes at the end of the text.
  if (phrase !== null) addPhrase(phrase);
  else endChunk();
  query.prefix = last.word && query.words.length > 0;
  return query;
}

/** True when the query asks for something: a word, a phrase, a person or a tag. */
export function isSearchable(query: SearchQuery): boolean {
  return (
    query.words.length > 0 ||
    query.phrases.length > 0 ||
    query.from !== null ||
    query.tags.length > 0
  );
}
