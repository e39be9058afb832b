import { z } from 'zod/v4';

// The web app checks every API answer with the contract's schemas (ADR 0012). zod would otherwise probe
// `new Function` to compile its parsers, which the CSP forbids (no 'unsafe-eval'): each page would log a
// violation report. Interpreted parsing is fast enough for answers of a few dozen documents.
//
// The probe runs when the first object schema is built, and the contracts build theirs as their modules
// load, which can be before any code of the entry runs. So the build resolves every `import 'zod'` to
// this module (ADR 0024): the setting is in place before any module that uses zod runs.
z.config({ jitless: true });

export * from 'zod/v4';
export { z, z as default };
