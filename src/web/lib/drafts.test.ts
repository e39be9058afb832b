import { describe, expect, it } from 'vitest';
import {
  draftKey,
  draftLimits,
  draftText,
  forgetAccountDrafts,
  loadDraft,
  pruneDrafts,
  removeDraft,
  saveDraft,
  type DraftStorage,
} from './drafts.js';

/** An in-memory Storage, optionally refusing writes past `quota` characters as browsers do. */
function memoryStorage(quota = Infinity) {
  const items = new Map<string, string>();
  const used = () => [...items].reduce((sum, [key, value]) => sum + key.length + value.length, 0);
  const storage: DraftStorage = {
    get length() {
      return items.size;
    },
    key: (index) => [...items.keys()][index] ?? null,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      const before = items.get(key);
      items.set(key, value);
      if (used() > quota) {
        if (before === undefined) items.delete(key);
        else items.set(key, before);
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      }
    },
    removeItem: (key) => {
      items.delete(key);
    },
  };
  return { storage, items };
}

/** Storage that throws on every call, as a browser with storage disabled does. */
const refusing: DraftStorage = {
  get length(): number {
    throw new DOMException('Denied', 'SecurityError');
  },
  key: () => {
    throw new DOMException('Denied', 'SecurityError');
  },
  getItem: () => {
    throw new DOMException('Denied', 'SecurityError');
  },
  setItem: () => {
    throw new DOMException('Denied', 'SecurityError');
  },
  removeItem: () => {
    throw new DOMException('Denied', 'SecurityError');
  },
};

const readBody = (value: unknown) => {
  const body = draftText(value, 'body');
  return body === null ? null : { body };
};
const day = 24 * 60 * 60 * 1000;
const now = Date.UTC(2026, 0, 15);

