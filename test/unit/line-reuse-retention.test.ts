/**
 * A re-read keeps the items the edit did not touch, for every later version: what it reads must not
 * hold on to its version's text (text/ownText.ts). A string read from a line is otherwise a slice
 * of the whole text (V8 makes a substring of 13 or more characters one), and each kept item keeps
 * one old version alive: the live heap grows with every edit (bench/notes.md, session 7). Strings
 * cannot be weakly referenced: here each version carries a large comment line, and the live heap
 * after a chain of edits through the workspace and the lint (as the language server does them) and
 * a full garbage collection may hold only the newest few versions.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { LintMemo, lintFile, resolveConfig, Workspace, type FileKind } from '../../server/src/core';
import { autofsLines, fstab, provisioningScript, sysctlSet, typingEdits } from '../../bench/generate.mjs';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const EDITS = 60; // not a fact: enough edits that every kind re-reads items of many versions
/** A comment line that makes each version's text large, so that each one kept shows in the heap. */
const PAD = 1_000_000; // not a fact: a size far above the rest of the heap's changes
/** The workspace holds the newest version, the lint memo the one before it; some room for the collector's timing. */
const ALLOWED = 6; // not a fact: see above

const INPUTS: readonly { kind: FileKind; uri: string; text: () => string }[] = [
  { kind: 'fstab', uri: 'file:///host/etc/fstab', text: () => fstab(120, 3) },
  { kind: 'autofs', uri: 'file:///host/etc/auto.proj', text: () => autofsLines(120) },
  {
    kind: 'sysctl',
    uri: 'file:///host/etc/sysctl.d/90-bench.conf',
    text: () => Object.values(sysctlSet(200, 200, 3))[0]!,
  },
  {
    kind: 'modprobe',
    uri: 'file:///host/etc/modprobe.d/sunrpc.conf',
    text: () =>
      Array.from(
        { length: 40 },
        (_, i) => `options sunrpc tcp_max_slot_table_entries=${64 + i}\noptions nfs nfs4_disable_idmapping=${i % 2}\n`,
      ).join(''),
  },
  { kind: 'shell', uri: 'file:///host/scripts/provision.sh', text: () => provisioningScript(400) },
];

/** A string of its own: not a slice of, nor a concatenation over, another (a new buffer decoded). */
const ownString = (text: string) => Buffer.from(text, 'utf8').toString('utf8');

/**
 * Lints one small file of every kind in a workspace then dropped: what the lint keeps of the last
 * file it saw (a rule's last state) no longer holds the previous test's files, which would be
 * freed during this test and hide what it keeps.
 */
function settle(): void {
  const config = resolveConfig();
  const workspace = new Workspace(config);
  for (const input of INPUTS) {
    workspace.set(input.uri, input.text().split('\n').slice(0, 8).join('\n'), 1, input.kind);
    lintFile(workspace, input.uri, config);
  }
}

const liveHeap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

/** Edits `text` (under a large comment line) through a workspace and a lint memo: how many edits were re-reads, and the live heap's growth in versions' texts. */
function editChain(kind: FileKind, uri: string, text: string): { lineEdits: number; versionsKept: number } {
  const pad = `# ${'x'.repeat(PAD)}\n`;
  const config = resolveConfig();
  const workspace = new Workspace(config);
  const memo = new LintMemo();
  let lineEdits = 0;
  let version = 0;
  const set = (lines: readonly string[]) => {
    const file = workspace.set(uri, ownString(pad + lines.join('\n')), ++version, kind);
    if (file.lineEdit) lineEdits++;
    lintFile(workspace, uri, config, { memo });
  };
  settle();
  const before = liveHeap();
  set(text.split('\n'));
  for (const { lines } of typingEdits(text, EDITS / 2, 7)) set(lines);
  const versionsKept = (liveHeap() - before) / pad.length;
  // The workspace and the memo are alive up to here.
  if (workspace.file(uri) === undefined || memo === undefined) throw new Error('the workspace lost the file');
  return { lineEdits, versionsKept };
}

describe('re-read items do not keep old versions of the text alive', () => {
  for (const input of INPUTS) {
    it(input.kind, () => {
      const { lineEdits, versionsKept } = editChain(input.kind, input.uri, input.text());
      // The chain went through the re-read (else this test tests nothing).
      expect(lineEdits).toBeGreaterThan(EDITS / 2);
      expect(versionsKept, `the live heap grew by ${versionsKept.toFixed(1)} versions of the text`).toBeLessThan(
        ALLOWED,
      );
    });
  }
});
