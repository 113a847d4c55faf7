import type { SourceText } from '../text/sourceText';
import type { FileKind } from '../fileKind';
import type { ParseProblem } from '../diagnostics';
import { readArmJson } from './arm';
import { readBicep } from './bicep';
import { toManifest, type EstateModel, type IacEstate } from './estate';
import { checkTfvars, readTerraform } from './terraform';
import { grammarOf, hasKeptTree } from './treeSitter';

export const IAC_KINDS: ReadonlySet<FileKind> = new Set(['terraform', 'terraform-vars', 'bicep', 'arm-template', 'az-netappfiles-json']);

export interface IacRead extends Partial<EstateModel> {
  readonly estate?: IacEstate;
  readonly problems: ParseProblem[];
}

/**
 * Reads one infrastructure-code document into the estate model. Never throws on bad input.
 * `edited`: an editor has the document open (it will change): its tree and what its blocks read
 * are kept by URI, so its next version is read incrementally (treeSitter.ts, reuse.ts).
 */
export function readIac(source: SourceText, uri: string, kind: FileKind, edited = false): IacRead {
  const problems: ParseProblem[] = [];
  let estate: IacEstate | undefined;
  const grammar = grammarOf(kind);
  const key = grammar && (edited || hasKeptTree(grammar, uri)) ? uri : undefined;
  if (kind === 'terraform') estate = readTerraform(source, problems, key);
  else if (kind === 'terraform-vars') checkTfvars(source, problems);
  else if (kind === 'bicep') estate = readBicep(source, problems, key);
  else estate = readArmJson(source, problems, kind === 'arm-template' ? 'arm' : 'az-cli');
  if (!estate || (estate.accounts.length === 0 && estate.pools.length === 0 && estate.volumes.length === 0)) return { problems, ...(estate ? { estate } : {}) };
  const syntaxErrors = problems.some((p) => p.code === 'ANF400');
  return { estate, problems, ...toManifest(estate, uri, syntaxErrors) };
}
