import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

/** One message as the sink stores it: the SMTP envelope plus the raw RFC 5322 text. */
export interface StoredMail {
  /** Envelope recipients, lowercased. */
  to: string[];
  from: string | null;
  /** Milliseconds since the epoch, when the sink accepted the message. */
  receivedAt: number;
  raw: string;
}

/** A running SMTP sink. */
export interface MailSink {
  port: number;
  close: () => Promise<void>;
}

/**
 * Starts an SMTP server on loopback that accepts every message and writes it to `dir` as one JSON file.
 * Files are written under a temporary name and renamed, so a reader in another worker never sees half a message.
 */
export async function startMailSink(dir: string): Promise<MailSink> {
  await mkdir(dir, { recursive: true });
  let sequence = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    secure: false,
    logger: false,
    closeTimeout: 2_000,
    banner: 'Hearth e2e mail sink',
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'e2e' });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (error: Error) => {
        callback(error);
      });
      stream.on('end', () => {
        const mail: StoredMail = {
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          receivedAt: Date.now(),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        sequence += 1;
        const name = `${String(mail.receivedAt)}-${String(sequence).padStart(5, '0')}-${randomBytes(3).toString('hex')}`;
        const temporary = join(dir, `.${name}.tmp`);
        writeFile(temporary, JSON.stringify(mail))
          .then(() => rename(temporary, join(dir, `${name}.json`)))
          .then(
            () => {
              callback();
            },
            (error: unknown) => {
              callback(error instanceof Error ? error : new Error(String(error)));
            },
          );
      });
    },
  });

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.server.address();
      if (address === null || typeof address === 'string') {
        reject(new Error('The SMTP sink has no TCP address.'));
        return;
      }
      resolve(address.port);
    });
  });
  // A client that misbehaves must not take the runner down with it.
  server.on('error', (error) => {
    console.error('[e2e mail sink]', error);
  });

  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}
