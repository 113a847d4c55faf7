import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readIac } from '../../server/src/core/iac/read';
import { forgetBlockResults, lastBlockReuse } from '../../server/src/core/iac/reuse';
import {
  editBetween,
  forgetKeptTrees,
  grammarOf,
  iacParsersReady,
  initIacParsers,
  keptTreeCount,
  parseKeptTree,
  parseTree,
} from '../../server/src/core/iac/treeSitter';
import { loadIacWasm } from '../../server/src/iacWasm';
import { SourceText } from '../../server/src/core/text/sourceText';

/**
 * Editing a .tf or .bicep file re-parses it incrementally from the document's previous tree
 * (treeSitter.ts `parseKeptTree`). Whatever the edit, the result must be the tree and the estate a
 * whole parse of the same text gives; and the kept trees (WebAssembly memory) must not pile up.
 */

// Non-ASCII in comments and strings: web-tree-sitter counts UTF-16 code units, as JavaScript does.
const MODULE = `# Speicher für das EDA-Team — 日本語のコメント 🚀
variable "quota_gib" {
  default = 4096
}

resource "azurerm_netapp_pool" "p" {
  name          = "eda-premium"
  account_name  = "eda-prod"
  service_level = "Premium"
  size_in_tb    = 8
}

# anf: workload=eda-tools
resource "azurerm_netapp_volume" "tools" {
  name                = "eda-tools" # Werkzeuge ✓
  account_name        = "eda-prod"
  pool_name           = azurerm_netapp_pool.p.name
  service_level       = "Premium"
  volume_path         = "eda-tools"
  storage_quota_in_gb = var.quota_gib
  protocols           = ["NFSv3"]

  export_policy_rule {
    rule_index        = 1
    allowed_clients   = ["10.10.0.0/16"]
    protocols_enabled = ["NFSv3"]
  }
}
`;

/** Each step replaces `find` (its first occurrence) with `replace` in the previous text. */
const STEPS: readonly (readonly [string, string])[] = [
  ['size_in_tb    = 8', 'size_in_tb    = 8x'], // a character typed: a syntax error
  ['size_in_tb    = 8x', 'size_in_tb    = 8'], // and deleted
  ['Werkzeuge ✓', 'Werkzeuge ✓✓ é'], // after non-ASCII, on the same line
  ['日本語のコメント 🚀', '日本語 🚀🚀'], // a surrogate pair before everything else
  [
    '  size_in_tb    = 8\n}',
    '  size_in_tb    = 2\n}\n\nresource "azurerm_netapp_pool" "q" {\n  name = "second"\n  size_in_tb = 4\n}',
  ], // a block pasted
  ['resource "azurerm_netapp_pool" "q" {\n  name = "second"\n  size_in_tb = 4\n}', ''], // and cut again
  ['export_policy_rule {', 'export_policy_rule '], // a brace deleted: the rest reads differently
  ['export_policy_rule ', 'export_policy_rule {'],
  ['default = 4096', 'default = 8192'], // a variable the volume reads
];

function texts(): string[] {
  const out = [MODULE];
  for (const [find, replace] of STEPS) {
    const previous = out.at(-1)!;
    expect(previous).toContain(find);
    out.push(previous.replace(find, replace));
  }
  return out;
}

