import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import type { ParseProblem } from '../diagnostics';
import { baseName } from '../fileKind';
import { readArmJson, UNDECLARED_PARAMETER_CODE, EVALUATION_STOPPED_CODE } from '../iac/arm';
import type { GivenParameter } from '../iac/arm/evaluate';
import {
  bicepDeclaredParams,
  bicepModuleUri,
  bicepUnknown,
  bicepValueOf,
  readBicepModule,
  readBicepParams,
} from '../iac/bicep';
import type { Value } from '../iac/common';
import { readArmParameters, type ParameterFile } from '../iac/parameters';
import { withEstate } from './reread';
import { isUnknown } from '../iac/values';
import type { ParsedFile } from './parsedFile';
import type { SourceText } from '../text/sourceText';

/** How a template's linked templates are read (armLinks.ts), when it links any. */
export type ArmLinker = (
  file: ParsedFile,
) => { uri: string; text: (uri: string) => SourceText | undefined } | undefined;

/**
 * ARM templates and Bicep files read with their parameters files (issue 27 §2). Which file serves
 * which template, strongest first:
 * - `.anf-lint.yaml` `iac.parameterFiles`: the files named there (matched as the end of a path),
 *   for the template of their folder (a `.bicepparam` for the template its `using` names);
 * - by convention: `<template>.parameters.json` beside `<template>.json` or `<template>.bicep`
 *   (`azuredeploy.parameters.json`, `main.parameters.json`), and a `.bicepparam` whose `using`
 *   names the template;
 * - example files (`<template>.parameters.example.json`, `*.example.bicepparam`): a value only for
 *   a parameter nothing else gives one (no default, no other file), and the origin says so.
 * Other parameters files (`prod.parameters.json` beside `main.json`) are the choice of a
 * deployment command line anf-lint does not see: it does not guess which, and says so in the
 * reason a parameter stays unknown. A parameters file's key the template does not declare is
 * reported on that key (ANF421).
 */
export class ParameterFiles {
  /** Parameters files by folder. */
  private readonly byFolder = new Map<string, Set<string>>();
  private readonly read = new WeakMap<ParsedFile, ParameterFile | undefined>();
  private readonly cache = new Map<
    string,
    { template: ParsedFile; files: readonly ParsedFile[]; result: ParsedFile }
  >();

  /** Call for every file added, replaced or removed; true when a parameters file changed (its templates' volumes may change). */
  changed(uri: string, file: ParsedFile | undefined): boolean {
    const folder = folderOf(uri);
    const isParams = file !== undefined && isParameterKind(file.kind);
    const set = this.byFolder.get(folder);
    const was = set?.has(uri) ?? false;
    if (isParams) {
      if (set) set.add(uri);
      else this.byFolder.set(folder, new Set([uri]));
    } else if (was) {
      set!.delete(uri);
      if (set!.size === 0) this.byFolder.delete(folder);
    }
    return isParams || was;
  }

  /** The parameters files of `uri`'s folder. */
  filesIn(uri: string): readonly string[] {
    return [...(this.byFolder.get(folderOf(uri)) ?? [])].sort();
  }

  /** A template read with its parameters files, or a parameters file with its undeclared keys (ANF421); else the file as it is. */
  resolve(
    file: ParsedFile,
    get: (uri: string) => ParsedFile | undefined,
    configured: readonly string[] | undefined,
    linker?: ArmLinker,
  ): ParsedFile {
    if (isParameterKind(file.kind)) return this.checkKeys(file, get, configured);
    if (!readsParameterFiles(file.kind)) return file;
    // A Bicep module other files call takes its params from them, not from a parameters file.
    if (file.iac?.calledBy) return file;
    if (!this.byFolder.has(folderOf(file.uri)) && !configured?.length) return file;
    const chosen = this.filesFor(file, get, configured);
    if (chosen.real.length === 0 && chosen.examples.length === 0) return file;
    const files = [...chosen.real, ...chosen.examples];
    const cached = this.cache.get(file.uri);
    if (
      cached &&
      cached.template === file &&
      cached.files.length === files.length &&
      cached.files.every((f, i) => f === files[i])
    )
      return cached.result;
    const result = this.readWith(file, chosen.real, chosen.examples, get, linker?.(file));
    this.cache.set(file.uri, { template: file, files, result });
    return result;
  }

