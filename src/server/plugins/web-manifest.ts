/**
 * The web app manifest, served by the server rather than built as a file so an installed app carries
 * the instance's own name (INSTANCE_NAME) and not the project's.
 */

/** The light theme's page background (--color-bg in styles/global.css): the splash screen and the bar. */
const lightBackground = '#fbf6f0';

/** Launchers truncate longer labels under the icon; twelve characters fit on every common home screen. */
const shortNameLength = 12;

export interface WebManifest {
  name: string;
  short_name: string;
  description: string;
  id: string;
  start_url: string;
  scope: string;
  display: 'standalone';
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: 'image/png'; purpose: 'any' | 'maskable' }[];
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Cuts between graphemes (never through an emoji or an accent), at a word boundary when there is one. */
function shortNameOf(name: string): string {
  const characters = Array.from(graphemes.segment(name), ({ segment }) => segment);
  if (characters.length <= shortNameLength) return name;
  const cut = characters.slice(0, shortNameLength).join('');
  const lastSpace = cut.lastIndexOf(' ');
  return (lastSpace > 0 ? cut.slice(0, lastSpace) : cut).trim();
}

export function webManifest(siteName: string): WebManifest {
  return {
    name: siteName,
    short_name: shortNameOf(siteName),
    description: `${siteName}: profiles, posts and people you follow.`,
    id: '/',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: lightBackground,
    background_color: lightBackground,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}