describe('incremental parsing of infrastructure code', () => {
  it('gives the tree of a whole parse after every edit, non-ASCII text included', () => {
    forgetKeptTrees();
    for (const text of texts()) {
      const kept = parseKeptTree('terraform', 'file:///repo/main.tf', text)!;
      const whole = parseTree('terraform', text)!;
      expect(kept.rootNode.toString()).toBe(whole.rootNode.toString());
      expect(kept.rootNode.endIndex).toBe(text.length);
      whole.delete();
    }
    forgetKeptTrees('file:///repo/main.tf');
    expect(keptTreeCount()).toBe(0);
  });

  it('reads the same estate, syntax problems and volumes as a whole parse', () => {
    forgetKeptTrees();
    const uri = 'file:///repo/main.tf';
    let step = 0;
    for (const text of texts()) {
      const incremental = readIac(new SourceText(text), uri, 'terraform', true);
      const whole = readIac(new SourceText(text), `file:///fresh/${step++}/main.tf`, 'terraform');
      forgetKeptTrees(`file:///fresh/${step - 1}/main.tf`);
      const comparable = (r: typeof whole) =>
        JSON.stringify({
          estate: r.estate,
          problems: r.problems,
          volumes: r.volumes?.length,
          pools: r.manifest?.accounts.map((a) => a.pools.length),
        });
      expect(comparable(incremental)).toBe(comparable(whole));
    }
    expect(readIac(new SourceText(texts().at(-1)!), uri, 'terraform', true).estate?.volumes[0]?.quota?.value).toBe(
      8192,
    );
  });

  it('takes the tree before back when an edit restores its text (a character typed, then deleted)', () => {
    forgetKeptTrees();
    const uri = 'file:///repo/main.tf';
    const good = parseKeptTree('terraform', uri, MODULE)!;
    const broken = parseKeptTree('terraform', uri, MODULE.replace('size_in_tb    = 8', 'size_in_tb  x  = 8'))!;
    expect(broken.rootNode.hasError).toBe(true);
    const repaired = parseKeptTree('terraform', uri, MODULE)!;
    expect(repaired).toBe(good);
    expect(repaired.rootNode.hasError).toBe(false);
    expect(keptTreeCount()).toBe(2);
    forgetKeptTrees();
  });

  it("keeps no tree for a file read once (a CLI run, the server's index), and keeps one once it is edited", () => {
    forgetKeptTrees();
    for (let i = 0; i < 5; i++) readIac(new SourceText(MODULE), `file:///repo/once${i}.tf`, 'terraform');
    expect(keptTreeCount()).toBe(0);
    readIac(new SourceText(MODULE), 'file:///repo/once0.tf', 'terraform', true);
    expect(keptTreeCount()).toBe(1);
    // Read again without `edited` (the server rebuilding its workspace): the kept tree is used and kept.
    readIac(new SourceText(MODULE.replace('8', '9')), 'file:///repo/once0.tf', 'terraform');
    expect(keptTreeCount()).toBe(2);
    forgetKeptTrees();
  });

  it('finds the one edit between two texts, in UTF-16 code units', () => {
    const before = 'a = "é"\nb = 1\n';
    const after = 'a = "é"\nb = 12\n';
    const edit = editBetween(before, after);
    expect([edit.startIndex, edit.oldEndIndex, edit.newEndIndex]).toEqual([13, 13, 14]);
    expect(edit.startPosition).toEqual({ row: 1, column: 5 });
    expect(edit.oldEndPosition).toEqual({ row: 1, column: 5 });
    expect(edit.newEndPosition).toEqual({ row: 1, column: 6 });
    const pasted = editBetween('x\ny\n', 'x\nnew\nlines\ny\n');
    expect([pasted.startIndex, pasted.oldEndIndex, pasted.newEndIndex]).toEqual([2, 2, 12]);
    expect(pasted.newEndPosition).toEqual({ row: 3, column: 0 });
  });

  it('keeps a bounded number of trees and deletes the ones it drops', () => {
    forgetKeptTrees();
    for (let i = 0; i < 40; i++) parseKeptTree('terraform', `file:///repo/m${i}.tf`, MODULE);
    expect(keptTreeCount()).toBe(8);
    // The most recent documents are the ones kept: their next version still parses incrementally.
    const again = parseKeptTree('terraform', 'file:///repo/m39.tf', MODULE.replace('8', '9'))!;
    expect(again.rootNode.hasError).toBe(false);
    expect(keptTreeCount()).toBe(9); // the document's last two versions
    forgetKeptTrees('file:///repo/m39.tf');
    expect(keptTreeCount()).toBe(7);
    forgetKeptTrees();
    expect(keptTreeCount()).toBe(0);
  });
});

