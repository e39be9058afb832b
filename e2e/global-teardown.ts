import { currentRun, stopRun } from './global-setup.js';

/** Stops the server and the SMTP sink that globalSetup started, and removes the run's temp dir. */
export default async function globalTeardown(): Promise<void> {
  const run = currentRun();
  if (run) await stopRun(run);
}
