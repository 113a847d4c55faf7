import type { Span } from '../text/sourceText';
import type { IacEstate, IacValue } from './estate';

/** Field names as people read them in hovers, per estate key. */
const LABELS: Record<string, string> = {
  serviceLevel: 'service level',
  size: 'pool size',
  qos: 'QoS type',
  customThroughputMiBps: 'pool throughput',
  coolAccess: 'cool access',
  quota: 'quota',
  protocols: 'protocols',
  throughputMiBps: 'assigned throughput',
  largeVolume: 'large volume',
  networkFeatures: 'network features',
  zones: 'zones',
  kerberos: 'Kerberos',
  creationToken: 'export path',
  name: 'name',
};

/**
 * Hover on a value anf-lint could not evaluate (a variable without a default here, a function, a
 * module output): it says so, and that no finding or figure uses a guess for it.
 */
export function unknownValueHover(estate: IacEstate, offset: number): { markdown: string; span: Span } | undefined {
  for (const resource of [...estate.pools, ...estate.volumes]) {
    if (offset < resource.span.start || offset > resource.span.end) continue;
    for (const [key, value] of Object.entries(resource)) {
      const v = value as IacValue<unknown> | undefined;
      if (!v || typeof v !== 'object' || !('raw' in v) || !('span' in v) || v.value !== undefined) continue;
      if (offset < v.span.start || offset > v.span.end) continue;
      const what = LABELS[key] ?? key;
      return {
        markdown: `**${what}: unknown**\n\nanf-lint cannot evaluate \`${v.raw.length > 60 ? `${v.raw.slice(0, 60)}…` : v.raw}\` from this file (it reads literals, arithmetic, \`var\`/\`param\` defaults in the same file, \`locals\`, \`parameters()\`/\`variables()\` and references to resources here). Findings and figures that need the ${what} are left out rather than guessed.`, // not a fact: hover length
        span: v.span,
      };
    }
  }
  return undefined;
}
