import type { FileKind } from '../fileKind';
import { estateRead } from '../iac/read';
import {
  readTrident,
  tridentParts,
  type StorageClass,
  type TridentElsewhere,
  type TridentParts,
  type VirtualPool,
} from '../iac/trident';
import { relativeUri } from '../iac/instance';
import type { ParsedFile } from './parsedFile';

const KINDS: ReadonlySet<FileKind> = new Set(['kubernetes', 'yaml-options', 'json-options']);
const DRIVER = 'azure-netapp-files';

/**
 * Trident across files (issue 28 §1): an application's PersistentVolumeClaims in one file, the
 * StorageClass in another, the `azure-netapp-files` backend in a third. A file with claims is read
 * again with the classes and pools the other files declare (iac/trident.ts `readTrident`'s
 * `elsewhere`). A class of a name several files declare (dev and prod overlays) is the one nearest
 * the claim's folder (the longest shared path), else none when two are as near: a claim is never
 * linked to a class it may not use. Its pools are those of the backends nearest the class's file.
 */
export class TridentLinks {
  /** Files with claims (their text says `PersistentVolumeClaim`). */
  private readonly claimFiles = new Set<string>();
  /** Files that declare azure-netapp-files backends or Trident classes. */
  private readonly providers = new Set<string>();
  private readonly parts = new WeakMap<ParsedFile, TridentParts>();
  private readonly cache = new Map<string, { file: ParsedFile; used: readonly ParsedFile[]; result: ParsedFile }>();

  changed(uri: string, file: ParsedFile | undefined): boolean {
    const wasClaims = this.claimFiles.delete(uri);
    const wasProvider = this.providers.delete(uri);
    const text = file && KINDS.has(file.kind) ? file.source.text : '';
    const claims = text.includes('PersistentVolumeClaim');
    const provider = text.includes(DRIVER) || text.includes('csi.trident.netapp.io');
    if (claims) this.claimFiles.add(uri);
    if (provider) this.providers.add(uri);
    if (wasProvider || provider || ((wasClaims || claims) && this.providers.size > 0)) {
      this.cache.clear();
      return true;
    }
    return false;
  }

  resolve(file: ParsedFile, get: (uri: string) => ParsedFile | undefined): ParsedFile {
    if (!this.claimFiles.has(file.uri) || this.providers.size === 0) return file;
    const others = [...this.providers].filter((u) => u !== file.uri).sort();
    if (others.length === 0) return file;
    const cached = this.cache.get(file.uri);
    if (cached && cached.file === file && cached.used.every((u) => get(u.uri) === u)) return cached.result;
    const used = others.flatMap((u) => (get(u) ? [get(u)!] : []));
    const result = this.read(file, used);
    this.cache.set(file.uri, { file, used, result });
    return result;
  }

  private partsOf(file: ParsedFile): TridentParts {
    let made = this.parts.get(file);
    if (!made) {
      made = tridentParts(file.source);
      this.parts.set(file, made);
    }
    return made;
  }

  private read(file: ParsedFile, others: readonly ParsedFile[]): ParsedFile {
    const folder = folderOf(file.uri);
    const classes = new Map<string, { sc: StorageClass; uri: string }[]>();
    const classUri = new Map<StorageClass, string>();
    const pools: { pool: VirtualPool; uri: string }[] = [];
    const where = new Map<VirtualPool, string>();
    for (const other of others) {
      const parts = this.partsOf(other);
      for (const sc of parts.classes) {
        const list = classes.get(sc.name) ?? [];
        list.push({ sc, uri: other.uri });
        classes.set(sc.name, list);
        classUri.set(sc, other.uri);
      }
      for (const p of parts.pools) {
        pools.push({ pool: p, uri: other.uri });
        where.set(p, `${relativeUri(folder, other.uri)} line ${other.source.positionAt(p.span.start).line + 1}`);
      }
    }
    if (classes.size === 0 && pools.length === 0) return file;
    const elsewhere: TridentElsewhere = {
      // Several files declare the name (environments, examples): the one nearest the claim, when one is nearest.
      storageClass: (name) => nearest(classes.get(name) ?? [], folder)?.sc,
      poolsFor: (sc) => {
        const anchor = folderOf(sc ? (classUri.get(sc) ?? file.uri) : file.uri);
        const best = Math.max(-1, ...pools.map((p) => shared(folderOf(p.uri), anchor)));
        return pools.filter((p) => shared(folderOf(p.uri), anchor) === best).map((p) => p.pool);
      },
      where: (p) => where.get(p) ?? 'another file',
    };
    try {
      const estate = readTrident(file.source, elsewhere);
      if (!estate || estate.volumes.length === (file.iac?.volumes.length ?? 0)) return file;
      const read = estateRead(estate, file.uri, false);
      return {
        ...file,
        iac: read.estate,
        volumes: read.volumes ?? [],
        ...(read.manifest ? { manifest: read.manifest } : {}),
      };
    } catch {
      // The file as read alone: a failure here must not lose what it says by itself.
      return file;
    }
  }
}

/** The one entry whose file is nearest `folder` (the longest shared path); none when two are as near. */
function nearest<T extends { uri: string }>(list: readonly T[], folder: string): T | undefined {
  if (list.length <= 1) return list[0];
  const ranked = list.map((e) => ({ e, n: shared(folderOf(e.uri), folder) })).sort((a, b) => b.n - a.n);
  return ranked[0]!.n > ranked[1]!.n ? ranked[0]!.e : undefined;
}

/** How many leading path segments two folders share. */
function shared(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

function folderOf(uri: string): string {
  return uri.slice(0, uri.lastIndexOf('/') + 1);
}
