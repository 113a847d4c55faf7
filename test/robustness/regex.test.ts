/**
 * Regular expressions against catastrophic backtracking. Every RegExp literal in server/src (found
 * with the TypeScript parser) and every `new RegExp("...")` of a constant pattern runs against
 * adversarial strings: long runs of each character the pattern mentions (and of common separators),
 * after the pattern's literal prefix, ending in a character that forces a mismatch. A pattern that
 * backtracks exponentially never finishes: it runs in a worker that is stopped after a time bound,
 * and the test names it. safe-regex2 (a static star-height check) gives a second opinion on each.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Worker } from 'node:worker_threads';
import safeRegex from 'safe-regex2';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { COUNT_PATTERN, DURATION_PATTERN, RATE_PATTERN, SIZE_PATTERN } from '../../server/src/core/manifest/model';

const SRC = join(__dirname, '..', '..', 'server', 'src');

interface FoundRegex {
  readonly where: string;
  readonly source: string;
  readonly flags: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function collect(): FoundRegex[] {
  const found: FoundRegex[] = [];
  for (const path of sourceFiles(SRC)) {
    const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true);
    const where = (node: ts.Node) =>
      `${relative(SRC, path)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const visit = (node: ts.Node) => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const text = node.getText();
        const slash = text.lastIndexOf('/');
        found.push({ where: where(node), source: text.slice(1, slash), flags: text.slice(slash + 1) });
      } else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp') {
        const [pattern, flags] = node.arguments ?? [];
        if (pattern && (ts.isStringLiteral(pattern) || ts.isNoSubstitutionTemplateLiteral(pattern))) {
          found.push({
            where: where(node),
            source: pattern.text,
            flags: flags && ts.isStringLiteral(flags) ? flags.text : '',
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  // Patterns built from strings (the manifest's unit patterns, also in the JSON Schema).
  for (const [name, source] of Object.entries({ SIZE_PATTERN, RATE_PATTERN, COUNT_PATTERN, DURATION_PATTERN }))
    found.push({ where: `manifest/model.ts ${name}`, source, flags: '' });
  return found;
}

const REGEXES = collect();

interface Outcome {
  hung: FoundRegex[];
  slow: { regex: FoundRegex; ms: number; attack: string }[];
  invalid: string[];
  checked: number;
}

/**
 * Runs the attacks in a worker. A pattern with no answer within `stallMs` is recorded as hung; the
 * worker is stopped and a new one goes on with the next pattern.
 */
async function attack(
  regexes: readonly FoundRegex[],
  length: number,
  slowMs: number,
  stallMs: number,
): Promise<Outcome> {
  const outcome: Outcome = { hung: [], slow: [], invalid: [], checked: 0 };
  let from = 0;
  while (from < regexes.length) {
    const batch = regexes.slice(from);
    const stoppedAt = await new Promise<number | undefined>((resolve) => {
      const worker = new Worker(join(__dirname, 'regexWorker.cjs'), { workerData: { regexes: batch, length } });
      let current = -1;
      let timer: NodeJS.Timeout | undefined;
      const arm = () => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => {
          void worker.terminate();
          resolve(current);
        }, stallMs);
      };
      arm();
      worker.on(
        'message',
        (message: {
          started?: number;
          done?: number;
          worst?: { ms: number; attack: string };
          invalid?: number;
          message?: string;
          finished?: boolean;
        }) => {
          if (message.started !== undefined) {
            current = message.started;
            arm();
          } else if (message.done !== undefined) {
            outcome.checked++;
            if (message.worst && message.worst.ms > slowMs)
              outcome.slow.push({
                regex: batch[message.done]!,
                ms: Math.round(message.worst.ms),
                attack: message.worst.attack,
              });
          } else if (message.invalid !== undefined) {
            outcome.invalid.push(`${batch[message.invalid]!.where}: ${message.message}`);
          } else if (message.finished) {
            if (timer) clearTimeout(timer);
            void worker.terminate();
            resolve(undefined);
          }
        },
      );
    });
    if (stoppedAt === undefined) break;
    outcome.hung.push(batch[stoppedAt]!);
    from += stoppedAt + 1;
  }
  return outcome;
}

/** Set by `npm run fuzz`: also fail a pattern slower than SLOW_MS on one string. */
const TIMED = process.env.REGEX_TIMING === '1';
const SLOW_MS = 250; // not a fact: a linear pattern takes well under 1 ms on 10,000 characters
const STALL_MS = 10_000; // not a fact: no linear pattern comes near it

describe('regular expressions do not backtrack catastrophically', () => {
  it('finds the patterns in server/src', () => {
    expect(REGEXES.length).toBeGreaterThan(100);
  });

  it('every pattern answers on 10,000-character adversarial strings', async () => {
    // Linear patterns take well under a millisecond here; exponential ones never finish, and the
    // worker is stopped after STALL_MS (a stall detector, like a test timeout). The per-string slow
    // bound, which also catches cubic and long-line quadratic patterns, is wall time: it runs in
    // `npm run fuzz` (REGEX_TIMING=1) and not in `npm test`, where a loaded machine made a linear
    // pattern take 271-492 ms against 250 (issue 31: no wall-time assertion in npm test).
    const outcome = await attack(REGEXES, 10_000, TIMED ? SLOW_MS : Number.POSITIVE_INFINITY, STALL_MS);
    const describeRegex = (r: FoundRegex) => `${r.where} /${r.source}/${r.flags}`;
    expect({
      hung: outcome.hung.map(describeRegex),
      slow: outcome.slow.map((s) => `${describeRegex(s.regex)}: ${s.ms} ms on ${s.attack}`),
      invalid: outcome.invalid,
    }).toEqual({ hung: [], slow: [], invalid: [] });
    expect(outcome.checked + outcome.hung.length).toBe(REGEXES.length);
  }, 300_000);

  it('safe-regex2 (star height) flags nothing that the attacks above did not already clear', () => {
    const flagged = REGEXES.filter((r) => {
      try {
        return !safeRegex(new RegExp(r.source, r.flags));
      } catch {
        return false;
      }
    });
    // Informational: star height > 1 is a warning sign, the timed attacks are the verdict.
    expect(flagged.length).toBeLessThan(REGEXES.length);
  });
});
