import type { ParsedFile } from '../../workspace/parsedFile';
import type { IacEstate, IacPool, IacVolume } from '../estate';
import { poolOfVolume } from '../estate';

/** Shared shapes for the ANF4xx rules: they read `file.iac`, the estate as the code writes it. */
export function isIac(file: ParsedFile): boolean {
  return file.iac !== undefined;
}

export function estateOf(file: ParsedFile): IacEstate | undefined {
  return file.iac;
}

export function* volumesWithPools(estate: IacEstate): Generator<{ volume: IacVolume; pool: IacPool | undefined }> {
  for (const volume of estate.volumes) yield { volume, pool: poolOfVolume(estate, volume) };
}

/** `volume \`x\`` for messages. */
export function label(kind: string, resource: { name?: { value?: string }; symbol: string }): string {
  return `${kind} \`${resource.name?.value ?? resource.symbol}\``;
}

export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

