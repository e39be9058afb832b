/**
 * Registers the service worker (ADR 0025) that the production build writes as /sw.js. Development
 * builds have none: Vite serves unbundled modules that a precache would only get in the way of.
 *
 * It waits for the page's load event so the worker's precache downloads never compete with the first
 * page for bandwidth, and it stays quiet when it cannot register (a private window, a browser with
 * workers turned off): the app works the same without it, only without the offline page.
 */
export function registerServiceWorker(
  options: {
    enabled?: boolean;
    container?: Pick<ServiceWorkerContainer, 'register'> | undefined;
    target?: Pick<Window, 'addEventListener'> & { document: Pick<Document, 'readyState'> };
  } = {},
): void {
  const {
    enabled = import.meta.env.PROD,
    container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker,
    target = window,
  } = options;
  if (!enabled || !container) return;
  const register = () => {
    container.register('/sw.js', { scope: '/' }).catch(() => undefined);
  };
  if (target.document.readyState === 'complete') register();
  else target.addEventListener('load', register, { once: true });
}