describe('reuse of what unchanged resource blocks read', () => {
  const SECOND_VOLUME = `
# anf: workload=eda-scratch
resource "azurerm_netapp_volume" "scratch" {
  name                = "eda-scratch"
  account_name        = "eda-prod"
  pool_name           = azurerm_netapp_pool.p.name
  service_level       = "Premium"
  volume_path         = "eda-scratch"
  storage_quota_in_gb = 2048
  protocols           = ["NFSv3"]
}
`;
  const uri = 'file:///repo/reuse.tf';
  /** Reads each text as the next version of one document; returns what each read reused and read. */
  function reads(...versions: string[]) {
    forgetKeptTrees();
    forgetBlockResults();
    return versions.map((text, i) => {
      const incremental = readIac(new SourceText(text), uri, 'terraform', true);
      const counts = lastBlockReuse();
      const whole = readIac(new SourceText(text), `file:///fresh/${i}/reuse.tf`, 'terraform');
      forgetBlockResults(`file:///fresh/${i}/reuse.tf`);
      expect(JSON.stringify(incremental.estate)).toBe(JSON.stringify(whole.estate));
      return counts;
    });
  }
  const base = MODULE + SECOND_VOLUME;

  it('reads only the edited block, and moves the spans of the blocks after it', () => {
    const edited = base.replace('storage_quota_in_gb = var.quota_gib', 'storage_quota_in_gb = var.quota_gib + 1024');
    expect(reads(base, edited)).toEqual([
      { reused: 0, read: 3 },
      { reused: 2, read: 1 },
    ]);
  });

  it('reads again the volumes that name an edited pool', () => {
    expect(reads(base, base.replace('name          = "eda-premium"', 'name          = "eda-ultra"'))[1]).toEqual({
      reused: 0,
      read: 3,
    });
  });

  it('reads everything again when a variable changes', () => {
    expect(reads(base, base.replace('default = 4096', 'default = 1024'))[1]).toEqual({ reused: 0, read: 3 });
  });

  it('reads the blocks again when a line above a variable moves it (a value says which line it came from)', () => {
    const moved = `# quotas are reviewed every quarter\n${base}`;
    expect(reads(base, moved)[1]).toEqual({ reused: 0, read: 3 });
  });

  it('reads a block again when its annotation above it changes', () => {
    expect(reads(base, base.replace('# anf: workload=eda-scratch', '# anf: workload=hpc'))[1]).toEqual({
      reused: 2,
      read: 1,
    });
  });

  it('reuses the blocks a missing brace hid, however often it happens', () => {
    const unclosed = base.replace('  }\n}\n', '  }\n\n');
    expect(unclosed).not.toBe(base);
    const counts = reads(base, unclosed, base, unclosed, base, unclosed, base, unclosed, base);
    for (const i of [2, 4, 6, 8]) expect(counts[i]).toEqual({ reused: 3, read: 0 });
  });

  /** `}` + `typed` at the closing brace of the `n`th block (1-based) of `text`. */
  const afterBrace = (text: string, n: number, typed: string) => {
    let at = -1;
    for (let i = 0; i < n; i++) at = text.indexOf('\n}\n', at + 1);
    return `${text.slice(0, at + 2)}${typed}${text.slice(at + 2)}`;
  };
  const third = base + SECOND_VOLUME.replaceAll('scratch', 'third');

  it('keeps the blocks error recovery wraps when a character is typed after a closing brace', () => {
    // tree-sitter wraps the variable, the pool and the first volume in one ERROR node: they parsed
    // whole and are still read (with the variable's value), and nothing is read again but the
    // block whose last line changed.
    const typed = afterBrace(third, 3, '0');
    const counts = reads(third, typed);
    expect(counts[1]).toEqual({ reused: 1, read: 1 });
    const estate = readIac(new SourceText(typed), 'file:///fresh/typed/main.tf', 'terraform').estate!;
    expect(estate.pools.map((p) => p.name?.value)).toEqual(['eda-premium']);
    expect(estate.volumes.find((v) => v.name?.value === 'eda-tools')?.quota?.value).toBe(4096);
  });

  it('after an edit that read every block again is undone, a later edit reads only the block it changed', () => {
    // The undo leaves two reads of most blocks (before and during the edit); the later edit takes
    // the ones that saw each other, not a mix that would read the volumes again.
    const counts = reads(third, afterBrace(third, 1, '0'), third, afterBrace(third, 3, 'x'));
    expect(counts[1]!.read).toBeGreaterThan(1);
    expect(counts[3]).toEqual(reads(third, afterBrace(third, 3, 'x'))[1]);
    expect(counts[3]).toEqual({ reused: 2, read: 1 });
  });

  it('takes back, on undo, the read a character typed above a block moved: no span is moved again', () => {
    forgetKeptTrees();
    forgetBlockResults();
    const typed = base.replace('volume_path         = "eda-tools"', 'volume_path         = "eda-toolsx"');
    const estates = [base, typed, base, typed].map(
      (text) => readIac(new SourceText(text), uri, 'terraform', true).estate!,
    );
    const scratch = (i: number) => estates[i]!.volumes.find((v) => v.name?.value === 'eda-scratch');
    expect(scratch(1)!.span.start).toBe(scratch(0)!.span.start + 1);
    // The same objects: the reads before the character was typed, and after it, kept where they were.
    expect(scratch(2)).toBe(scratch(0));
    expect(scratch(3)).toBe(scratch(1));
  });

  it('reuses every block when a broken edit is undone', () => {
    const broken = base.replace('  volume_path         = "eda-tools"', '  volume_path     =    = "eda-tools"');
    const counts = reads(base, broken, base);
    expect(counts[2]).toEqual({ reused: 3, read: 0 });
  });
});

