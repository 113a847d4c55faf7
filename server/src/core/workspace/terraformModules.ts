import type { ParseProblem } from '../diagnostics';
import { withHanaSharedBySid, type ElsewhereVolume } from '../iac/estate';
import {
  localModuleFolder,
  readTerraformModule,
  TerraformTrees,
  type ModuleFolders,
  type TerraformModuleFile,
} from '../iac/terraform';
import { bicepModuleUri, readBicepModule } from '../iac/bicep';
import type { ParsedFile } from './parsedFile';
import { readAloneAfter, withEstate, withProblemsFound } from './reread';
import { parseConfigFile } from '../configFile';

type Results = Map<string, ParsedFile>;

/**
 * Terraform reads a module (a folder) as one: `variable`s, `locals` and resources of every `.tf`
 * file, with the values of `terraform.tfvars` and `*.auto.tfvars`. Each file is parsed on its own
 * (parseFile.ts: positions, syntax problems, what the file gives alone, as the editor needs it);
 * here, where the workspace combines files, a `.tf` file with references it cannot resolve alone
 * is read again with its module, and the workspace answers with that reading.
 *
 * Modules form a graph: a `module` block whose `source` is a local folder (`./modules/anf`) makes
 * that folder's resources the caller's too (iac/terraform.ts `instanceOf`), and marks the called
 * folder's files as called (`calledBy`: their values that use a variable are judged in each
 * caller). A folder's reading is cached until one of its files, or of a folder it calls (at any
 * depth), or the set of its callers changes.
 */
export class TerraformModules {
  private readonly folders = new Map<string, Set<string>>();
  private readonly sortedFolders = new Map<string, readonly string[]>();
  /** The local folders each file's `module` blocks call. */
  private readonly callsOf = new Map<string, readonly string[]>();
  /** `callsOf` turned around: the files whose `module` blocks call a folder (a scan of every file per folder was quadratic). */
  private readonly callersOf = new Map<string, Set<string>>();
  private readonly cache = new Map<
    string,
    {
      readonly members: readonly ParsedFile[];
      readonly results: Results | undefined;
      readonly reaches: ReadonlySet<string>;
    }
  >();
  /** Bicep: the local `.bicep` files each file's `module` declarations name, and each file's reading with them. */
  private readonly bicepCalls = new Map<string, readonly string[]>();
  /**
   * The other way round: the files whose declarations name each file. `resolve` asks a file's
   * callers on every call; a scan of every file's calls each time was quadratic (issue 29: 3% of
   * a 400-file repository's run).
   */
  private readonly bicepCallers = new Map<string, Set<string>>();
  private readonly bicepCache = new Map<
    string,
    { readonly file: ParsedFile; readonly result: ParsedFile; readonly reaches: ReadonlySet<string> }
  >();
  /** Trees of the module files read, kept until the file changes (bounded): a folder's reading and its callers' share them. */
  private readonly trees = new TerraformTrees();

  /** Folders whose reading used `file()` and its kin: another file's change may change them. */
  private readonly readingFiles = new Set<string>();

  /** How many folder readings `resolve` has made (each a cache miss): what a test counts. */
  readings = 0;

  /** `.anf-lint.yaml` files and the var files each names per module folder (`terraform.varFiles`), as URIs. */
  private readonly varFileConfigs = new Map<string, ReadonlyMap<string, readonly string[]>>();

