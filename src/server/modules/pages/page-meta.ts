import type { Config } from '../../config.js';
import { displayNameOf } from '../../../shared/display-name.js';
import {
  coverSizes,
  coverSources,
  leadImagePost,
  postImageSizes,
  srcSetOf,
} from '../../../shared/image-sources.js';
import { fillPath } from '../../../shared/contract/endpoint.js';
import { authEndpoints } from '../../../shared/contract/endpoints/auth.js';
import { commentEndpoints } from '../../../shared/contract/endpoints/comments.js';
import { instanceEndpoints } from '../../../shared/contract/endpoints/instance.js';
import { postEndpoints } from '../../../shared/contract/endpoints/posts.js';
import { userEndpoints } from '../../../shared/contract/endpoints/users.js';
import { idPattern } from '../../../shared/ids.js';
import { defaultImages, isReservedUsername } from '../../../shared/paths.js';
import type { PageRoute, RoutePreloads } from '../../../shared/route-preloads.js';
import { feedQuerySchema, type Post } from '../../../shared/schemas/post.js';
import { NotFound } from '../../errors.js';
import type { Viewer } from '../../plugins/viewer.js';
import type { PostsService } from '../posts/posts.service.js';
import type { UsersService } from '../users/users.service.js';

/**
 * The picture a page paints largest (its LCP), announced in the head so the browser fetches it while the
 * app's scripts still load (ADR 0026). `srcset` and `sizes` are the `<img>`'s own, so the browser picks the
 * same rendition for both and the preload is used, never fetched twice.
 */
export interface ImagePreload {
  href: string;
  srcset?: string;
  sizes?: string;
}

/** Who asks for a page, looked up only when a preload depends on it. */
export type PageViewer = () => Promise<Viewer | null>;

const anonymous: PageViewer = () => Promise.resolve(null);

/** What the server puts in the HTML of a page it serves: status, redirect, or head tags. */
export interface PageMeta {
  status: number;
  redirect?: string;
  title?: string;
  description?: string;
  canonical?: string;
  image?: string;
  imageAlt?: string;
  type?: 'profile' | 'article' | 'website';
  /** A large preview image (a post's first image) rather than a small square. */
  largeImage?: boolean;
  preload?: ImagePreload;
  /**
   * The API answers the app asks for first on this page (the feed's first page; a post and its first
   * comments; a profile and its first posts), fetched while its scripts load.
   */
  preloadFetches?: string[];
  /** The page whose route scripts the head announces (`RoutePreloads`, ADR 0034). */
  route?: PageRoute;
}

const profilePathPattern = /^\/(?:ym\/)?([^/]+)\/?$/;
const handlePathPattern = /^\/@([^/]*)(\/followers|\/following)?\/?$/;
const postPathPattern = /^\/post\/([^/]*)\/?$/;
const usernameLike = /^[A-Za-z0-9_]{1,64}$/;

