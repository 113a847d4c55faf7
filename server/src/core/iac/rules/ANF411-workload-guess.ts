import { unsafeFix } from '../../diagnostics';
import type { WorkloadKind } from '../../facts';
import { defineRule } from '../../rules/rule';
import type { IacValue } from '../estate';
import { isIac, label, capitalized } from './helpers';

export const workloadGuess = defineRule({
  code: 'ANF411',
  name: 'workload-guess',
  domain: 'iac',
  defaultSeverity: 'hint',
  fixes: ['unsafe'],
  doc: {
    title: 'A volume whose name loosely suggests a workload anf-lint does not assume',
    what: "A Terraform, Bicep or ARM volume with no workload (no `anf: workload` annotation, no `workload` tag, no strong naming convention such as SAP's `HN1-data-mnt00001`) whose name or export path holds a word that loosely suggests one: `tools` or `license` (EDA tools), `scratch` or `sim` (EDA scratch or HPC), `eda`, `hpc`, `hana` without `data`/`log`/`shared`, `sapmnt`, `oracle`, `db`, `vdi`. The word list is anf-lint's own judgement. The hint never sets the workload: it says what anf-lint does not assume, and how to tell it.",
    why: "Workload-aware checks (the NFS version SAP HANA needs, EDA's mount options, the HANA storage KPI) run only for volumes whose workload is known. A guess from a word like `tools` would be wrong often enough to raise false alarms, so anf-lint asks instead.",
    instead:
      'Write `# anf: workload=<kind>` (`// anf:` in Bicep) above the resource, or give it a `workload` tag; `workload=general` says it is none of these and silences the hint. The fix writes the annotation when the word suggests one workload.',
    examples: [
      {
        flagged:
          'resource "azurerm_netapp_volume" "tools" {\n  name        = "cad-tools"\n  volume_path = "cad-tools"\n}',
        better:
          '# anf: workload=eda-tools\nresource "azurerm_netapp_volume" "tools" {\n  name        = "cad-tools"\n  volume_path = "cad-tools"\n}',
        language: 'hcl',
      },
    ],
    sources: ['SEED_MOUNT', 'HANA'],
  },
  appliesTo: isIac,
  checkIacVolume(volume, context, estate) {
    const source = context.file.source;
    if (volume.workload) return;
    const candidates: [IacValue<string> | undefined, string][] = [
      [volume.name, 'name'],
      [volume.creationToken, 'export path'],
    ];
    for (const [value, what] of candidates) {
      const guess = weakWorkloadGuess(value?.value);
      if (!value || !guess) continue;
      const kinds = guess.kinds
        .map((k) => `\`${k}\``)
        .join(guess.kinds.length > 2 ? ', ' : ' or ')
        .replace(/, ([^,]*)$/, ' or $1');
      const comment = estate.language === 'bicep' ? '//' : estate.language === 'terraform' ? '#' : undefined;
      const how = comment
        ? `write \`${comment} anf: workload=<kind>\` above ${volume.moduleEntry ? 'its entry in `volumes`' : 'the resource'} or give it a \`workload\` tag`
        : 'give the resource a `workload` tag';
      const line = source.positionAt(volume.headSpan.start).line;
      const indent = /^\s*/.exec(source.lineText(line))![0];
      const at = source.lineStart(line);
      context.report({
        span: value.span,
        message: `${capitalized(label('volume', volume))} may serve ${kinds} (a guess from the word \`${guess.word}\` in its ${what}); anf-lint does not assume a workload from it, so workload checks do not run for this volume. If it does, ${how}; \`workload=general\` says it is none of these.`,
        ...(comment && guess.kinds.length === 1
          ? {
              fixes: [
                unsafeFix(`Annotate the volume as \`${guess.kinds[0]}\``, [
                  { span: { start: at, end: at }, newText: `${indent}${comment} anf: workload=${guess.kinds[0]}\n` },
                ]),
              ],
            }
          : {}),
      });
      break;
    }
  },
});

/**
 * Words in a volume's name or export path that only loosely suggest a workload: anf-lint's own
 * judgement, never used as the workload (the strong conventions are in estate.ts).
 */
const WEAK_WORDS: readonly { readonly words: readonly string[]; readonly kinds: readonly WorkloadKind[] }[] = [
  { words: ['tools', 'tool', 'cad', 'flexlm', 'license', 'licenses'], kinds: ['eda-tools'] },
  { words: ['scratch', 'sim', 'sims', 'regress', 'regression'], kinds: ['eda-scratch', 'hpc'] },
  { words: ['eda'], kinds: ['eda-tools', 'eda-scratch'] },
  { words: ['hpc', 'cluster', 'lustre'], kinds: ['hpc'] },
  { words: ['hana'], kinds: ['sap-hana-data', 'sap-hana-log', 'sap-hana-shared'] },
  { words: ['sapmnt', 'usrsap', 'saptrans', 'sap'], kinds: ['sap-netweaver'] },
  { words: ['ora', 'oracle', 'oradata', 'oralog'], kinds: ['oracle'] },
  { words: ['db', 'database', 'sql', 'postgres', 'pg', 'mysql'], kinds: ['database'] },
  { words: ['vdi', 'fslogix', 'profiles'], kinds: ['vdi'] },
];

/** The workloads a name or path loosely suggests, with the word that suggests them. */
export function weakWorkloadGuess(
  text: string | undefined,
): { word: string; kinds: readonly WorkloadKind[] } | undefined {
  if (!text) return undefined;
  const tokens = text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  for (const entry of WEAK_WORDS) {
    const word = tokens.find((t) => entry.words.includes(t));
    if (word) return { word, kinds: entry.kinds };
  }
  return undefined;
}
