import { existsSync } from 'node:fs';

/** Names of the environment variables that carry the run's state from the config and globalSetup to the workers. */
export const envNames = {
  /** Base URL of the server under test; chosen once, in the runner, before any worker starts. */
  baseUrl: 'HEARTH_E2E_BASE_URL',
  /** Folder the SMTP sink writes received messages into. */
  mailDir: 'HEARTH_E2E_MAIL_DIR',
  /** JSON object: the environment the server was started with (the operator CLI needs the same one). */
  serverEnv: 'HEARTH_E2E_SERVER_ENV',
  /** Label of the database the run uses ("sqlite" or "postgres"); names the output folder and the summary. */
  dbLabel: 'HEARTH_E2E_DB_LABEL',
  /** When set, the summary reporter writes its counts there as JSON (scripts/e2e.mjs adds the runs up). */
  summaryFile: 'HEARTH_E2E_SUMMARY_FILE',
} as const;

/** Instance settings the server under test runs with; specs assert against them. */
export const instance = {
  name: 'Hearth Test',
  contactEmail: 'team@example.test',
  mailFrom: 'hearth@example.test',
} as const;

/**
 * DESIGN.md pitfalls: Debian's Chromium, never a downloaded browser, with the network-quiet flags. Its
 * headless shell (package `chromium-headless-shell`, the build Playwright itself runs headless) when it is
 * installed: the full browser costs about twice the CPU per page, which on a 2-core machine is most of a
 * test's time. `HEARTH_E2E_CHROMIUM` names another binary.
 */
const headlessShell = '/usr/bin/chromium-headless-shell';
export const chromiumExecutable =
  process.env.HEARTH_E2E_CHROMIUM ??
  (existsSync(headlessShell) ? headlessShell : '/usr/bin/chromium');
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Reads a variable that globalSetup or the config must have set; fails loudly when a spec runs without them. */
export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(
      `${name} is not set: run the suite through playwright.config.ts (npm run test:e2e).`,
    );
  }
  return value;
}
