import { describe, expect, it } from 'vitest';
import { tabKeyTarget } from './tab-list.js';

describe('tabKeyTarget', () => {
  it('moves with the arrow keys, wrapping at either end', () => {
    expect(tabKeyTarget('ArrowRight', 0, 2)).toBe(1);
    expect(tabKeyTarget('ArrowRight', 1, 2)).toBe(0);
    expect(tabKeyTarget('ArrowLeft', 1, 3)).toBe(0);
    expect(tabKeyTarget('ArrowLeft', 0, 3)).toBe(2);
  });

  it('goes to the first and last with Home and End', () => {
    expect(tabKeyTarget('Home', 2, 3)).toBe(0);
    expect(tabKeyTarget('End', 0, 3)).toBe(2);
  });

  it('ignores every other key', () => {
    expect(tabKeyTarget('Enter', 0, 2)).toBeNull();
    expect(tabKeyTarget('a', 0, 2)).toBeNull();
  });
});
