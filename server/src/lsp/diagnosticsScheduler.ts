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
  private readonly timers = new Map<string, { cancel(): void }>();

  constructor(
    private readonly delayMs: number,
    private readonly run: (uri: string) => void,
  ) {}

  /** `immediate`: on open, diagnostics should not wait for a typing pause. */
  schedule(uri: string, immediate = false): void {
    this.cancel(uri);
    const fire = () => {
      this.timers.delete(uri);
      this.run(uri);
    };
    const delay = immediate ? 0 : this.delayMs;
    // No pause: after the input already read (setImmediate), not a timer, which Node holds at least 1 ms.
    if (delay <= 0) {
      const handle = setImmediate(fire);
      this.timers.set(uri, { cancel: () => clearImmediate(handle) });
      return;
    }
    const timer = setTimeout(fire, delay);
    this.timers.set(uri, { cancel: () => clearTimeout(timer) });
  }

  cancel(uri: string): void {
    this.timers.get(uri)?.cancel();
    this.timers.delete(uri);
  }

  dispose(): void {
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
  }
}
