/* global document, window */
// The offline page's Retry: reloads the address the person asked for, which goes back to the network;
// the same happens by itself when the browser reports the connection is back.
const retry = document.getElementById('offline-retry');
const status = document.getElementById('offline-status');

function tryAgain() {
  if (retry) retry.setAttribute('aria-busy', 'true');
  if (status) status.textContent = 'Trying again…';
  window.location.reload();
}

if (retry) retry.addEventListener('click', tryAgain);
window.addEventListener('online', tryAgain);
