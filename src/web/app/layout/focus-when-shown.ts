/** How long a page that is still loading may take to show the element before we stop waiting. */
export const focusWaitMs = 10_000;

/**
 * Focuses the first element matching `selector`, now or as soon as it appears (a page that renders its
 * field a moment after navigation), for at most `timeoutMs`. Returns whether it was focused at once, and
 * a stop function that gives up waiting.
 */
export function focusWhenShown(
  selector: string,
  root: Document = document,
  timeoutMs: number = focusWaitMs,
): { focusedNow: boolean; stop: () => void } {
  const focus = () => {
    const element = root.querySelector<HTMLElement>(selector);
    if (!element) return false;
    element.focus();
    return true;
  };
  if (focus()) return { focusedNow: true, stop: () => undefined };
  const observer = new MutationObserver(() => {
    if (focus()) stop();
  });
  const timer = setTimeout(() => {
    stop();
  }, timeoutMs);
  function stop() {
    observer.disconnect();
    clearTimeout(timer);
  }
  observer.observe(root.body, { childList: true, subtree: true });
  return { focusedNow: false, stop };
}
