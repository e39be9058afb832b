/** The codings the server compresses with, best first. */
export type ContentCoding = 'br' | 'gzip';

/** Parsed headers kept, so the few strings browsers send are read once, not on every answer. */
const cacheLimit = 64;
const cache = new Map<string, ContentCoding | null>();
/** A header longer than this is not cached: the cache holds the common strings, not every client's. */
const cacheableLength = 256;
/** Elements read per header: no browser sends more than a handful, and the work stays bounded. */
const elementLimit = 32;

const token = /^[a-z0-9!#$%&'*+.^_`|~-]+$/;
const qValue = /^q=(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The quality of each coding the header names (`undefined` when it does not). */
function qualities(header: string): Map<string, number> {
  const named = new Map<string, number>();
  const elements = header.toLowerCase().split(',', elementLimit);
  for (const element of elements) {
    const [rawName = '', ...parameters] = element.split(';');
    const name = rawName.trim();
    if (!token.test(name) || named.has(name)) continue;
    let q = 1;
    let valid = true;
    for (const parameter of parameters) {
      const compact = parameter.replace(/\s+/g, '');
      if (!compact.startsWith('q=')) continue;
      if (!qValue.test(compact)) {
        valid = false;
        break;
      }
      q = Number(compact.slice(2));
    }
    // A malformed weight makes the element unreadable: it neither allows nor forbids its coding.
    if (valid) named.set(name, q);
  }
  return named;
}

function choose(header: string): ContentCoding | null {
  const named = qualities(header);
  const star = named.get('*') ?? 0;
  const br = named.get('br') ?? star;
  const gzip = named.get('gzip') ?? named.get('x-gzip') ?? star;
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return null;
}

/**
 * The coding to answer with, per RFC 9110 §12.5.3: the one the client weighs highest among those it
 * allows (`*` stands for any coding it does not name, `q=0` forbids), brotli on a tie. `null` means the
 * body goes as it is: no header, an empty one, `identity`, only forbidden or unknown codings, or garbage.
 * Identity is always answered even when the client forbids it, since a readable answer serves it better
 * than a 406.
 */
export function negotiateEncoding(header: string | string[] | undefined): ContentCoding | null {
  if (header === undefined) return null;
  const value = Array.isArray(header) ? header.join(',') : header;
  const cached = cache.get(value);
  if (cached !== undefined) return cached;
  const coding = choose(value);
  if (value.length <= cacheableLength) {
    if (cache.size >= cacheLimit) cache.clear();
    cache.set(value, coding);
  }
  return coding;
}
