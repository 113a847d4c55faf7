import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import Ajv from 'ajv';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { manifestSchema } from '../../server/src/core/manifest/model';
import { manifestJsonSchema } from '../../server/src/core/manifest/schema';

/**
 * The JSON Schema is what editors (yaml-language-server, VS Code's JSON support) validate with.
 * It must agree with the zod model anf-lint itself uses: same verdict on every manifest we have.
 */
const ROOT = join(__dirname, '..', '..');

function manifests(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === 'fixed' ? [] : manifests(path);
    return /\.anf\.(ya?ml|json)$/.test(entry) ? [path] : [];
  });
}

describe('schemas/anf-manifest.schema.json', () => {
  const validate = new Ajv({ allErrors: true, strict: false }).compile(manifestJsonSchema());
  const files = [...manifests(join(ROOT, 'examples')), ...manifests(join(ROOT, 'test', 'fixtures', 'rules'))];

  it('finds the manifests to compare', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files.map((f) => [relative(ROOT, f), f] as const))('agrees with the zod model on %s', (_name, path) => {
    let data: unknown;
    try {
      data = parseYaml(readFileSync(path, 'utf8'), { merge: true });
    } catch {
      return; // syntax-error fixtures: neither validator sees them
    }
    const zod = manifestSchema.safeParse(data).success;
    const json = validate(data);
    expect(json, JSON.stringify(validate.errors?.slice(0, 3))).toBe(zod);
  });

  it('accepts the examples and rejects a size without a unit', () => {
    const ok = parseYaml(readFileSync(join(ROOT, 'examples', 'eda', 'eda.anf.yaml'), 'utf8'));
    expect(validate(ok)).toBe(true);
    const bad = { accounts: [{ name: 'a', pools: [{ name: 'p', serviceLevel: 'Premium', size: '4' }] }] };
    expect(validate(bad)).toBe(false);
    expect(validate.errors?.[0]?.instancePath).toBe('/accounts/0/pools/0/size');
  });

  it('documents every property with a description', () => {
    const missing: string[] = [];
    const visit = (node: unknown, path: string): void => {
      if (!node || typeof node !== 'object') return;
      const record = node as Record<string, unknown>;
      const properties = record.properties as Record<string, Record<string, unknown>> | undefined;
      for (const [key, value] of Object.entries(properties ?? {})) {
        const described =
          value.description ?? (value.anyOf as Record<string, unknown>[] | undefined)?.some((o) => o.description);
        if (!described) missing.push(`${path}.${key}`);
        visit(value, `${path}.${key}`);
      }
      if (record.items) visit(record.items, `${path}[]`);
      for (const option of (record.anyOf as unknown[] | undefined) ?? []) visit(option, path);
    };
    visit(manifestJsonSchema(), '');
    expect(missing).toEqual([]);
  });
});
