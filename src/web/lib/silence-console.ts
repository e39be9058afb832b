/**
 * spec §9: in the production host, console log, table, debug, info and warn output are silenced.
 * Imported first by main.tsx so nothing logs before it runs; console.error stays for real failures.
 */
/* eslint-disable no-console -- replacing these methods is this module's whole job (spec §9) */
if (import.meta.env.PROD) {
  const silent = (): void => undefined;
  console.log = silent;
  console.table = silent;
  console.debug = silent;
  console.info = silent;
  console.warn = silent;
}

export {};