const excerpt = (text: string, length = 200) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length - 1).trimEnd()}…` : flat;
};

/** Link previews and search engines (issue: profiles §2): server-filled head tags and real status codes. */
export class PageMetaService {
  constructor(
    private readonly users: UsersService,
    private readonly posts: PostsService,
    private readonly config: Config,
  ) {}

  private notFound(): PageMeta {
    return { status: 404, title: `Not found · ${this.config.instanceName}` };
  }

  /**
   * Whether this viewer will see the post at all, so the page preloads what it will show and nothing else.
   * The document is already the public one (never a removed post); a signed-in viewer is also asked the
   * API's own question, so a block either way preloads nothing. A lookup that fails (the database is
   * down) costs the page its preloads, never the page: the app's own requests then show what went wrong.
   */
  private async visibleTo(post: Post, viewer: PageViewer): Promise<boolean> {
    try {
      const who = await viewer();
      if (who) await this.posts.get(who, post.id);
      return true;
    } catch {
      return false;
    }
  }

  /** spec §2 /post/{postId}: the author, an excerpt and the first image; 404 for unknown or deleted posts. */
  private async forPost(postId: string, viewer: PageViewer): Promise<PageMeta> {
    if (!idPattern.test(postId)) return this.notFound();
    const post = await this.posts.findDocument(postId);
    if (!post) return this.notFound();
    const name = displayNameOf(post.author);
    const image = post.images[0];
    const text = post.body ? excerpt(post.body) : '';
    return {
      status: 200,
      title: text
        ? `${name} on ${this.config.instanceName}: “${excerpt(post.body, 80)}”`
        : `${name} on ${this.config.instanceName}`,
      description: text || `A post by ${name} on ${this.config.instanceName}.`,
      canonical: this.absolute(`/post/${post.id}`),
      image: this.absolute(image?.url ?? post.author.avatarThumb ?? defaultImages.avatar),
      imageAlt: image ? (image.alt ?? `An image posted by ${name}`) : `${name}'s avatar`,
      type: 'article',
      largeImage: Boolean(image),
      route: 'post',
      // The post, its first comments and the image it shows first and largest, as the page asks for them.
      ...((await this.visibleTo(post, viewer))
        ? {
            preloadFetches: [
              fillPath(postEndpoints.getPost.path, { postId: post.id }),
              fillPath(commentEndpoints.getComments.path, { postId: post.id }),
            ],
            ...(image ? { preload: leadImageOf(post) } : {}),
          }
        : {}),
    };
  }

  /**
   * The Mastodon-style address /@{username}, and its /followers and /following: a 301 to the profile's
   * own address (or its list), or 404 for no one.
   */
  private async forHandle(handle: string, list = ''): Promise<PageMeta> {
    if (!usernameLike.test(handle) || isReservedUsername(handle)) return this.notFound();
    try {
      const user = await this.users.getByUsername(handle);
      return user.username
        ? { status: 301, redirect: `/${user.username}${list}` }
        : this.notFound();
    } catch (error) {
      if (error instanceof NotFound) return this.notFound();
      throw error;
    }
  }

  private absolute(url: string): string {
    return url.startsWith('http') ? url : `${this.config.publicUrl}${url}`;
  }

  /** The profile's cover, its largest paint: the uploaded one at the width the screen needs, or the default. */
  private coverPreload(cover: string | null, coverSmall: string | null): ImagePreload {
    if (!cover) return { href: defaultImages.cover };
    const srcset = srcSetOf(coverSources(cover, coverSmall));
    return srcset ? { href: cover, srcset, sizes: coverSizes } : { href: cover };
  }

  /**
   * The feed's first page, as the app will ask for it: Following for a signed-in viewer, Everyone for
   * anyone else. Only the plain address: a query (another tab, a tag) makes the app ask for something
   * else, and a preload it never uses is a wasted request.
   */
  private async forFeed(viewer: PageViewer): Promise<PageMeta> {
    const who = await viewer();
    const tab = who ? 'following' : 'everyone';
    // The page the preload fetches, read here too (the read caches keep it, ADR 0028): its lead image is
    // the feed's largest paint, which the app could otherwise ask for only once the answer has arrived.
    // A read that fails (the database is down) costs the page its preload, never the page itself: the
    // app's own request then shows what went wrong.
    const page = await this.posts.feed(who, feedQuerySchema.parse({ tab })).catch(() => null);
    const lead = page && leadImagePost(page.items);
    return {
      status: 200,
      route: 'feed',
      preloadFetches: [`/api/feed?tab=${tab}`],
      ...(lead ? { preload: leadImageOf(lead) } : {}),
    };
  }

  async forPath(pathname: string, viewer: PageViewer = anonymous, search = ''): Promise<PageMeta> {
    if ((pathname === '/' || pathname === '/feed') && search === '') return this.forFeed(viewer);
    const postId = postPathPattern.exec(pathname)?.[1];
    if (postId !== undefined) return this.forPost(postId, viewer);
    const handleMatch = handlePathPattern.exec(pathname);
    if (handleMatch) return this.forHandle(handleMatch[1] ?? '', handleMatch[2]);
    const match = profilePathPattern.exec(pathname);
    const requested = match?.[1];
    if (!requested || !usernameLike.test(requested) || isReservedUsername(requested)) {
      return { status: 200 };
    }
    try {
      const user = await this.users.getByUsername(requested);
      if (!user.username) return { status: 200 };
      // spec §2 serves /ym/{username} as well; the canonical address is /{username}.
      const canonicalPath = `/${user.username}`;
      const ym = pathname.startsWith('/ym/');
      if (user.username !== requested) {
        return { status: 301, redirect: ym ? `/ym/${user.username}` : canonicalPath };
      }
      const name = displayNameOf(user);
      const description = user.bio
        ? excerpt(user.bio)
        : `${name} (@${user.username}) on ${this.config.instanceName}.`;
      const documentFetch = fillPath(userEndpoints.getUserByUsername.path, {
        username: user.username,
      });
      // Their posts too, for a visitor; a signed-in viewer's list waits on whether either blocks the other.
      const postsFetch = fillPath(postEndpoints.getUserPosts.path, { uid: user.uid });
      return {
        status: 200,
        title: `${name} (@${user.username}) · ${this.config.instanceName}`,
        description,
        canonical: this.absolute(canonicalPath),
        image: this.absolute(user.avatar ?? defaultImages.avatar),
        imageAlt: user.avatarAlt ?? `${name}'s avatar`,
        type: 'profile',
        preload: this.coverPreload(user.cover, user.coverSmall),
        // A viewer who cannot be looked up (the database is down) is not known to be a visitor.
        preloadFetches:
          (await viewer().catch(() => undefined)) === null
            ? [documentFetch, postsFetch]
            : [documentFetch],
        route: 'profile',
      };
    } catch (error) {
      if (error instanceof NotFound) return this.notFound();
      throw error;
    }
  }
}

