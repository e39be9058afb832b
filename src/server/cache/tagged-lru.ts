/** One cached value, the tags that invalidate it, and when it runs out on its own (ms since epoch). */
interface Entry<V> {
  value: V;
  tags: readonly string[];
  expiresAt: number;
}

/**
 * A map bounded by entry count that drops its least recently used entry first. Each entry carries tags
 * (`post:12`, `user:abc`): dropping a tag drops every entry that carries it, without a scan (ADR 0028).
 */
export class TaggedLru<V> {
  readonly #entries = new Map<string, Entry<V>>();
  readonly #keysByTag = new Map<string, Set<string>>();

  /** `capacity` 0 keeps nothing. */
  constructor(readonly capacity: number) {}

  get size(): number {
    return this.#entries.size;
  }

  /** The value, marked as just used; undefined when absent or run out. */
  get(key: string, now = Date.now()): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.delete(key);
      return undefined;
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Stores a value, dropping the least recently used entry when full. */
  set(key: string, value: V, tags: readonly string[], expiresAt = Infinity): void {
    if (this.capacity <= 0) return;
    this.delete(key);
    this.#entries.set(key, { value, tags, expiresAt });
    for (const tag of tags) {
      let keys = this.#keysByTag.get(tag);
      if (!keys) this.#keysByTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
    while (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  /** The keys, least recently used first. */
  keys(): IterableIterator<string> {
    return this.#entries.keys();
  }

  /** The keys of the entries that carry `tag`. */
  keysOf(tag: string): string[] {
    return [...(this.#keysByTag.get(tag) ?? [])];
  }

  /** The value without marking it used or checking its expiry. */
  peek(key: string): V | undefined {
    return this.#entries.get(key)?.value;
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    for (const tag of entry.tags) {
      const keys = this.#keysByTag.get(tag);
      if (!keys) continue;
      keys.delete(key);
      if (keys.size === 0) this.#keysByTag.delete(tag);
    }
  }

  /** Drops every entry that carries `tag`. */
  dropTag(tag: string): void {
    const keys = this.#keysByTag.get(tag);
    if (!keys) return;
    for (const key of [...keys]) this.delete(key);
  }

  clear(): void {
    this.#entries.clear();
    this.#keysByTag.clear();
  }
}