  /** Call for every file added, replaced or removed. Returns whether a module was touched (its files' volumes may have changed with it). */
  changed(uri: string, file: ParsedFile | undefined): boolean {
    if (file?.kind === 'anf-lint-config' || this.varFileConfigs.has(uri)) {
      const before = this.varFileConfigs.get(uri);
      const after = file?.kind === 'anf-lint-config' ? varFilesOf(uri, file.source.text) : undefined;
      if (after && after.size > 0) this.varFileConfigs.set(uri, after);
      else this.varFileConfigs.delete(uri);
      if ((before?.size ?? 0) === 0 && (after?.size ?? 0) === 0) return false;
      this.cache.clear();
      return true;
    }
    // A named var file of another folder: the folders that use it read it again.
    if ([...this.varFileConfigs.values()].some((m) => [...m.values()].some((files) => files.includes(uri))))
      this.cache.clear();
    if (file?.kind === 'bicep' || this.bicepCalls.has(uri) || this.bicepCache.has(uri))
      return this.bicepChanged(uri, file);
    const folder = folderOf(uri);
    const member = file !== undefined && isModuleFile(file);
    const set = this.folders.get(folder);
    if (!member && !set?.has(uri)) {
      // A file a folder's `file()` may read: that folder reads again.
      if (this.readingFiles.size === 0) return false;
      for (const f of this.readingFiles) this.forget(f);
      this.readingFiles.clear();
      return true;
    }
    this.trees.drop(uri);
    this.forget(folder);
    // Who calls whom changed: the called folders' `calledBy` too.
    const before = this.callsOf.get(uri) ?? [];
    const after = member ? localCalls(file) : [];
    if (before.join('\n') !== after.join('\n')) for (const called of [...before, ...after]) this.forget(called);
    for (const called of before) this.callersOf.get(called)?.delete(uri);
    for (const called of after) {
      const callers = this.callersOf.get(called);
      if (callers) callers.add(uri);
      else this.callersOf.set(called, new Set([uri]));
    }
    if (after.length > 0) this.callsOf.set(uri, after);
    else this.callsOf.delete(uri);
    this.sortedFolders.delete(folder);
    if (member) {
      if (set) set.add(uri);
      else this.folders.set(folder, new Set([uri]));
    } else if (set) {
      set.delete(uri);
      if (set.size === 0) this.folders.delete(folder);
    }
    return true;
  }

  /** A folder's member URIs in order, kept until one is added or removed (`resolve` asks for each file, many times). */
  private sortedMembers(folder: string): readonly string[] | undefined {
    let sorted = this.sortedFolders.get(folder);
    if (sorted === undefined) {
      const uris = this.folders.get(folder);
      if (!uris) return undefined;
      sorted = [...uris].sort();
      this.sortedFolders.set(folder, sorted);
    }
    return sorted;
  }

  /** Drops the cached reading of `folder` and of every folder whose `module` blocks reach it. */
  private forget(folder: string): void {
    this.cache.delete(folder);
    for (const [other, entry] of this.cache) if (entry.reaches.has(folder)) this.cache.delete(other);
  }

  /**
   * Bicep modules link files, not folders: a `module` declaration with a local `.bicep` path. A
   * change of a file drops the readings that reach it, and, when its calls changed, those of the
   * files it called (their `calledBy`).
   */
  private bicepChanged(uri: string, file: ParsedFile | undefined): boolean {
    const before = this.bicepCalls.get(uri) ?? [];
    const after = file?.kind === 'bicep' ? bicepLocalCalls(file) : [];
    const touched = before.length > 0 || after.length > 0 || this.bicepCallersOf(uri).length > 0;
    this.forgetBicep(uri);
    if (before.join('\n') !== after.join('\n')) for (const called of [...before, ...after]) this.forgetBicep(called);
    for (const called of before) this.bicepCallers.get(called)?.delete(uri);
    for (const called of after) {
      let callers = this.bicepCallers.get(called);
      if (!callers) this.bicepCallers.set(called, (callers = new Set()));
      callers.add(uri);
    }
    if (after.length > 0) this.bicepCalls.set(uri, after);
    else this.bicepCalls.delete(uri);
    return touched;
  }

  /** The other files whose `module` declarations name `uri`, sorted. */
  private bicepCallersOf(uri: string): string[] {
    const callers = this.bicepCallers.get(uri);
    return callers ? [...callers].filter((other) => other !== uri).sort() : [];
  }

  private forgetBicep(uri: string): void {
    this.bicepCache.delete(uri);
    for (const [other, entry] of this.bicepCache) if (entry.reaches.has(uri)) this.bicepCache.delete(other);
  }