/** A post's first image as its list or page shows it, with the `<img>`'s own `srcset` and `sizes`. */
function leadImageOf(post: Pick<Post, 'images'>): ImagePreload | undefined {
  const image = post.images[0];
  if (!image) return undefined;
  const srcset = srcSetOf(image.sources);
  return srcset
    ? { href: image.url, srcset, sizes: postImageSizes(post.images.length) }
    : { href: image.url };
}

/**
 * What the app asks for on every page before it knows which page it is (`src/web/main.tsx`): who is signed
 * in, which every page's guards and header wait for, and the instance's name and settings.
 */
const startupFetches = [authEndpoints.getSession.path, instanceEndpoints.getInstance.path];

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * Writes the page's head tags into the built index.html; `scripts` are the build's route preloads, of which
 * the page's own are announced.
 */
export function renderIndex(
  html: string,
  meta: PageMeta,
  siteName: string,
  scripts: RoutePreloads = {},
): string {
  const tags: string[] = [];
  // `crossorigin` (anonymous) is the app's own `fetch` (`credentials: 'same-origin'`) for a same-origin
  // address: with another credentials mode the browser would fetch the address again.
  for (const href of [...startupFetches, ...(meta.preloadFetches ?? [])]) {
    tags.push(`<link rel="preload" as="fetch" crossorigin href="${escapeHtml(href)}">`);
  }
  // `crossorigin` as on the entry script Vite writes: a module's request mode, so the preload is used.
  for (const href of (meta.route && scripts[meta.route]) ?? []) {
    tags.push(`<link rel="modulepreload" crossorigin href="${escapeHtml(href)}">`);
  }
  const property = (name: string, content: string | undefined) => {
    if (content) tags.push(`<meta property="${name}" content="${escapeHtml(content)}">`);
  };
  const named = (name: string, content: string | undefined) => {
    if (content) tags.push(`<meta name="${name}" content="${escapeHtml(content)}">`);
  };
  if (meta.preload) {
    const { href, srcset, sizes } = meta.preload;
    const responsive = srcset
      ? ` imagesrcset="${escapeHtml(srcset)}"${sizes ? ` imagesizes="${escapeHtml(sizes)}"` : ''}`
      : '';
    tags.push(
      `<link rel="preload" as="image" href="${escapeHtml(href)}"${responsive} fetchpriority="high">`,
    );
  }
  if (!meta.title) return html.replace('</head>', () => `${tags.join('\n')}\n</head>`);
  named('description', meta.description);
  if (meta.canonical) tags.push(`<link rel="canonical" href="${escapeHtml(meta.canonical)}">`);
  if (meta.type) {
    property('og:type', meta.type);
    property('og:site_name', siteName);
    property('og:title', meta.title);
    property('og:description', meta.description);
    property('og:url', meta.canonical);
    property('og:image', meta.image);
    property('og:image:alt', meta.imageAlt);
    named('twitter:card', meta.largeImage ? 'summary_large_image' : 'summary');
    named('twitter:title', meta.title);
    named('twitter:description', meta.description);
    named('twitter:image', meta.image);
  }
  const title = `<title>${escapeHtml(meta.title)}</title>`;
  const head = `${tags.join('\n')}\n</head>`;
  // Replacer functions, never replacement strings: in a string, `$\``, `$'` and `$&` in a person's text
  // would expand to copies of the page (a 5 KB post made a 33 MB page).
  let page = html.replace(/<title>[^<]*<\/title>/, () => title);
  if (meta.description) page = page.replace(/<meta\s+name="description"[^>]*>\s*/, () => '');
  return page.replace('</head>', () => head);
}
