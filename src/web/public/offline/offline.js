/* global document, window */
// The offline page's Retry: reloads the address the person asked for, which goes back to the network.
// Without a click, the page asks the server every few seconds, and at once when the browser reports the
// connection is back, and reloads only when an answer came: a reload that raced the returning
// connection would otherwise land on this page again and wait for an event that had already passed.
const retry = document.getElementById('offline-retry');
const status = document.getElementById('offline-status');
const probeEveryMs = 3000;
let reloading = false;
let probing = false;

function tryAgain() {
  reloading = true;
  if (retry) retry.setAttribute('aria-busy', 'true');
  if (status) status.textContent = 'Trying again…';
  window.location.reload();
}

async function reloadWhenReachable() {
  if (reloading || probing) return;
  probing = true;
  try {
    // A probe that gets no answer gives up before the next one starts.
    const response = await window.fetch('/api/health', {
      cache: 'no-store',
      signal: AbortSignal.timeout(probeEveryMs),
    });
    if (response.ok) tryAgain();
  } catch {
    // Still offline: the next probe asks again.
  } finally {
    probing = false;
  }
}

if (retry) retry.addEventListener('click', tryAgain);
window.addEventListener('online', () => void reloadWhenReachable());
window.setInterval(() => void reloadWhenReachable(), probeEveryMs);
