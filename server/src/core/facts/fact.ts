import type { SourceKey } from './sources';

/** A value that changed: what an older source said, so a hover can explain the difference. */
export interface FormerValue<T> {
  readonly value: T;
  readonly source: SourceKey;
  readonly note?: string;
}

/** One row of the facts table: a number (or short text) with its unit and its source. */
export interface Fact<T = number> {
  readonly value: T;
  readonly unit: string;
  readonly source: SourceKey;
  readonly note?: string;
  /** Older values, newest first, e.g. what the course seeds said before the limits changed. */
  readonly formerly?: readonly FormerValue<T>[];
}

export function fact<T = number>(
  value: T,
  unit: string,
  source: SourceKey,
  extra: { note?: string; formerly?: readonly FormerValue<T>[] } = {},
): Fact<T> {
  return { value, unit, source, ...extra };
}

/**
 * Several facts that share one unit and one source, each said once:
 * `facts('s', 'NFS5', { acregminSeconds: 3, acregmaxSeconds: 60 })`. Rows with a note use fact().
 */
export function facts<K extends string, T = number>(
  unit: string,
  source: SourceKey,
  values: Readonly<Record<K, T>>,
): Readonly<Record<K, Fact<T>>> {
  const out = {} as Record<K, Fact<T>>;
  for (const key of Object.keys(values) as K[]) out[key] = fact(values[key], unit, source);
  return out;
}

/** A threshold of anf-lint's own judgement (source ANFLINT); `why` follows "anf-lint's own threshold:" in the note. */
export function ownThreshold(value: number, unit: string, why: string): Fact {
  return fact(value, unit, 'ANFLINT', { note: `anf-lint's own threshold: ${why}` });
}
