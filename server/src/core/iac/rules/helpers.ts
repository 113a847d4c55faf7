import type { ParsedFile } from '../../workspace/parsedFile';
import type { IacEstate } from '../estate';

/** Shared shapes for the ANF4xx rules: they read `file.iac`, the estate as the code writes it. */
export function isIac(file: ParsedFile): boolean {
  return file.iac !== undefined;
}

export function estateOf(file: ParsedFile): IacEstate | undefined {
  return file.iac;
}

/** `volume \`x\`` for messages. */
export function label(kind: string, resource: { name?: { value?: string }; symbol: string }): string {
  return `${kind} \`${resource.name?.value ?? resource.symbol}\``;
}

export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Whether the file hands resources to, or takes them from, code anf-lint may not have read: Terraform
 * `module` calls or a module other files call, Bicep `module` declarations or `existing` resources, ARM
 * nested deployments. Rules that say something is missing ("no volume", "no such pool") stay silent then.
 */
export function reachesOtherCode(file: ParsedFile): boolean {
  const estate = file.iac;
  if (!estate) return true;
  if ((estate.calls?.length ?? 0) > 0 || (estate.calledBy?.length ?? 0) > 0) return true;
  const text = file.source.text;
  if (estate.language === 'bicep') return /^\s*module\s/m.test(text) || /\bexisting\s*=/.test(text);
  if (estate.language === 'arm') return /Microsoft\.Resources\/deployments/i.test(text);
  return false;
}

/** ARM resource names compare without regard to case. */
export function sameResourceName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
