import { SOURCES } from '../facts';
import type { FixApplicability } from '../diagnostics';
import type { Rule } from './shapes';

const SEVERITY_WORD = { error: 'Error', warning: 'Warning', info: 'Information', hint: 'Hint' } as const;
const FIX_WORD: Readonly<Record<FixApplicability, string>> = {
  safe: 'safe (applied by `--fix` and fix-all)',
  unsafe: 'unsafe (applied on request: `--unsafe-fixes`, or the quick-fix menu)',
};

/** The page's "Fix" cell: No, or which applicabilities the rule's fixes have (some findings get one, some the other). */
export function fixWords(fixes: readonly FixApplicability[]): string {
  if (fixes.length === 0) return 'No';
  return `Yes: ${fixes.map((a) => FIX_WORD[a]).join(', or ')}${fixes.length > 1 ? ', depending on the finding' : ''}`;
}

/**
 * A rule's page, rendered from its declaration so that the page, `anf-lint explain` and the
 * editor's link can never disagree. docs/rules/<CODE>.md is this text (test/unit/generated.test.ts).
 */
export function renderRuleDoc(rule: Rule): string {
  const { doc } = rule;
  const lines = [
    `# ${rule.code}: ${doc.title}`,
    '',
    `| | |`,
    `|---|---|`,
    `| Code | \`${rule.code}\` (\`${rule.name}\`) |`,
    `| Applies to | ${rule.domain} |`,
    `| Default severity | ${SEVERITY_WORD[rule.defaultSeverity]} |`,
    `| Fix | ${fixWords(rule.fixes)} |`,
    '',
    '## What it does',
    '',
    doc.what,
    '',
    '## Why it matters',
    '',
    doc.why,
    '',
    '## What to do instead',
    '',
    doc.instead,
  ];
  for (const [index, example] of (doc.examples ?? []).entries()) {
    lines.push('', `## Example${(doc.examples?.length ?? 0) > 1 ? ` ${index + 1}` : ''}`);
    for (const context of example.context ?? [])
      lines.push('', `With \`${context.path}\`:`, '', `\`\`\`${fenceLanguageOf(context.path)}`, context.text, '```');
    const where = example.file ? ` (\`${example.file}\`)` : '';
    const fenced = (label: string, text: string) => [
      '',
      `${label}${where}:`,
      '',
      `\`\`\`${example.language ?? ''}`,
      text,
      '```',
    ];
    lines.push(...fenced('Flagged', example.flagged), ...fenced('Better', example.better));
  }
  if (doc.sources && doc.sources.length > 0) {
    lines.push('', '## Sources', '');
    for (const key of doc.sources) {
      const source = SOURCES[key];
      lines.push(`- [${source.title}](${source.url}) (${source.date})`);
    }
  }
  lines.push(
    '',
    '## Configuration',
    '',
    'Change the severity or turn the rule off in `.anf-lint.yaml`:',
    '',
    '```yaml',
    'rules:',
    `  ${rule.code}: off   # or: hint, info, warning, error`,
    '```',
    '',
    'Or silence one place, with a reason:',
    '',
    '```',
    `# anf-lint disable-next-line ${rule.code} -- why this is fine here`,
    '```',
    '',
  );
  return lines.join('\n');
}

/** The code fence language of an example's context file, from its name. */
function fenceLanguageOf(path: string): string {
  if (/\.ya?ml$/.test(path)) return 'yaml';
  if (path.endsWith('.json')) return 'json';
  if (path.endsWith('.tf')) return 'hcl';
  if (path.endsWith('.bicep')) return 'bicep';
  if (path.endsWith('.sh')) return 'sh';
  if (/(?:^|\/)fstab$/.test(path)) return 'fstab';
  if (path.endsWith('.conf')) return 'ini';
  return '';
}

/** docs/rules/README.md: the index of every rule. */
export function renderRuleIndex(rules: readonly Rule[]): string {
  const lines = [
    '# Rules',
    '',
    'Every rule anf-lint checks. Each page says what the rule does, why, and what to write instead.',
    '',
    '| Code | Title | Applies to | Default | Fix |',
    '|---|---|---|---|---|',
  ];
  for (const rule of rules) {
    lines.push(
      `| [${rule.code}](${rule.code}.md) | ${rule.doc.title} | ${rule.domain} | ${rule.defaultSeverity} | ${rule.fixes.join(', ')} |`,
    );
  }
  lines.push('');
  return lines.join('\n');
}
