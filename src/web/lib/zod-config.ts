import { z } from 'zod';

// The web app checks every API answer with the contract's schemas (ADR 0012). zod would otherwise probe
// `new Function` to compile its parsers, which the CSP forbids (no 'unsafe-eval'): each page would log a
// violation report. Interpreted parsing is fast enough for answers of a few dozen documents.
z.config({ jitless: true });
