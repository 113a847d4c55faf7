import { ALL_RULES, ruleByCode } from '../../core';
import { renderRuleDoc } from '../../core/rules/ruleDoc';
import { colorsEnabled, createColors } from '../color';
import { EXIT, UsageError, type CliIo } from '../io';
import { parseOrUsage, table } from './shared';
import { closest, distance } from 'fastest-levenshtein';

/** `anf-lint rules`: every rule with code, default severity, the applicabilities of its fixes, and title. */
export async function runRules(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseOrUsage(args, { format: { type: 'string', short: 'f' } }, false);
  if (values.help) {
    io.stdout.write(
      'Usage: anf-lint rules [--format text|json]\n\nLists every rule: code, default severity, fixes (safe, unsafe, safe,unsafe or no) and title.\nA safe fix is applied by --fix; an unsafe one only with --unsafe-fixes.\n',
    );
    return EXIT.ok;
  }
  const format = values.format ?? 'text';
  if (format === 'json') {
    const rules = ALL_RULES.map((r) => ({
      code: r.code,
      name: r.name,
      domain: r.domain,
      defaultSeverity: r.defaultSeverity,
      fixable: r.fixes.length > 0,
      fixes: r.fixes,
      title: r.doc.title,
    }));
    io.stdout.write(`${JSON.stringify(rules, null, 2)}\n`);
    return EXIT.ok;
  }
  if (format !== 'text')
    throw new UsageError(`--format: "${format}" is not a format of anf-lint rules; use text or json`);
  const colors = createColors(colorsEnabled(io.stdout, io.env));
  const rows = ALL_RULES.map((r) => [
    r.code,
    r.defaultSeverity,
    r.fixes.length === 0 ? 'no' : r.fixes.join(','),
    r.doc.title,
  ]);
  io.stdout.write(table(['Code', 'Severity', 'Fixable', 'Title'], rows, colors));
  return EXIT.ok;
}

/** `anf-lint explain CODE`: the rule's page, the same text as docs/rules/CODE.md. */
export async function runExplain(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOrUsage(args, {}, true);
  if (values.help || positionals.length === 0) {
    if (!values.help) throw new UsageError('explain: name a rule code, e.g. anf-lint explain ANF204');
    io.stdout.write(
      "Usage: anf-lint explain CODE\n\nPrints a rule's page: what it checks, why, and what to write instead.\n",
    );
    return EXIT.ok;
  }
  for (const code of positionals) {
    const rule = ruleByCode(code) ?? ALL_RULES.find((r) => r.name === code.toLowerCase());
    if (!rule) {
      const codes = ALL_RULES.map((r) => r.code);
      const near = codes.length > 0 ? closest(code.toUpperCase(), codes) : undefined;
      const hint = near && distance(code.toUpperCase(), near) <= 2 ? `; did you mean ${near}?` : '';
      throw new UsageError(`explain: anf-lint has no rule "${code}"${hint} (anf-lint rules lists them)`);
    }
  }
  io.stdout.write(
    positionals
      .map((code) => renderRuleDoc(ruleByCode(code) ?? ALL_RULES.find((r) => r.name === code.toLowerCase())!))
      .join('\n'),
  );
  return EXIT.ok;
}
