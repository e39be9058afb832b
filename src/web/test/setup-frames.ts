/**
 * Preact runs effects after the next frame: it asks for an animation frame and also sets a 100 ms timer in
 * case no frame comes, and whichever fires first cancels the other with `cancelAnimationFrame`. When a jsdom
 * test file ends, its environment's globals go, but that timer may still be pending in the worker: it then
 * throws "cancelAnimationFrame is not defined" into whichever file runs next. Here effects wait for jsdom's
 * own frame alone, and jsdom's frames end with its window. Preact's `act` (Testing Library's) still swaps
 * this hook for its own while it runs.
 */
import { options } from 'preact';

if (typeof window !== 'undefined') {
  options.requestAnimationFrame = (callback) => {
    window.requestAnimationFrame(callback);
  };
}
