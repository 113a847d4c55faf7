import { describe, expect, it } from 'vitest';
import { parseFile } from '../../server/src/core';

/**
 * The command and Trident readers on broken and random text: never a throw (ANF003), never a hang,
 * and every span inside the text.
 */
const PIECES = [
  'az netappfiles volume create ',
  'az netappfiles pool update ',
  '--size ',
  '--usage-threshold=',
  '-p ',
  '"$X" ',
  "'q' ",
  '${A:-',
  '$((',
  '))',
  '$(',
  ')',
  '`',
  '\\\n',
  '\n',
  ';',
  '|',
  '&&',
  '#',
  '<<EOF\n',
  'EOF\n',
  'New-AzNetAppFilesVolume ',
  'Update-AzNetAppFilesPool ',
  '-PoolSize ',
  '4TB ',
  '@{ ',
  '}',
  '@(',
  '$p = ',
  '@params ',
  '`\n',
  '<#',
  '#>',
  '"$(x)"',
  "@'\n",
  "\n'@",
  '-Name:',
  '$true',
  '[long]',
  '* 1GB',
  'storageDriverName: azure-netapp-files\n',
  'kind: PersistentVolumeClaim\n',
  'kind: StorageClass\n',
  'provisioner: csi.trident.netapp.io\n',
  '---\n',
  '  storage: 1Ti\n',
  'storageClassName: x\n',
  '```bash\n',
  '```\n',
  '```powershell\n',
  '```yaml\n',
  'steps:\n',
  '  - run: |\n',
  '      ',
];

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0; // not a fact: a linear congruential generator
    return s / 2 ** 32;
  };
}

describe('estate command readers on random text', () => {
  for (const path of ['x.sh', 'x.ps1', 'README.md', '.github/workflows/x.yml', 'k8s/x.yaml', 'backend.json']) {
    it(`never throw and keep spans inside the text: ${path}`, () => {
      const next = random(path.length * 7919);
      for (let round = 0; round < 150; round++) {
        let text = '';
        const n = 5 + Math.floor(next() * 40);
        for (let i = 0; i < n; i++) text += PIECES[Math.floor(next() * PIECES.length)];
        // Make sure the readers run: each kind's marker is in the text.
        text = `az netappfiles New-AzNetAppFiles azure-netapp-files jobs:\n${text}`;
        const file = parseFile(`file:///repo/${path}`, text);
        expect(
          file.problems.filter((p) => p.code === 'ANF003'),
          text,
        ).toEqual([]);
        for (const r of [...(file.iac?.pools ?? []), ...(file.iac?.volumes ?? [])]) {
          expect(r.span.start).toBeGreaterThanOrEqual(0);
          expect(r.span.end).toBeLessThanOrEqual(text.length);
        }
      }
    });
  }
});
