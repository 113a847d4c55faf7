import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/** The fenced block after `<!-- test: NAME -->` in docs/editors.md. */
export function documentedBlock(name: string): string {
  const doc = readFileSync(join(ROOT, 'docs', 'editors.md'), 'utf8');
  const block = new RegExp(`<!-- test: ${name} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(doc)?.[1];
  if (!block) throw new Error(`docs/editors.md has no block marked <!-- test: ${name} -->`);
  return block;
}