describe('block headers read from the text', () => {
  it('names blocks as the tree does: identifier labels, hyphens, one-liners, and headers the text cannot say (escapes, templates, comments) from the tree', () => {
    const text = [
      'resource "azurerm_netapp_pool" "p-1" {\n  name = "a"\n}',
      'resource azurerm_netapp_pool p2 {\n  name = "b"\n}',
      'resource "azurerm_netapp_pool" "p\\"3" {\n  name = "c"\n}',
      'resource "azurerm_netapp_pool" /* old: p0 */ "p4" {\n  name = "d"\n}',
      'resource "azurerm_netapp_pool" "p5" { name = "e" }',
      'resource\n"azurerm_netapp_pool" "p6" {\n  name = "f"\n}',
      'resource "azurerm_netapp_pool" "ü7" {\n  name = "g"\n}',
    ].join('\n\n');
    const symbols = readIac(new SourceText(`${text}\n`), 'file:///repo/headers.tf', 'terraform').estate!.pools.map(
      (p) => p.symbol,
    );
    expect(symbols).toEqual([
      'azurerm_netapp_pool.p-1',
      'azurerm_netapp_pool.p2',
      'azurerm_netapp_pool.p\\"3',
      'azurerm_netapp_pool.p4',
      'azurerm_netapp_pool.p5',
      'azurerm_netapp_pool.p6',
      'azurerm_netapp_pool.ü7',
    ]);
  });
});

describe('loading the grammars', () => {
  it('names the grammar of each kind of file, so a CLI run loads only those it reads', () => {
    expect(['terraform', 'terraform-vars', 'bicep', 'arm-template', 'fstab', 'manifest-yaml'].map(grammarOf)).toEqual([
      'terraform',
      'terraform',
      'bicep',
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('loads each grammar once, however often it is asked for', async () => {
    let reads = 0;
    const counted = () => {
      reads++;
      return loadIacWasm();
    };
    await initIacParsers(counted, ['terraform']);
    await initIacParsers(counted, ['terraform', 'bicep']);
    expect(reads).toBe(0); // the test setup loaded both already: nothing is read or instantiated again
    expect(iacParsersReady('terraform') && iacParsersReady('bicep') && iacParsersReady()).toBe(true);
  });
});

describe('incremental parsing of Bicep', () => {
  it('reads the same estate as a whole parse after each edit of an example', () => {
    forgetKeptTrees();
    const uri = 'file:///repo/main.bicep';
    let text = readFileSync(join(__dirname, '..', '..', 'examples', 'eda', 'bicep', 'main.bicep'), 'utf8');
    const steps: readonly (readonly [string, string])[] = [
      ["serviceLevel: 'Premium'", "serviceLevel: 'Premium"], // an unclosed string
      ["serviceLevel: 'Premium", "serviceLevel: 'Premium'"],
      ['size: 8 * tib', 'size: 16 * tib'],
      ['var tib = 1024 * gib', 'var tib = 1000 * gib'],
    ];
    let step = 0;
    for (const [find, replace] of [['', ''] as const, ...steps]) {
      if (find) {
        expect(text).toContain(find);
        text = text.replace(find, replace);
      }
      const incremental = readIac(new SourceText(text), uri, 'bicep', true);
      const freshUri = `file:///fresh/${step++}/main.bicep`;
      const whole = readIac(new SourceText(text), freshUri, 'bicep');
      forgetKeptTrees(freshUri);
      expect(JSON.stringify({ estate: incremental.estate, problems: incremental.problems })).toBe(
        JSON.stringify({ estate: whole.estate, problems: whole.problems }),
      );
    }
    forgetKeptTrees();
  });
});
