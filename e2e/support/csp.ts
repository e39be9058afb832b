import type { Page } from '@playwright/test';

interface CspGlobals {
  document: { addEventListener: (type: string, listener: (event: CspEvent) => void) => void };
  __hearthCsp?: string[];
}
interface CspEvent {
  violatedDirective: string;
  blockedURI: string;
  sourceFile: string;
}

/**
 * Records every Content-Security-Policy violation of the page's documents, as "directive blocked-URI
 * source-file"; the returned function reads what was recorded so far.
 */
export async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const globals = globalThis as unknown as CspGlobals;
    globals.__hearthCsp = [];
    globals.document.addEventListener('securitypolicyviolation', (event) => {
      globals.__hearthCsp?.push(
        `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`,
      );
    });
  });
  return () =>
    page.evaluate(() => (globalThis as unknown as CspGlobals).__hearthCsp ?? ['not watched']);
}
