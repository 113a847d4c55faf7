/**
 * Values of the template languages (ARM expressions, Bicep): plain JSON values, where a part
 * anf-lint cannot know is an `Unknown` holding the reason in words a user can act on. An unknown
 * part stays unknown through every function that needs it, and never becomes a 0 or an empty name.
 */
export class Unknown {
  constructor(readonly reason: string) {}
}

export function isUnknown(v: unknown): v is Unknown {
  return v instanceof Unknown;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Unknown);
}

/** The first unknown part of a value (arrays and objects searched, iteratively), or undefined when it is all known. */
export function firstUnknown(v: unknown): Unknown | undefined {
  const stack: unknown[] = [v];
  let seen = 0;
  while (stack.length > 0) {
    const x = stack.pop();
    if (x instanceof Unknown) return x;
    if (++seen > 100_000) return new Unknown('the value is too large to read'); // not a fact: bound on work
    if (Array.isArray(x)) for (const item of x) stack.push(item);
    else if (isPlainObject(x)) for (const item of Object.values(x)) stack.push(item);
  }
  return undefined;
}

/** Key lookup as ARM does it (property names are case-insensitive). */
export function propertyOf(object: Record<string, unknown>, key: string): unknown {
  if (Object.hasOwn(object, key)) return object[key];
  const lower = key.toLowerCase();
  for (const k of Object.keys(object)) if (k.toLowerCase() === lower) return object[k];
  return undefined;
}

/**
 * A bound on the work one read does (issue 32): evaluation steps and resource instances. Loops
 * nested through modules or copies multiply; when the budget runs out, what is left is unknown
 * and the reader reports where it stopped.
 */
export class Budget {
  private steps = 0;
  private instances = 0;
  /** Set once the budget ran out: what ran out, in words. */
  stopped: string | undefined;

  constructor(
    readonly maxSteps = MAX_STEPS,
    readonly maxInstances = MAX_INSTANCES,
  ) {}

  /** One evaluation step; false once the budget is spent. */
  step(): boolean {
    if (this.stopped) return false;
    if (++this.steps > this.maxSteps)
      this.stopped = `it evaluated ${this.maxSteps.toLocaleString('en-US')} expressions`;
    return !this.stopped;
  }

  /** Evaluation steps taken so far. */
  get stepsTaken(): number {
    return this.steps;
  }

  /**
   * `n` steps at once, as `n` calls of `step` would take them, when there is room for all of them
   * (false, and nothing taken, otherwise): an evaluation remembered costs what it cost the first time.
   */
  takeSteps(n: number): boolean {
    if (this.stopped || this.steps + n > this.maxSteps) return false;
    this.steps += n;
    return true;
  }

  /** Where the budget stands, to go back to with `rewind` (work done again from there). */
  mark(): { readonly steps: number; readonly instances: number; readonly stopped: string | undefined } {
    return { steps: this.steps, instances: this.instances, stopped: this.stopped };
  }

  rewind(mark: ReturnType<Budget['mark']>): void {
    this.steps = mark.steps;
    this.instances = mark.instances;
    this.stopped = mark.stopped;
  }

  /** Room for `n` more resource (or module) instances; false once the budget is spent. */
  instance(n = 1): boolean {
    if (this.stopped) return false;
    if (this.instances + n > this.maxInstances) {
      this.stopped = `it read ${this.maxInstances.toLocaleString('en-US')} resource and module instances`;
      return false;
    }
    this.instances += n;
    return true;
  }

  unknown(): Unknown {
    return new Unknown(
      `anf-lint stopped evaluating this file after ${this.stopped ?? 'its work budget'} (a bound on work, not a limit of the language)`,
    );
  }
}

/** Not facts: bounds on the work one file's reading may take (issue 32). */
export const MAX_STEPS = 500_000; // not a fact: a bound on anf-lint's work per file
export const MAX_INSTANCES = 1_000;
