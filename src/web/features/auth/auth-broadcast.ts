/** Other tabs learn about sign-in and sign-out here and re-read their session. */
const channelName = 'hearth-auth';

interface SessionChangedMessage {
  type: 'session-changed';
}

let channel: BroadcastChannel | null | undefined;

// One channel object per tab: a BroadcastChannel never hears its own messages, so the tab that
// signed in is not told again.
function getChannel(): BroadcastChannel | null {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(channelName) : null;
  }
  return channel;
}

function isSessionChanged(data: unknown): data is SessionChangedMessage {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { type?: unknown }).type === 'session-changed'
  );
}

/** Tells the other tabs of this browser that the session changed. */
export function announceSessionChange(): void {
  const message: SessionChangedMessage = { type: 'session-changed' };
  getChannel()?.postMessage(message);
}

/** Calls `onChange` when another tab reports a session change; returns the unsubscribe. */
export function listenForSessionChanges(onChange: () => void): () => void {
  const current = getChannel();
  if (!current) return () => undefined;
  const handler = (event: MessageEvent<unknown>) => {
    if (isSessionChanged(event.data)) onChange();
  };
  current.addEventListener('message', handler);
  return () => {
    current.removeEventListener('message', handler);
  };
}
