import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lintAll, placementProblems } from '../robustness/check';

/**
 * Infrastructure code as people type it: example files with random slices deleted, duplicated or
 * replaced by hostile text. Reading and linting never throws (no ANF002), and every finding and
 * fix points inside its document.
 */
const EXAMPLES = join(__dirname, '..', '..', 'examples');
const SOURCES = [
  ['main.tf', readFileSync(join(EXAMPLES, 'sap-hana/terraform/main.tf'), 'utf8')],
  ['main.bicep', readFileSync(join(EXAMPLES, 'sap-hana/bicep/main.bicep'), 'utf8')],
  ['azuredeploy.json', readFileSync(join(__dirname, '..', 'fixtures/rules/ANF406-decimal-byte-arithmetic/arm/azuredeploy.json'), 'utf8')],
  ['volumes.json', readFileSync(join(__dirname, '..', 'fixtures/rules/ANF403-export-root-open/az/volumes.json'), 'utf8')],
] as const;
const HOSTILE = ['{', '}', '"', "'", '${', '[', ']', '=', ':', '\n', '# anf: workload=', '1000 * 1000', 'var.', 'parent: ', '\u{1F600}', '\0', '[parameters(\'x\')]'];

const edit = fc.record({ at: fc.nat(), length: fc.nat({ max: 80 }), insert: fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 20 })) });

describe('half-typed and mangled infrastructure code', () => {
  it.each(SOURCES)('%s', (name, original) => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
        let text: string = original;
        for (const e of edits) {
          const at = e.at % (text.length + 1);
          text = text.slice(0, at) + e.insert + text.slice(at + e.length);
        }
        const uri = `file:///repo/${name}`;
        const { workspace, diagnostics } = lintAll([{ uri, text }]);
        const found = diagnostics.get(uri)!;
        expect(found.map((d) => d.code)).not.toContain('ANF002');
        expect(placementProblems(workspace, found)).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});
