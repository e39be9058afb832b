import { NavigationType } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { createUnsavedRegistry, leavesPage } from './use-leave-prompt.js';

describe('the unsaved-changes registry', () => {
  it('is dirty while any open form is, and clean once every one is settled or gone', () => {
    const registry = createUnsavedRegistry();
    const a = Symbol('a');
    const b = Symbol('b');
    registry.register(a);
    registry.register(b);
    expect(registry.anyDirty()).toBe(false);
    registry.update(a, { dirty: true, kept: true });
    registry.update(b, { dirty: true, kept: false });
    expect(registry.anyDirty()).toBe(true);
    expect(registry.allKept()).toBe(false);
    registry.update(b, { dirty: false, kept: false });
    expect(registry.allKept()).toBe(true);
    registry.unregister(a);
    expect(registry.anyDirty()).toBe(false);
  });

  it('gives the blocker to the first form still open, then to the next', () => {
    const registry = createUnsavedRegistry();
    const first = Symbol('first');
    const second = Symbol('second');
    registry.register(first);
    registry.register(second);
    expect(registry.host()).toBe(first);
    registry.unregister(first);
    expect(registry.host()).toBe(second);
    registry.unregister(second);
    expect(registry.host()).toBeUndefined();
  });

  it('tells its listeners of changes only, and ignores forms it does not know', () => {
    const registry = createUnsavedRegistry();
    const listener = vi.fn();
    const stop = registry.subscribe(listener);
    const form = Symbol('form');
    registry.register(form);
    registry.update(form, { dirty: true, kept: true });
    registry.update(form, { dirty: true, kept: true });
    registry.update(Symbol('stranger'), { dirty: true, kept: true });
    expect(listener).toHaveBeenCalledTimes(2);
    stop();
    registry.unregister(form);
    expect(listener).toHaveBeenCalledTimes(2);
  });
});

describe('settling a form', () => {
  it('is clean for the blocker at once and tells listeners a task later', async () => {
    const registry = createUnsavedRegistry();
    const form = Symbol('form');
    registry.register(form);
    registry.update(form, { dirty: true, kept: true });
    const listener = vi.fn();
    registry.subscribe(listener);
    registry.settle(form);
    expect(registry.anyDirty()).toBe(false);
    expect(listener).not.toHaveBeenCalled();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(listener).toHaveBeenCalledTimes(1);
    registry.settle(form);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe('leavesPage', () => {
  const at = (pathname: string, search = '') => ({
    pathname,
    search,
    hash: '',
    state: null,
    key: 'k',
  });
  it('is a change of path, not of query or hash', () => {
    expect(
      leavesPage({
        currentLocation: at('/feed'),
        nextLocation: at('/ada'),
        historyAction: NavigationType.Push,
      }),
    ).toBe(true);
    expect(
      leavesPage({
        currentLocation: at('/feed'),
        nextLocation: at('/feed', '?tab=everyone'),
        historyAction: NavigationType.Push,
      }),
    ).toBe(false);
  });
});
