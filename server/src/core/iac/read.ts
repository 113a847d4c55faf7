import type { SourceText } from '../text/sourceText';
import type { FileKind } from '../fileKind';
import type { ParseProblem } from '../diagnostics';
import { readArmJson } from './arm';
import { readBicep } from './bicep';
import { toManifest, type EstateModel, type IacEstate } from './estate';
import { checkTfvars, readTerraform } from './terraform';

export const IAC_KINDS: ReadonlySet<FileKind> = new Set(['terraform', 'terraform-vars', 'bicep', 'arm-template', 'az-netappfiles-json']);

export interface IacRead extends Partial<EstateModel> {
  readonly estate?: IacEstate;
  readonly problems: ParseProblem[];
}

/** Reads one infrastructure-code document into the estate model. Never throws on bad input. */
export function readIac(source: SourceText, uri: string, kind: FileKind): IacRead {
  const problems: ParseProblem[] = [];
  let estate: IacEstate | undefined;
  // The document's tree is kept by URI: its next version parses incrementally (treeSitter.ts).
  if (kind === 'terraform') estate = readTerraform(source, problems, uri);
  else if (kind === 'terraform-vars') checkTfvars(source, problems);
  else if (kind === 'bicep') estate = readBicep(source, problems, uri);
  else estate = readArmJson(source, problems, kind === 'arm-template' ? 'arm' : 'az-cli');
  if (!estate || (estate.accounts.length === 0 && estate.pools.length === 0 && estate.volumes.length === 0)) return { problems, ...(estate ? { estate } : {}) };
  const syntaxErrors = problems.some((p) => p.code === 'ANF400');
  return { estate, problems, ...toManifest(estate, uri, syntaxErrors) };
}