describe('drafts', () => {
  it('keeps a draft per account and target and reads it back with when it was saved', () => {
    const { storage } = memoryStorage();
    expect(saveDraft(storage, 'u1', 'post', { body: 'Hello' }, now)).toBe(true);
    expect(saveDraft(storage, 'u1', 'comment:p1', { body: 'A comment' }, now + 1)).toBe(true);
    expect(loadDraft(storage, 'u1', 'post', readBody, now)).toEqual({
      value: { body: 'Hello' },
      savedAt: now,
    });
    expect(loadDraft(storage, 'u1', 'comment:p1', readBody, now)?.value.body).toBe('A comment');
    expect(loadDraft(storage, 'u1', 'comment:p2', readBody, now)).toBeNull();
  });

  it('never shows one account the drafts of another', () => {
    const { storage } = memoryStorage();
    saveDraft(storage, 'u1', 'post', { body: 'Mine' }, now);
    expect(loadDraft(storage, 'u2', 'post', readBody, now)).toBeNull();
    expect(draftKey('u1', 'post')).not.toBe(draftKey('u2', 'post'));
  });

  it('replaces the draft of a target, and removes it when sent or discarded', () => {
    const { storage, items } = memoryStorage();
    saveDraft(storage, 'u1', 'post', { body: 'One' }, now);
    saveDraft(storage, 'u1', 'post', { body: 'Two' }, now + 10);
    expect(items.size).toBe(1);
    expect(loadDraft(storage, 'u1', 'post', readBody, now + 20)?.value.body).toBe('Two');
    removeDraft(storage, 'u1', 'post');
    expect(loadDraft(storage, 'u1', 'post', readBody, now + 20)).toBeNull();
  });

  it('forgets every draft of an account that signs out, and only that account', () => {
    const { storage } = memoryStorage();
    saveDraft(storage, 'u1', 'post', { body: 'a' }, now);
    saveDraft(storage, 'u1', 'reply:c1', { body: 'b' }, now);
    saveDraft(storage, 'u2', 'post', { body: 'c' }, now);
    storage.setItem('theme', 'dark');
    forgetAccountDrafts(storage, 'u1');
    expect(loadDraft(storage, 'u1', 'post', readBody, now)).toBeNull();
    expect(loadDraft(storage, 'u1', 'reply:c1', readBody, now)).toBeNull();
    expect(loadDraft(storage, 'u2', 'post', readBody, now)?.value.body).toBe('c');
    expect(storage.getItem('theme')).toBe('dark');
  });

  it('drops a draft older than 30 days when it is read', () => {
    const { storage, items } = memoryStorage();
    saveDraft(storage, 'u1', 'post', { body: 'Old' }, now);
    expect(loadDraft(storage, 'u1', 'post', readBody, now + 29 * day)).not.toBeNull();
    expect(loadDraft(storage, 'u1', 'post', readBody, now + 31 * day)).toBeNull();
    expect(items.size).toBe(0);
  });

  it('drops a draft it cannot read, or of the wrong shape', () => {
    const { storage, items } = memoryStorage();
    storage.setItem(draftKey('u1', 'post'), '{not json');
    expect(loadDraft(storage, 'u1', 'post', readBody, now)).toBeNull();
    storage.setItem(draftKey('u1', 'post'), JSON.stringify({ v: { body: 42 }, t: now }));
    expect(loadDraft(storage, 'u1', 'post', readBody, now)).toBeNull();
    storage.setItem(draftKey('u1', 'post'), JSON.stringify({ v: { body: 'x' } }));
    expect(loadDraft(storage, 'u1', 'post', readBody, now)).toBeNull();
    expect(items.size).toBe(0);
  });

  it('keeps at most 50 drafts, dropping the oldest and the expired', () => {
    const { storage } = memoryStorage();
    storage.setItem(
      draftKey('u1', 'stale'),
      JSON.stringify({ v: { body: 's' }, t: now - 40 * day }),
    );
    for (let index = 0; index < draftLimits.maxDrafts + 5; index += 1) {
      saveDraft(storage, 'u1', `comment:p${String(index)}`, { body: String(index) }, now + index);
    }
    expect(pruneDrafts(storage, now + 100)).toBe(draftLimits.maxDrafts);
    expect(loadDraft(storage, 'u1', 'stale', readBody, now + 100)).toBeNull();
    for (const gone of [0, 1, 2, 3, 4]) {
      expect(loadDraft(storage, 'u1', `comment:p${String(gone)}`, readBody, now + 100)).toBeNull();
    }
    expect(loadDraft(storage, 'u1', 'comment:p54', readBody, now + 100)?.value.body).toBe('54');
    expect(loadDraft(storage, 'u1', 'comment:p5', readBody, now + 100)?.value.body).toBe('5');
  });

  it('does not keep a draft longer than the server would ever take, nor its stale copy', () => {
    const { storage } = memoryStorage();
    saveDraft(storage, 'u1', 'post', { body: 'short' }, now);
    expect(saveDraft(storage, 'u1', 'post', { body: 'x'.repeat(draftLimits.maxChars) }, now)).toBe(
      false,
    );
    expect(loadDraft(storage, 'u1', 'post', readBody, now)).toBeNull();
  });

  it('makes room when storage is full by dropping the oldest drafts', () => {
    const { storage } = memoryStorage(2_000);
    for (let index = 0; index < 20; index += 1) {
      saveDraft(storage, 'u1', `reply:c${String(index)}`, { body: 'y'.repeat(40) }, now + index);
    }
    expect(saveDraft(storage, 'u1', 'post', { body: 'z'.repeat(300) }, now + 50)).toBe(true);
    expect(loadDraft(storage, 'u1', 'post', readBody, now + 60)?.value.body).toHaveLength(300);
    expect(loadDraft(storage, 'u1', 'reply:c0', readBody, now + 60)).toBeNull();
    expect(loadDraft(storage, 'u1', 'reply:c19', readBody, now + 60)).not.toBeNull();
  });

  it('gives up quietly when even an empty storage cannot hold the draft', () => {
    const { storage } = memoryStorage(100);
    expect(saveDraft(storage, 'u1', 'post', { body: 'w'.repeat(500) }, now)).toBe(false);
    expect(loadDraft(storage, 'u1', 'post', readBody, now)).toBeNull();
  });

  it('does nothing, and never throws, without storage or when storage refuses', () => {
    for (const storage of [null, refusing]) {
      expect(saveDraft(storage, 'u1', 'post', { body: 'x' }, now)).toBe(false);
      expect(loadDraft(storage, 'u1', 'post', readBody, now)).toBeNull();
      expect(pruneDrafts(storage, now)).toBe(0);
      expect(() => {
        removeDraft(storage, 'u1', 'post');
        forgetAccountDrafts(storage, 'u1');
      }).not.toThrow();
    }
  });
});

describe('draftText', () => {
  it('reads a string field and nothing else', () => {
    expect(draftText({ body: 'a' }, 'body')).toBe('a');
    expect(draftText({ body: 1 }, 'body')).toBeNull();
    expect(draftText('body', 'body')).toBeNull();
    expect(draftText(null, 'body')).toBeNull();
  });
});