  private parameterFile(file: ParsedFile): ParameterFile | undefined {
    if (this.read.has(file)) return this.read.get(file);
    const made = file.kind === 'bicep-params' ? readBicepParams(file.source) : readArmParameters(file.source, []);
    this.read.set(file, made);
    return made;
  }

  /** The parameters files that serve a template: real ones (configured, or by convention) and examples. */
  private filesFor(
    template: ParsedFile,
    get: (uri: string) => ParsedFile | undefined,
    configured: readonly string[] | undefined,
  ): { real: ParsedFile[]; examples: ParsedFile[] } {
    const stem = stemOf(template.uri);
    const candidates = [...(this.byFolder.get(folderOf(template.uri)) ?? [])]
      .sort()
      .flatMap((u) => (get(u) ? [get(u)!] : []));
    // A `.bicepparam` may sit in another folder than its template (`using '../main.bicep'`).
    for (const [folder, uris] of this.byFolder) {
      if (folder === folderOf(template.uri)) continue;
      for (const u of uris) {
        const f = get(u);
        if (f?.kind === 'bicep-params' && this.serves(f, template)) candidates.push(f);
      }
    }
    const named = (configured ?? []).map((c) => c.replace(/\\/g, '/').replace(/^\.\//, ''));
    const isConfigured = (f: ParsedFile) => named.some((c) => decodeURIComponent(f.uri).endsWith(`/${c}`));
    const servesTemplate = (f: ParsedFile) =>
      f.kind === 'bicep-params' ? this.serves(f, template) : folderOf(f.uri) === folderOf(template.uri);
    const configuredHere = candidates.filter((f) => isConfigured(f) && servesTemplate(f));
    if (configuredHere.length > 0) return { real: configuredHere, examples: [] };
    const name = (f: ParsedFile) => baseName(f.uri).toLowerCase();
    const real = candidates.filter((f) =>
      f.kind === 'arm-parameters'
        ? name(f) === `${stem}.parameters.json`
        : !isExample(name(f)) && this.serves(f, template),
    );
    const examples = candidates.filter((f) =>
      f.kind === 'arm-parameters'
        ? name(f) === `${stem}.parameters.example.json`
        : isExample(name(f)) && this.serves(f, template),
    );
    return { real, examples };
  }

  /** Whether a `.bicepparam`'s `using` names this template. */
  private serves(file: ParsedFile, template: ParsedFile): boolean {
    if (file.kind !== 'bicep-params') return false;
    const using = this.parameterFile(file)?.using;
    if (!using) return false;
    try {
      return new URL(using, file.uri).href === template.uri;
    } catch {
      return false;
    }
  }

  private readWith(
    template: ParsedFile,
    real: readonly ParsedFile[],
    examples: readonly ParsedFile[],
    get: (uri: string) => ParsedFile | undefined,
    links?: { uri: string; text: (uri: string) => SourceText | undefined },
  ): ParsedFile {
    const given = new Map<string, GivenParameter & { name: string }>();
    const add = (file: ParsedFile, fallback: boolean) => {
      for (const v of this.parameterFile(file)?.values ?? []) {
        const key = template.kind === 'arm-template' ? v.name.toLowerCase() : v.name;
        if (fallback && given.has(key)) continue;
        const where = `${baseName(file.uri)} line ${v.line}`;
        given.set(key, {
          name: v.name,
          value: v.value,
          from: fallback ? `the example file ${where} (nothing else sets it)` : where,
          ...(fallback ? { fallback } : {}),
        });
      }
    };
    for (const f of real) add(f, false);
    for (const f of examples) add(f, true);
    const names = real.map((f) => baseName(f.uri));
    const missingHint =
      names.length > 0
        ? `no default and ${names.join(', ')} does not set it`
        : `no default and no parameters file names it (only the example ${examples.map((f) => baseName(f.uri)).join(', ')})`;
    const problems: ParseProblem[] = [];
    let estate;
    if (template.kind === 'arm-template')
      estate = readArmJson(template.source, problems, 'arm', { parameters: given, missingHint, ...links });
    else {
      const params = new Map<string, Value>();
      const fallbacks = new Map<string, Value>();
      for (const [key, g] of given)
        (g.fallback ? fallbacks : params).set(
          key,
          isUnknown(g.value) ? bicepUnknown(g.value.reason) : bicepValueOf(g.value),
        );
      estate = readBicepModule(
        template.uri,
        template.source,
        (uri) => {
          const f = get(uri);
          return f?.kind === 'bicep' ? f.source : undefined;
        },
        { params, fallbacks, missingHint, problems },
      );
    }
    if (!estate) return template;
    // The evaluation's own findings are those of this reading; syntax and the rest stay the file's.
    const own = new Set([UNDECLARED_PARAMETER_CODE, EVALUATION_STOPPED_CODE]);
    const kept = template.problems.filter((p) => !own.has(p.code));
    return withEstate(template, estate, [...kept, ...problems.filter((p) => own.has(p.code))]);
  }

  /** A parameters file's keys its template does not declare (ANF421), when its template is in the workspace. */
  private checkKeys(
    file: ParsedFile,
    get: (uri: string) => ParsedFile | undefined,
    configured: readonly string[] | undefined,
  ): ParsedFile {
    const values = this.parameterFile(file)?.values ?? [];
    if (values.length === 0) return file;
    const template = this.templateOf(file, get, configured);
    if (!template) return file;
    const declared = declaredParameters(template);
    if (!declared) return file;
    const arm = template.kind === 'arm-template';
    const problems = values
      .filter((v) => !(arm ? declared.has(v.name.toLowerCase()) : declared.has(v.name)))
      .map((v) => ({
        code: UNDECLARED_PARAMETER_CODE,
        span: v.keySpan,
        message: `\`${v.name}\` is not a parameter of ${baseName(template.uri)}: Azure rejects the deployment. Remove it here or declare it in the template${arm ? '' : ' (`param ' + v.name + ' ...`)'}.`,
      }));
    return problems.length > 0 ? { ...file, problems: [...file.problems, ...problems] } : file;
  }

  private templateOf(
    file: ParsedFile,
    get: (uri: string) => ParsedFile | undefined,
    configured: readonly string[] | undefined,
  ): ParsedFile | undefined {
    if (file.kind === 'bicep-params') {
      const using = this.parameterFile(file)?.using;
      const uri = using ? (bicepModuleUri(file.uri, using) ?? safeUrl(using, file.uri)) : undefined;
      return uri ? get(uri) : undefined;
    }
    const name = baseName(file.uri);
    const stem = /^(.*?)\.parameters(?:\.example)?\.json$/i.exec(name)?.[1];
    const folder = folderOf(file.uri);
    if (stem)
      for (const ext of ['.json', '.bicep']) {
        const t = get(`${folder}${encodeURIComponent(stem)}${ext}`) ?? get(`${folder}${stem}${ext}`);
        if (t && (t.kind === 'arm-template' || t.kind === 'bicep')) return t;
      }
    // A configured file serves the one template of its folder.
    if (configured?.length) return undefined;
    return undefined;
  }
}

function declaredParameters(template: ParsedFile): ReadonlySet<string> | undefined {
  if (template.kind === 'bicep') return bicepDeclaredParams(template.source);
  const root = parseTree(template.source.text, [], { allowTrailingComma: true });
  const params = root ? findNodeAtLocation(root, ['parameters']) : undefined;
  if (!params || params.type !== 'object') return new Set();
  return new Set(
    (params.children ?? []).flatMap((p) =>
      typeof p.children?.[0]?.value === 'string' ? [p.children[0].value.toLowerCase()] : [],
    ),
  );
}

function safeUrl(path: string, base: string): string | undefined {
  try {
    return new URL(path, base).href;
  } catch {
    return undefined;
  }
}

export function isParameterKind(kind: string): boolean {
  return kind === 'arm-parameters' || kind === 'bicep-params';
}

/** Whether `ParameterFiles.resolve` reads a file of this kind with the configured parameters files (else it is given back as it is). */
export function readsParameterFiles(kind: string): boolean {
  return isParameterKind(kind) || kind === 'arm-template' || kind === 'bicep';
}

function isExample(name: string): boolean {
  return /\.example\.(?:bicepparam|json)$/i.test(name) || /\.parameters\.example\.json$/i.test(name);
}

function folderOf(uri: string): string {
  return uri.slice(0, uri.lastIndexOf('/') + 1);
}

/** `azuredeploy` of `.../azuredeploy.json`, `main` of `main.bicep`. */
function stemOf(uri: string): string {
  return baseName(uri)
    .toLowerCase()
    .replace(/\.(?:json|bicep)$/, '');
}
