/**
 * How long a diagnostics pass runs before it lets newer events in (Session.publish): a didChange
 * waits at most about this long for a stale pass, which then stops.
 */
export const LINT_SLICE_MS = 8; // not a fact: anf-lint's own slice length, a fraction of a keystroke interval

/**
 * Debounces diagnostics per document: each change restarts the document's timer, so only the
 * latest version is checked; a run that a newer version overtakes stops and publishes nothing (see Session).
 */
export class DiagnosticsScheduler {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly delayMs: number,
    private readonly run: (uri: string) => void,
  ) {}

  /** `immediate`: on open, diagnostics should not wait for a typing pause. */
  schedule(uri: string, immediate = false): void {
    this.cancel(uri);
    const timer = setTimeout(() => {
      this.timers.delete(uri);
      this.run(uri);
    }, immediate ? 0 : this.delayMs);
    this.timers.set(uri, timer);
  }

  cancel(uri: string): void {
    const timer = this.timers.get(uri);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(uri);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
