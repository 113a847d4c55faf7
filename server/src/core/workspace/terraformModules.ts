import type { ElsewhereVolume } from '../iac/estate';
import { estateRead } from '../iac/read';
import { readTerraformModule, type TerraformModuleFile } from '../iac/terraform';
import type { ParsedFile } from './parsedFile';
import { PARSER_FAILURE } from './parseFile';

/**
 * Terraform reads a module (a folder) as one: `variable`s, `locals` and resources of every `.tf`
 * file, with the values of `terraform.tfvars` and `*.auto.tfvars`. Each file is parsed on its own
 * (parseFile.ts: positions, syntax problems, what the file gives alone, as the editor needs it);
 * here, where the workspace combines files, a `.tf` file with references it cannot resolve alone
 * is read again with its module, and the workspace answers with that reading. Cached per folder
 * until one of its files changes.
 */
export class TerraformModules {
  private readonly folders = new Map<string, Set<string>>();
  private readonly cache = new Map<string, { readonly members: readonly ParsedFile[]; readonly results: Map<string, ParsedFile> }>();

  /** Call for every file added, replaced or removed. Returns whether a module was touched (its files' volumes may have changed with it). */
  changed(uri: string, file: ParsedFile | undefined): boolean {
    const folder = folderOf(uri);
    const member = file !== undefined && isModuleFile(file);
    const set = this.folders.get(folder);
    if (!member && !set?.has(uri)) return false;
    this.cache.delete(folder);
    if (member) {
      if (set) set.add(uri);
      else this.folders.set(folder, new Set([uri]));
    } else if (set) {
      set.delete(uri);
      if (set.size === 0) this.folders.delete(folder);
    }
    return true;
  }

  /** The file as its module reads it (the same object when the file needs nothing of its module). */
  resolve(file: ParsedFile, get: (uri: string) => ParsedFile | undefined): ParsedFile {
    if (file.kind !== 'terraform' || !file.iac) return file;
    const folder = folderOf(file.uri);
    const uris = this.folders.get(folder);
    if (!uris || uris.size < 2) return file;
    const members = [...uris].sort().flatMap((u) => (get(u) ? [get(u)!] : []));
    if (!hasResources(file) || !moduleNeeded(members)) return file;
    let cached = this.cache.get(folder);
    if (!cached || cached.members.length !== members.length || cached.members.some((m, i) => m !== members[i])) {
      cached = { members, results: evaluateGuarded(members) };
      this.cache.set(folder, cached);
    }
    return cached.results.get(file.uri) ?? file;
  }
}

/** A module reader that throws leaves each file as read alone, and says so (ANF003) instead of failing the request. */
function evaluateGuarded(members: readonly ParsedFile[]): Map<string, ParsedFile> {
  try {
    return evaluate(members);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const results = new Map<string, ParsedFile>();
    for (const file of members.filter(hasResources)) {
      const problem = { code: PARSER_FAILURE, span: { start: 0, end: 0 }, message: `anf-lint's Terraform module reader failed on this folder, so this file was checked alone (variables, locals and resources of its other files unknown): ${message}` };
      results.set(file.uri, { ...file, problems: [...file.problems, problem] });
    }
    return results;
  }
}

function evaluate(members: readonly ParsedFile[]): Map<string, ParsedFile> {
  const targets = new Set(members.filter(hasResources).map((m) => m.uri));
  const files: TerraformModuleFile[] = members.map((m) => ({ uri: m.uri, source: m.source, kind: m.kind as TerraformModuleFile['kind'] }));
  const estates = readTerraformModule(files, targets);
  // A pool's volumes in other files of the module count in its totals (over-commitment, budgets).
  const byPool = new Map<string, ElsewhereVolume[]>();
  for (const [uri, estate] of estates) {
    for (const volume of estate.volumes) {
      const symbol = volume.pool?.symbol;
      if (!symbol || estate.pools.some((p) => p.symbol === symbol && !p.declaredIn)) continue;
      byPool.set(symbol, [...(byPool.get(symbol) ?? []), { uri, volume }]);
    }
  }
  const results = new Map<string, ParsedFile>();
  for (const [uri, estate] of estates) {
    const file = members.find((m) => m.uri === uri)!;
    const read = estateRead(estate, uri, file.manifest?.syntaxErrors ?? file.problems.some((p) => p.code === 'ANF400'), byPool);
    const { manifest: _manifest, ...rest } = file;
    results.set(uri, { ...rest, iac: read.estate, volumes: read.volumes ?? [], ...(read.manifest ? { manifest: read.manifest } : {}) });
  }
  return results;
}

function hasResources(file: ParsedFile): boolean {
  const estate = file.iac;
  return file.kind === 'terraform' && estate !== undefined && (estate.accounts.length > 0 || estate.pools.length > 0 || estate.volumes.length > 0);
}

/**
 * Whether the folder must be read as a module: a `.tf` file refers to something it does not
 * declare (a variable a .tfvars file may set, a local, a resource of another file), or a .tfvars
 * file may set a variable. Then every `.tf` file with resources is read with the module, so a
 * pool in pools.tf also counts the volumes of volumes.tf.
 */
function moduleNeeded(members: readonly ParsedFile[]): boolean {
  return members.some((m) => m.kind === 'terraform-vars' || (hasResources(m) && m.iac?.unresolved === true));
}

function isModuleFile(file: ParsedFile): boolean {
  return file.kind === 'terraform' || file.kind === 'terraform-vars';
}

function folderOf(uri: string): string {
  return uri.slice(0, uri.lastIndexOf('/') + 1);
}
