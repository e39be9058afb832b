/**
 * The pages whose address alone tells the server which route the app will load, and the file in which the
 * build lists each one's scripts (scripts/vite-route-preloads.ts, read by src/server/plugins/web.ts; ADR
 * 0034).
 */
export const pageRoutes = ['feed', 'post', 'profile'] as const;

export type PageRoute = (typeof pageRoutes)[number];

/** Each page's route scripts, addresses from the root. */
export type RoutePreloads = Partial<Record<PageRoute, readonly string[]>>;

/** Where the build writes `RoutePreloads`, in its web folder. */
export const routePreloadsFile = 'route-preloads.json';