  private resolveBicep(file: ParsedFile, get: (uri: string) => ParsedFile | undefined): ParsedFile {
    const calls = this.bicepCalls.get(file.uri) ?? [];
    const callers = this.bicepCallersOf(file.uri);
    if (calls.length === 0 && callers.length === 0) return file;
    const cached = this.bicepCache.get(file.uri);
    if (cached && cached.file === file) return cached.result;
    const reaches = new Set<string>();
    const visit = (uri: string): void => {
      for (const called of this.bicepCalls.get(uri) ?? []) {
        if (reaches.has(called) || called === file.uri) continue;
        reaches.add(called);
        visit(called);
      }
    };
    visit(file.uri);
    let result = file;
    if (calls.length > 0) result = readBicepGuarded(file, get);
    // A called module: its values that use a param are judged where each caller sets them; its volumes are its callers' instances.
    if (callers.length > 0 && result.iac)
      result = { ...result, iac: { ...result.iac, calledBy: callers }, volumes: [] };
    this.bicepCache.set(file.uri, { file, result, reaches });
    return result;
  }

  /** The file as its module reads it (the same object when the file needs nothing of its module). */
  resolve(file: ParsedFile, get: (uri: string) => ParsedFile | undefined): ParsedFile {
    if (file.kind === 'bicep' && file.iac) return this.resolveBicep(file, get);
    // A `.tfvars` file too: the folder's reading checks its syntax (it is not parsed alone).
    if (!(file.kind === 'terraform' && file.iac) && file.kind !== 'terraform-vars') return file;
    if (file.kind === 'terraform-vars') {
      // A var file `.anf-lint.yaml` names for another folder: that folder's reading reads it.
      const reader = this.folderNaming(file.uri);
      if (reader !== undefined && reader !== folderOf(file.uri)) {
        const member = this.sortedMembers(reader)
          ?.map(get)
          .find((f) => f?.kind === 'terraform' && f.iac);
        if (member) this.resolve(member, get);
        return this.cache.get(reader)?.results?.get(file.uri) ?? file;
      }
    }
    const folder = folderOf(file.uri);
    const uris = this.sortedMembers(folder);
    if (!uris) return file;
    let cached = this.cache.get(folder);
    if (!cached || !sameMembers(cached.members, uris, get)) {
      const members = uris.flatMap((u) => (get(u) ? [get(u)!] : []));
      const reaches = this.reachable(folder);
      this.readings++;
      cached = { members, results: this.read(folder, members, reaches, get), reaches };
      this.cache.set(folder, cached);
    }
    return cached.results?.get(file.uri) ?? file;
  }

  /**
   * Whether a `.tf` file, as its module reads it (`resolve`), surely has no NetApp account, pool or
   * volume and no subnet or NSG association, decided without reading the module. What a module
   * reading adds to a file comes from its own resource blocks (read with the folder's values) and
   * from the instances of the local modules it calls (read only when a reached folder holds NetApp
   * resources: `filesOf`); a registry module (`isKnownModuleSource`) makes resources from its
   * arguments. So: no resource type the reader reads is named in the file's text (comments count,
   * which only makes the answer "maybe"), every `module` block is local, and no folder it reaches
   * holds a NetApp resource.
   */
  holdsNoResources(file: ParsedFile, get: (uri: string) => ParsedFile | undefined): boolean {
    if (file.kind !== 'terraform' || !surelyNoResources(file)) return false;
    if (!file.iac) return true; // `resolve` gives the file as it is
    const folder = folderOf(file.uri);
    // `filesOf`'s own test, for every folder an instance may read at any depth (a loop back to this folder included).
    for (const called of this.reachable(folder)) if (this.holdsResources(called, get)) return false;
    return true;
  }

