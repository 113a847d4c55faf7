/**
 * What a manifest read incrementally (incremental.ts) kept from the version before it, so that
 * derived figures of unchanged volumes can be reused instead of computed again (figures.ts).
 *
 * Taken once: the link is dropped when it is read, so versions never chain up in memory.
 */
import type { ManifestAccount, ManifestDocument, ManifestPool, ManifestVolume } from './model';

export interface Lineage {
  readonly previous: ManifestDocument;
  /**
   * A copy moved to new offsets -> the previous version's object with the same content. For an
   * account or a pool, its own values (name, service level, size ...) are the same; its list of
   * pools or volumes may hold a changed item. Objects kept as they were are not listed.
   */
  readonly sameAs: Map<
    ManifestAccount | ManifestPool | ManifestVolume,
    ManifestAccount | ManifestPool | ManifestVolume
  >;
}

const lineages = new WeakMap<ManifestDocument, Lineage>();

export function recordLineage(manifest: ManifestDocument, lineage: Lineage): void {
  // One link at most: a version whose figures were never asked for does not keep its own previous one.
  lineages.delete(lineage.previous);
  lineages.set(manifest, lineage);
}

/** The manifest's lineage, once (later calls get undefined). */
export function takeLineage(manifest: ManifestDocument): Lineage | undefined {
  const lineage = lineages.get(manifest);
  if (lineage) lineages.delete(manifest);
  return lineage;
}

/**
 * A moved copy (incremental.ts) -> the object it was copied from, one version back: for answers
 * worked out per object that hold spans (ANF116's remedy), which a copy can take moved. Recording
 * a copy forgets the original's own link, so versions never chain up in memory.
 */
const originals = new WeakMap<object, object>();

export function recordMoved(copy: object, original: object): void {
  originals.delete(original);
  originals.set(copy, original);
}

/** The object a moved copy was made from, if it is one. */
export function originalOf<T extends object>(copy: T): T | undefined {
  return originals.get(copy) as T | undefined;
}
