import { describe, expect, it, vi } from 'vitest';
import { registerServiceWorker } from './service-worker.js';

function fakePage(readyState: DocumentReadyState) {
  const listeners = new Map<string, () => void>();
  return {
    listeners,
    target: {
      document: { readyState },
      addEventListener: (type: string, listener: () => void) => listeners.set(type, listener),
    } as unknown as Pick<Window, 'addEventListener'> & { document: Pick<Document, 'readyState'> },
  };
}

describe('registerServiceWorker', () => {
  it('registers /sw.js for the whole site only once the page has loaded', () => {
    const register = vi.fn(() => Promise.resolve({} as ServiceWorkerRegistration));
    const page = fakePage('interactive');
    registerServiceWorker({ enabled: true, container: { register }, target: page.target });
    expect(register).not.toHaveBeenCalled();
    page.listeners.get('load')?.();
    expect(register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
  });

  it('registers at once when the page has already loaded', () => {
    const register = vi.fn(() => Promise.resolve({} as ServiceWorkerRegistration));
    registerServiceWorker({
      enabled: true,
      container: { register },
      target: fakePage('complete').target,
    });
    expect(register).toHaveBeenCalledTimes(1);
  });

  it('does nothing in development builds or where the browser has no service workers', () => {
    const register = vi.fn(() => Promise.resolve({} as ServiceWorkerRegistration));
    const page = fakePage('complete');
    registerServiceWorker({ enabled: false, container: { register }, target: page.target });
    registerServiceWorker({ enabled: true, container: undefined, target: page.target });
    expect(register).not.toHaveBeenCalled();
    expect(page.listeners.size).toBe(0);
  });

  // Vitest fails the run on an unhandled rejection, so a refusal that escaped would fail this test.
  it('swallows a refused registration: the app works without the worker', async () => {
    const register = vi.fn(() =>
      Promise.reject(new DOMException('The operation is insecure.', 'SecurityError')),
    );
    registerServiceWorker({
      enabled: true,
      container: { register },
      target: fakePage('complete').target,
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(register).toHaveBeenCalledTimes(1);
  });
});