  private read(
    folder: string,
    members: readonly ParsedFile[],
    reaches: ReadonlySet<string>,
    get: (uri: string) => ParsedFile | undefined,
  ): Results | undefined {
    const callers = [...(this.callersOf.get(folder) ?? [])].filter((uri) => folderOf(uri) !== folder).sort();
    // Calls that reach no NetApp resource (most modules of a real repository) cost nothing,
    // unless a file reads a module's outputs (`module.naming.pool_name`) or a file (`file()`).
    const calls =
      [...reaches].some((f) => this.holdsResources(f, get)) ||
      (reaches.size > 0 && readsOutputs(members)) ||
      readsFiles(members);
    if (readsFiles(members)) this.readingFiles.add(folder);
    if (
      !calls &&
      callers.length === 0 &&
      this.varFilesOf(folder).length === 0 &&
      (members.length < 2 || !moduleNeeded(members) || givesFilesAsAlone(members))
    )
      return undefined;
    const varFiles = this.varFilesOf(folder);
    const named = varFiles.flatMap((uri) =>
      get(uri)?.kind === 'terraform-vars' && !members.some((m) => m.uri === uri) ? [get(uri)!] : [],
    );
    const reading = [...members, ...named];
    const results: Results =
      calls || varFiles.length > 0 || (members.length >= 2 && moduleNeeded(members))
        ? evaluateGuarded(reading, () =>
            evaluate(
              reading,
              (f, purpose) => this.filesOf(f, get, purpose),
              this.trees,
              varFiles,
              (uri) => get(uri)?.source.text,
            ),
          )
        : new Map();
    if (callers.length === 0) return results;
    // A called module: its values that use a variable are judged where each caller sets them, and
    // its volumes are its callers' instances (mounts reach those): its own are templates.
    for (const m of members) {
      if (m.kind !== 'terraform' || !m.iac) continue;
      const read = results.get(m.uri) ?? m;
      results.set(m.uri, { ...read, iac: { ...read.iac!, calledBy: callers }, volumes: [] });
    }
    return results;
  }

  /** The module folder whose var files (`varFilesOf`) include this file, if any. */
  private folderNaming(uri: string): string | undefined {
    for (const byFolder of this.varFileConfigs.values())
      for (const [folder, files] of byFolder)
        if (files.includes(uri) && this.varFilesOf(folder).includes(uri)) return folder;
    return undefined;
  }

  /** The var files `.anf-lint.yaml` names for a module folder (the nearest configuration file that names the folder). */
  private varFilesOf(folder: string): readonly string[] {
    let best: { depth: number; files: readonly string[] } | undefined;
    for (const [config, byFolder] of this.varFileConfigs) {
      const files = byFolder.get(folder);
      if (!files) continue;
      const depth = folderOf(config).length;
      if (!best || depth > best.depth) best = { depth, files };
    }
    return best?.files ?? [];
  }

  /** The folders `folder`'s `module` blocks reach, at any depth. */
  private reachable(folder: string): Set<string> {
    const reached = new Set<string>();
    const visit = (f: string): void => {
      for (const uri of this.folders.get(f) ?? []) {
        for (const called of this.callsOf.get(uri) ?? []) {
          if (reached.has(called) || called === folder) continue;
          reached.add(called);
          visit(called);
        }
      }
    };
    visit(folder);
    return reached;
  }

  /** Whether a folder, or a folder its `module` blocks reach, has a NetApp resource (read alone). */
  private holdsResources(folder: string, get: (uri: string) => ParsedFile | undefined): boolean {
    const uris = this.folders.get(folder);
    if (!uris) return false;
    for (const uri of uris) {
      const file = get(uri);
      if (file && hasResources(file)) return true;
    }
    for (const called of this.reachable(folder)) {
      for (const uri of this.folders.get(called) ?? []) {
        const file = get(uri);
        if (file && hasResources(file)) return true;
      }
    }
    return false;
  }

  private filesOf(
    folder: string,
    get: (uri: string) => ParsedFile | undefined,
    purpose?: 'outputs',
  ): TerraformModuleFile[] | undefined {
    const uris = this.folders.get(folder);
    if (!uris || (purpose !== 'outputs' && !this.holdsResources(folder, get))) return undefined;
    return [...uris].sort().flatMap((u) => {
      const f = get(u);
      return f ? [{ uri: f.uri, source: f.source, kind: f.kind as TerraformModuleFile['kind'] }] : [];
    });
  }
}

/** Whether `members` are the files `uris` name now (the same objects, in order): a folder's reading is still current. */
function sameMembers(
  members: readonly ParsedFile[],
  uris: readonly string[],
  get: (uri: string) => ParsedFile | undefined,
): boolean {
  let at = 0;
  for (const uri of uris) {
    const file = get(uri);
    if (file && members[at++] !== file) return false;
  }
  return at === members.length;
}

