import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoredMail } from './mail-sink.js';

/** A received message, decoded enough for a test to read it. */
export interface Mail {
  to: string[];
  from: string | null;
  receivedAt: number;
  subject: string;
  /** The text/plain part ('' when there is none). */
  text: string;
  /** The text/html part ('' when there is none). */
  html: string;
  raw: string;
}

export interface ReadMailOptions {
  /** Only messages accepted at or after this time (ms since the epoch). */
  since?: number;
  /** Only messages whose subject matches. */
  subject?: RegExp;
  /** How long to wait for one, in ms. */
  timeout?: number;
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitHeaders(source: string): Part {
  const normalised = source.replace(/\r\n/g, '\n');
  const end = normalised.indexOf('\n\n');
  const head = end === -1 ? normalised : normalised.slice(0, end);
  const body = end === -1 ? '' : normalised.slice(end + 2);
  const headers = new Map<string, string>();
  // RFC 5322 §2.2.3: a header continues on lines that start with white space.
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function headerParameter(value: string, name: string): string | null {
  const match = new RegExp(`;\\s*${name}="?([^";]+)"?`, 'i').exec(value);
  return match?.[1] ?? null;
}

function decodeQuotedPrintable(input: string): string {
  const softBreaksRemoved = input.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let index = 0; index < softBreaksRemoved.length; index += 1) {
    const char = softBreaksRemoved[index] ?? '';
    const hex = softBreaksRemoved.slice(index + 1, index + 3);
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64')
    return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body);
  return part.body;
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`), as nodemailer writes non-ASCII subjects. */
function decodeEncodedWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(
      /=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g,
      (_whole, _charset: string, kind: string, text: string) =>
        kind.toLowerCase() === 'b'
          ? Buffer.from(text, 'base64').toString('utf8')
          : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function collectBodies(part: Part, into: { text: string; html: string }): void {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const mime = (type.split(';')[0] ?? '').trim().toLowerCase();
  if (mime.startsWith('multipart/')) {
    const boundary = headerParameter(type, 'boundary');
    if (!boundary) return;
    const sections = part.body.split(`--${boundary}`);
    // The first section is the preamble; the one starting with "--" is the epilogue.
    for (const section of sections.slice(1)) {
      if (section.startsWith('--')) break;
      collectBodies(splitHeaders(section.replace(/^\r?\n/, '')), into);
    }
    return;
  }
  if (mime === 'text/plain' && !into.text) into.text = decodeBody(part);
  if (mime === 'text/html' && !into.html) into.html = decodeBody(part);
}

/** Decodes a stored message: subject plus its text and html bodies. */
export function parseMail(stored: StoredMail): Mail {
  const top = splitHeaders(stored.raw);
  const bodies = { text: '', html: '' };
  collectBodies(top, bodies);
  return {
    to: stored.to,
    from: stored.from,
    receivedAt: stored.receivedAt,
    subject: decodeEncodedWords(top.headers.get('subject') ?? ''),
    text: bodies.text,
    html: bodies.html,
    raw: stored.raw,
  };
}

function isStoredMail(value: unknown): value is StoredMail {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    Array.isArray(record.to) &&
    typeof record.raw === 'string' &&
    typeof record.receivedAt === 'number'
  );
}

/** Every message in the sink's folder addressed to `to`, oldest first. */
export async function listMail(dir: string, to: string): Promise<Mail[]> {
  const wanted = to.toLowerCase();
  const names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  const found: Mail[] = [];
  for (const name of names) {
    const parsed: unknown = JSON.parse(await readFile(join(dir, name), 'utf8'));
    if (isStoredMail(parsed) && parsed.to.includes(wanted)) found.push(parseMail(parsed));
  }
  return found;
}

/** Waits (polling, bounded) for the newest message to `to` that matches the options. */
export async function waitForMail(
  dir: string,
  to: string,
  options: ReadMailOptions = {},
): Promise<Mail> {
  const deadline = Date.now() + (options.timeout ?? 15_000);
  for (;;) {
    const matching = (await listMail(dir, to)).filter(
      (mail) =>
        (options.since === undefined || mail.receivedAt >= options.since) &&
        (options.subject === undefined || options.subject.test(mail.subject)),
    );
    const newest = matching.at(-1);
    if (newest) return newest;
    if (Date.now() > deadline) {
      throw new Error(
        `No mail to ${to}${options.subject ? ` with a subject matching ${String(options.subject)}` : ''} arrived in time.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
