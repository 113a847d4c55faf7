import type { ParseProblem } from '../diagnostics';
import { linkedTemplateUri, readArmJson } from '../iac/arm';
import type { SourceText } from '../text/sourceText';
import type { ParsedFile } from './parsedFile';
import { readAloneAfter, withEstate } from './reread';

/**
 * ARM nested deployments whose `templateLink` names a file of the repository (`relativePath`, or
 * `uri(deployment().properties.templateLink.uri, 'nested/x.json')`): the linking template is read
 * again with the linked files' text (iac/arm.ts `linked`), their resources its deployment's
 * instances; a linked template is marked as called (`calledBy`) so the inventory and the volume
 * list do not hold its resources twice (as Bicep modules, terraformModules.ts).
 */
export class ArmLinks {
  /** The linked templates (URIs) each template's deployments name. */
  private readonly links = new Map<string, readonly string[]>();
  private readonly cache = new Map<string, { file: ParsedFile; used: readonly ParsedFile[]; result: ParsedFile }>();

  /** Call for every file added, replaced or removed; true when links changed (the linking templates' volumes may change). */
  changed(uri: string, file: ParsedFile | undefined): boolean {
    const before = this.links.get(uri) ?? [];
    const after = file?.kind === 'arm-template' ? armLocalLinks(file) : [];
    const linked = [...this.links.values()].some((called) => called.includes(uri));
    if (after.length > 0) this.links.set(uri, after);
    else this.links.delete(uri);
    if (before.length > 0 || after.length > 0 || linked) {
      this.cache.clear();
      return true;
    }
    return false;
  }

  /** Whether any template links another. */
  get active(): boolean {
    return this.links.size > 0;
  }

  /** The templates that link to `uri`. */
  callersOf(uri: string): string[] {
    return [...this.links]
      .filter(([other, called]) => other !== uri && called.includes(uri))
      .map(([other]) => other)
      .sort();
  }

  /** The file read with its linked templates, or marked as linked; else the same object. */
  resolve(file: ParsedFile, get: (uri: string) => ParsedFile | undefined): ParsedFile {
    if (file.kind !== 'arm-template' || !file.iac || this.links.size === 0) return file;
    const links = this.links.get(file.uri) ?? [];
    const callers = this.callersOf(file.uri);
    if (links.length === 0 && callers.length === 0) return file;
    const cached = this.cache.get(file.uri);
    if (cached && cached.file === file && cached.used.every((u) => get(u.uri) === u)) return cached.result;
    const used: ParsedFile[] = [];
    const text = (uri: string): SourceText | undefined => {
      const f = get(uri);
      if (f?.kind !== 'arm-template') return undefined;
      used.push(f);
      return f.source;
    };
    let result = links.length > 0 ? readLinked(file, text) : file;
    // A linked template: its parameters are set by each linking deployment; its volumes are those deployments' instances.
    if (callers.length > 0 && result.iac)
      result = { ...result, iac: { ...result.iac, calledBy: callers }, volumes: [] };
    this.cache.set(file.uri, { file, used, result });
    return result;
  }

  /** The reading options that follow links, for another reader of the template (parameterFiles.ts). */
  linker(
    file: ParsedFile,
    get: (uri: string) => ParsedFile | undefined,
  ): { uri: string; text: (uri: string) => SourceText | undefined } | undefined {
    if (!this.links.has(file.uri)) return undefined;
    return {
      uri: file.uri,
      text: (uri) => {
        const f = get(uri);
        return f?.kind === 'arm-template' ? f.source : undefined;
      },
    };
  }
}

/** A template read with its linked templates; a reader that throws leaves it as read alone, and says so (ANF003). */
function readLinked(file: ParsedFile, text: (uri: string) => SourceText | undefined): ParsedFile {
  try {
    const problems: ParseProblem[] = [];
    const estate = readArmJson(file.source, problems, 'arm', { uri: file.uri, text });
    return withEstate(file, estate);
  } catch (error) {
    return readAloneAfter(
      file,
      "anf-lint's reader of linked ARM templates failed on this file, so it was checked alone (the resources of its linked templates unknown)",
      error,
    );
  }
}

/** The files of the repository a template's deployments link (`templateLink` read as a local path). */
export function armLocalLinks(file: ParsedFile): string[] {
  const calls = file.iac?.calls ?? [];
  return [
    ...new Set(
      calls.flatMap((c) =>
        c.local && c.source !== undefined
          ? [linkedTemplateUri(file.uri, c.source)].filter((u): u is string => u !== undefined)
          : [],
      ),
    ),
  ].sort();
}