/** A module reader that throws leaves each file as read alone, and says so (ANF003) instead of failing the request. */
function evaluateGuarded(members: readonly ParsedFile[], read: () => Results): Results {
  try {
    return read();
  } catch (error) {
    const results: Results = new Map();
    for (const file of members.filter(isTarget)) {
      const failed =
        "anf-lint's Terraform module reader failed on this folder, so this file was checked alone (variables, locals and resources of its other files and of the modules it calls unknown)";
      results.set(file.uri, readAloneAfter(file, failed, error));
    }
    return results;
  }
}

function evaluate(
  members: readonly ParsedFile[],
  folders: ModuleFolders,
  trees: TerraformTrees,
  varFiles?: readonly string[],
  readText?: (uri: string) => string | undefined,
): Results {
  const targets = new Set(members.filter(isTarget).map((m) => m.uri));
  const files: TerraformModuleFile[] = members.map((m) => ({
    uri: m.uri,
    source: m.source,
    kind: m.kind as TerraformModuleFile['kind'],
  }));
  const problems = new Map<string, ParseProblem[]>();
  const read = readTerraformModule(files, targets, folders, trees, varFiles, problems, readText);
  // Terraform reads the folder as one: a lower-case `hn1-shared` in one file is SAP HANA's beside
  // `hn1-data-mnt00001` in another (estate.ts `withHanaSharedBySid`).
  const folderVolumes = [...read.values()].flatMap((estate) => estate.volumes);
  const estates = new Map([...read].map(([uri, estate]) => [uri, withHanaSharedBySid(estate, folderVolumes)]));
  // A pool's volumes in other files of the module count in its totals (over-commitment, budgets).
  const byPool = new Map<string, ElsewhereVolume[]>();
  for (const [uri, estate] of estates) {
    for (const volume of estate.volumes) {
      const symbol = volume.pool?.symbol;
      if (!symbol || estate.pools.some((p) => p.symbol === symbol && !p.declaredIn)) continue;
      byPool.set(symbol, [...(byPool.get(symbol) ?? []), { uri, volume }]);
    }
  }
  const results: Results = new Map();
  for (const file of members) {
    // What the module reading found that the file alone did not: the syntax of a file not parsed
    // alone (ANF400), an expression nested past the evaluator's bound (ANF422).
    const found = withProblemsFound(file, problems.get(file.uri) ?? []);
    const estate = estates.get(file.uri);
    if (estate) results.set(file.uri, withEstate(file, estate, found, byPool));
    else if (found) results.set(file.uri, { ...file, problems: found });
  }
  return results;
}

/** A Bicep file read with its local modules; a reader that throws leaves it as read alone, and says so (ANF003). */
function readBicepGuarded(file: ParsedFile, get: (uri: string) => ParsedFile | undefined): ParsedFile {
  try {
    const problems: ParseProblem[] = [];
    const estate = readBicepModule(
      file.uri,
      file.source,
      (uri) => {
        const f = get(uri);
        return f?.kind === 'bicep' ? f.source : undefined;
      },
      { problems },
    );
    if (!estate) return file;
    // What the reading with modules found that the file alone did not (the work budget running out: ANF422).
    return withEstate(file, estate, withProblemsFound(file, problems));
  } catch (error) {
    return readAloneAfter(
      file,
      "anf-lint's Bicep module reader failed on this file, so it was checked alone (the resources of its modules unknown)",
      error,
    );
  }
}

/** The `.bicep` files a Bicep file's `module` declarations with a local path name. */
function bicepLocalCalls(file: ParsedFile): string[] {
  const calls = file.iac?.calls ?? [];
  return [
    ...new Set(
      calls.flatMap((c) =>
        c.local && c.source ? [bicepModuleUri(file.uri, c.source)].filter((u): u is string => u !== undefined) : [],
      ),
    ),
  ].sort();
}

/** `module.x.out` in a `.tf` file with NetApp resources: the module's outputs are read with the folder. */
function readsOutputs(members: readonly ParsedFile[]): boolean {
  return members.some(
    (m) => hasResources(m) && /\bmodule\.[A-Za-z_][\w-]*(?:\[[^\]\n]*\])?\.[A-Za-z_]/.test(m.source.text),
  );
}

