// What a table keeps of things built from it (answer fragments, whole bodies, lookups): built once,
// on first asking, and gone with the table. The builder names each by a key; the table knows nothing
// of what they are, so the serving layer can keep its bytes here without the table knowing HTTP.
export class Memo {
  private readonly kept = new Map<string, unknown>();

  /** `build()`'s value, built the first time `key` is asked (undefined is kept too). */
  derived<T>(key: string, build: () => T): T {
    const kept = this.kept.get(key);
    if (kept !== undefined || this.kept.has(key)) return kept as T;
    const value = build();
    this.kept.set(key, value);
    return value;
  }
}
