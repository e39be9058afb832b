import { shutdownTimeouts } from '../shared/limits.js';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';

/** Starts Hearth: listens, and shuts down gracefully on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal} received: finishing in-flight requests and closing`);
    // In-flight requests get a while to finish; then whatever connection is still open is cut, so a
    // client that holds one (idle keep-alive or not) cannot keep the process alive past its grace.
    setTimeout(() => {
      app.log.warn('shutdown: cutting the connections still open');
      app.server.closeAllConnections();
    }, shutdownTimeouts.drainMs).unref();
    setTimeout(() => {
      app.log.error('graceful shutdown timed out; exiting');
      process.exit(1);
    }, shutdownTimeouts.exitMs).unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`${config.instanceName} is serving ${config.publicUrl}`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Hearth could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
