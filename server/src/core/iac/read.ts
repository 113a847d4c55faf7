import type { SourceText } from '../text/sourceText';
import { type FileKind, kindsReading } from '../fileKind';
import type { ParseProblem } from '../diagnostics';
import { readArmJson } from './arm';
import { readBicep } from './bicep';
import { readArmParameters } from './parameters';
import { toManifest, withHanaSharedBySid, type ElsewhereVolume, type EstateModel, type IacEstate } from './estate';
import { checkTfvars, readTerraform } from './terraform';
import { grammarOf, hasKeptTree } from './treeSitter';
import { IAC_SYNTAX_CODE } from './common';

export const IAC_KINDS = kindsReading('estate');

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
  if (kind === 'terraform') estate = readTerraform(source, problems, uri, key !== undefined);
  else if (kind === 'terraform-vars') checkTfvars(source, problems, uri);
  else if (kind === 'bicep') estate = readBicep(source, problems, key);
  // Parameter files give their template values (workspace/parameterFiles.ts); alone, only their syntax is checked.
  else if (kind === 'arm-parameters') readArmParameters(source, problems);
  else if (kind === 'bicep-params') return { problems };
  else estate = readArmJson(source, problems, kind === 'arm-template' ? 'arm' : 'az-cli');
  if (!estate) return { problems };
  return {
    problems,
    ...estateRead(
      estate,
      uri,
      problems.some((p) => p.code === IAC_SYNTAX_CODE),
    ),
  };
}

/**
 * A file's estate read again with what other files say (modules, linked templates, parameters): its
 * syntax errors are still those the file alone had.
 */
export function estateReadAgain(
  estate: IacEstate,
  file: {
    readonly uri: string;
    readonly manifest?: { readonly syntaxErrors: boolean };
    readonly problems: readonly { readonly code: string }[];
  },
  elsewhere?: ReadonlyMap<string, readonly ElsewhereVolume[]>,
): { estate: IacEstate } & Partial<EstateModel> {
  const syntaxErrors = file.manifest?.syntaxErrors ?? file.problems.some((p) => p.code === IAC_SYNTAX_CODE);
  return estateRead(estate, file.uri, syntaxErrors, elsewhere);
}

/**
 * An estate and, when it holds any resource, its manifest model. Every reading ends here (a file
 * alone, with its modules, linked templates or parameters), so the workloads that depend on the
 * estate's other volumes (a lower-case `hn1-shared` beside `hn1-data-mnt00001`) are set here.
 */
export function estateRead(
  read: IacEstate,
  uri: string,
  syntaxErrors: boolean,
  elsewhere?: ReadonlyMap<string, readonly ElsewhereVolume[]>,
): { estate: IacEstate } & Partial<EstateModel> {
  const estate = withHanaSharedBySid(read);
  if (estate.accounts.length === 0 && estate.pools.length === 0 && estate.volumes.length === 0) return { estate };
  return { estate, ...toManifest(estate, uri, syntaxErrors, elsewhere) };
}
