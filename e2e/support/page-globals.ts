/**
 * The few browser globals that the specs' in-page functions touch. tsconfig.json also checks the server, so it has
 * no DOM lib; in-page code casts `globalThis` to this instead (a type only: page functions are serialised).
 */
export interface PageGlobals {
  document: {
    body: object;
    documentElement: { scrollWidth: number; clientWidth: number };
    getAnimations: () => PageAnimation[];
  };
  getComputedStyle: (element: object) => { backgroundColor: string; color: string };
  location: { href: string };
  WebSocket: new (url: string) => PageSocket;
  __hearthE2eMarker?: boolean;
  __hearthE2eDocs?: unknown[];
}

export interface PageSocket {
  send: (data: string) => void;
  addEventListener: (
    type: 'open' | 'message' | 'error',
    listener: (event: { data?: unknown }) => void,
  ) => void;
}

/** An <img> as seen from a page function. */
export interface PageImage {
  naturalWidth: number;
}

/** Any element, as a page function marks it. */
export interface PageElement {
  setAttribute: (name: string, value: string) => void;
}

/** A CSS animation or transition, as a page function reads it. */
export interface PageAnimation {
  playState: string;
  effect: { getComputedTiming: () => { iterations?: number } } | null;
}
