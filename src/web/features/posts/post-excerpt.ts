/** Characters of a post that name it in the page title. */
const excerptLength = 60;

/**
 * The start of a post's text on one line, cut at a word where it can be, with "…" when cut: the page
 * title says "Name: “excerpt…”".
 */
export function postExcerpt(body: string, max: number = excerptLength): string {
  const line = body.replace(/\s+/g, ' ').trim();
  // Code points, as limits count characters (shared/text.ts): an emoji is never cut in half.
  const characters = Array.from(line);
  if (characters.length <= max) return line;
  const cut = characters.slice(0, max).join('');
  const space = cut.lastIndexOf(' ');
  // A cut just before a space already ends on a word; otherwise back up to the last whole word.
  const atWordEnd = characters[max] === ' ';
  const words = !atWordEnd && space > max / 2 ? cut.slice(0, space) : cut;
  return `${words.replace(/[\s.,;:!?-]+$/u, '')}…`;
}

/** The post page's title: "Ada Lovelace: “Hello world…”". */
export function postTitle(name: string, body: string): string {
  return `${name}: “${postExcerpt(body)}”`;
}
