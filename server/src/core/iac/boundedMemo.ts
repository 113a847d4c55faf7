/**
 * Answers kept by key (strings, so never stale), all forgotten at once past `max` entries: a bound
 * on memory in a process that lives long (the language server). An undefined answer is kept too.
 */
export class BoundedMemo<V> {
  private readonly answers = new Map<string, V>();

  constructor(private readonly max: number) {}

  get(key: string, compute: () => V): V {
    const known = this.answers.get(key);
    if (known !== undefined || this.answers.has(key)) return known as V;
    const value = compute();
    if (this.answers.size >= this.max) this.answers.clear();
    this.answers.set(key, value);
    return value;
  }
}