/** `file()`, `templatefile()`, `fileexists()` in a `.tf` file with NetApp resources: read with the folder, which can see the workspace's files. */
function readsFiles(members: readonly ParsedFile[]): boolean {
  return members.some((m) => hasResources(m) && /\b(?:file|templatefile|fileexists)\s*\(/.test(m.source.text));
}

/** The resource types the Terraform reader reads (terraform.ts NETAPP_RESOURCE_TYPES, SUBNET_RESOURCE_TYPES), anywhere in a text. */
const RESOURCE_TYPE_NAMES = /azurerm_netapp_|azapi_resource|azurerm_subnet|azurerm_virtual_network/;

function hasResources(file: ParsedFile): boolean {
  const estate = file.iac;
  return (
    file.kind === 'terraform' &&
    estate !== undefined &&
    (estate.accounts.length > 0 || estate.pools.length > 0 || estate.volumes.length > 0)
  );
}

/**
 * Whether a root folder needs no reading as a module: none of its `.tf` files can hold what the
 * reader reads (`surelyNoResources`). For a folder whose calls reach no NetApp resource (`read`'s
 * `calls`): most stacks of a real repository, which a `terraform.tfvars` would make read as
 * modules (498 of the 3,000-file bench repository's 600). Its reading would add only what
 * Terraform checks itself and no figure of anf-lint's depends on: undeclared variables (ANF420)
 * and the syntax of files not parsed alone (ANF400).
 */
function givesFilesAsAlone(members: readonly ParsedFile[]): boolean {
  return members.every((m) => m.kind !== 'terraform' || surelyNoResources(m));
}

/**
 * A `.tf` file whose reading, alone or with its module, surely gives no NetApp account, pool or
 * volume, subnet or NSG association: none read alone, no resource type the reader reads named in
 * its text (comments count, which only makes the answer "maybe"), and only local `module` calls (a
 * registry module makes resources from its arguments). What a module's reading adds besides comes
 * from the folders its calls reach.
 */
function surelyNoResources(file: ParsedFile): boolean {
  const estate = file.iac;
  if (!estate) return true;
  if (hasResources(file) || (estate.subnets?.length ?? 0) > 0 || (estate.nsgAssociations?.length ?? 0) > 0)
    return false;
  if (RESOURCE_TYPE_NAMES.test(file.source.text)) return false;
  return !(estate.calls ?? []).some((c) => !c.local);
}

/** A file the module step reads again: it has NetApp resources, or `module` blocks that may make some. */
function isTarget(file: ParsedFile): boolean {
  return hasResources(file) || (file.kind === 'terraform' && localCalls(file).length > 0);
}

/** The folders a file's `module` blocks with a local source name. */
function localCalls(file: ParsedFile): string[] {
  const calls = file.kind === 'terraform' ? file.iac?.calls : undefined;
  if (!calls) return [];
  return [
    ...new Set(
      calls.flatMap((c) =>
        c.local ? [localModuleFolder(file.uri, c.source)].filter((f): f is string => f !== undefined) : [],
      ),
    ),
  ].sort();
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

/** `terraform.varFiles` of a `.anf-lint.yaml`: module folder URI -> var file URIs, both resolved from the configuration file's folder. */
function varFilesOf(configUri: string, text: string): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  const config = parseConfigFile(text).config;
  // `iac.varFiles`, and the old `terraform.varFiles` (ANF905) where it names another folder.
  const named = { ...(config.terraform?.varFiles ?? {}), ...(config.iac?.varFiles ?? {}) };
  if (Object.keys(named).length === 0) return out;
  const base = folderOf(configUri);
  const resolve = (path: string, folder: boolean): string | undefined => {
    try {
      const url = new URL(folder ? `${path.replace(/\/+$/, '')}/` : path, base).href;
      return url.startsWith(base) ? url : undefined; // nothing outside the configuration's folder
    } catch {
      return undefined;
    }
  };
  for (const [folder, files] of Object.entries(named)) {
    const at = folder === '.' || folder === '' ? base : resolve(folder, true);
    if (!at) continue;
    out.set(
      at,
      files.flatMap((f) => resolve(f, false) ?? []),
    );
  }
  return out;
}

function isModuleFile(file: ParsedFile): boolean {
  return file.kind === 'terraform' || file.kind === 'terraform-vars';
}

function folderOf(uri: string): string {
  return uri.slice(0, uri.lastIndexOf('/') + 1);
}
