import type { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import * as ws from 'ws';
import { textFrame } from './realtime-frames.js';

/** The ws library's frame reader: the package exports it, its type definitions do not. */
const { Receiver } = ws as unknown as {
  Receiver: new (options: { isServer: boolean }) => Writable;
};

/** The messages a WebSocket client reads from `bytes`, parsed by the ws library's own receiver. */
function read(bytes: Buffer, chunkSize = bytes.length): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const receiver = new Receiver({ isServer: false });
    const messages: string[] = [];
    receiver.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) reject(new Error('a binary message'));
      else messages.push(data.toString('utf8'));
    });
    receiver.on('error', reject);
    for (let start = 0; start < bytes.length; start += chunkSize) {
      receiver.write(bytes.subarray(start, start + chunkSize));
    }
    receiver.end(() => resolve(messages));
  });
}

describe('textFrame', () => {
  it.each([0, 1, 125, 126, 127, 65_535, 65_536, 200_000])(
    'frames a text of %i bytes as one message a client reads back',
    async (length) => {
      const text = 'x'.repeat(length);
      const frame = textFrame(text);
      // The header: FIN and text, then the length in the smallest of its three forms, unmasked.
      expect(frame[0]).toBe(0x81);
      expect(frame.readUInt8(1) & 0x80).toBe(0);
      expect(frame.length - length).toBe(length <= 125 ? 2 : length <= 65_535 ? 4 : 10);
      expect(await read(frame)).toEqual([text]);
    },
  );

  it('counts a text by its UTF-8 bytes, not its characters', async () => {
    // 63 characters of three bytes each: 189 bytes, past the one-byte length form.
    const text = '€'.repeat(63);
    const frame = textFrame(text);
    expect(frame.length).toBe(4 + 189);
    expect(await read(frame)).toEqual([text]);
  });

  it('reads back frames that arrive together and in pieces, as a connection delivers them', async () => {
    const texts = ['{"type":"doc"}', 'ü'.repeat(300), 'y'.repeat(70_000)];
    const bytes = Buffer.concat(texts.map((text) => textFrame(text)));
    expect(await read(bytes)).toEqual(texts);
    expect(await read(bytes, 7)).toEqual(texts);
  });
});
