/**
 * WebSocket text frames built once for every socket they go to (ADR 0036). A server's frames are
 * unmasked (RFC 6455 §5.1), so the same bytes suit every connection: the fan-out writes them to each
 * connection as they are, rather than asking the WebSocket library to frame the same payload again for
 * each socket. Sockets are opened without extensions (no per-message compression), so a frame's bytes
 * never depend on the connection.
 */

/** FIN with the text opcode: a whole message in one frame. */
const finalTextFrame = 0x81;
/** Payload lengths up to this fit in the frame's second byte. */
const shortLength = 125;
/** Signals a 16-bit length after the second byte. */
const mediumLength = 126;
/** Signals a 64-bit length after the second byte. */
const longLength = 127;

/** The whole frame of one text message: its header, then `text` as UTF-8. */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text, 'utf8');
  const headerBytes = length <= shortLength ? 2 : length <= 0xffff ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerBytes + length);
  frame[0] = finalTextFrame;
  if (headerBytes === 2) frame[1] = length;
  else if (headerBytes === 4) {
    frame[1] = mediumLength;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = longLength;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  frame.write(text, headerBytes, 'utf8');
  return frame;
}
