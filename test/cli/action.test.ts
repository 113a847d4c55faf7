import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { main, MARKER, type Comment, type CommentPoster } from '../../scripts/estate-comment.mjs';
import { baseEnv, CLI, git, ROOT, tempProject } from './helpers';

/** The GitHub Action (action.yml) and its pull-request comment step (scripts/estate-comment.mjs), run locally: no network. */

const POOL = `resource "azurerm_netapp_pool" "p" {
  name                = "pool1"
  account_name        = "acct"
  location            = "eastus"
  resource_group_name = "rg"
  service_level       = "Premium"
  size_in_tb          = 4
}
`;
const VOLUME = (gib: number) => `resource "azurerm_netapp_volume" "data" {
  name                = "data"
  location            = "eastus"
  resource_group_name = "rg"
  account_name        = "acct"
  pool_name           = azurerm_netapp_pool.p.name
  volume_path         = "data"
  service_level       = "Premium"
  subnet_id           = "/subscriptions/x/subnet"
  protocols           = ["NFSv3"]
  storage_quota_in_gb = ${gib}
}
`;

/** A repository with a base commit and a pull request that doubles a volume, and the event GitHub would send. */
function pullRequest(): { dir: string; env: Record<string, string> } {
  const dir = tempProject({ 'infra/main.tf': POOL + VOLUME(1024) }, { git: true });
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'base');
  const base = git(dir, 'rev-parse', 'HEAD').trim();
  writeFileSync(join(dir, 'infra/main.tf'), POOL + VOLUME(2048));
  const runner = tempProject({});
  const event = join(runner, 'event.json');
  writeFileSync(
    event,
    JSON.stringify({ pull_request: { number: 7, base: { sha: base } }, repository: { full_name: 'octo/infra' } }),
  );
  const summary = join(runner, 'summary.md');
  writeFileSync(summary, '');
  return {
    dir,
    env: {
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: event,
      GITHUB_STEP_SUMMARY: summary,
      INPUT_PATHS: '',
      ANF_LINT_CLI: CLI,
    },
  };
}

/** Records what the step would send to GitHub; `existing` are the pull request's comments. */
function stubPoster(existing: Comment[] = [], fail?: string): CommentPoster & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async comments(issue) {
      if (fail) throw new Error(fail);
      calls.push(`list ${issue}`);
      return existing;
    },
    async create(issue, body) {
      calls.push(`create ${issue} ${body}`);
    },
    async update(id, body) {
      calls.push(`update ${id} ${body}`);
    },
  };
}

describe('GitHub Action', () => {
  it('action.yml lints with SARIF upload and comments the estate change on pull requests', () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
      runs: { using: string; steps: { uses?: string; run?: string; if?: string }[] };
    };
    expect(action.runs.using).toBe('composite');
    const steps = action.runs.steps;
    expect(steps.some((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'))).toBe(true);
    expect(steps.some((s) => s.run?.includes('--format sarif'))).toBe(true);
    const comment = steps.find((s) => s.run?.includes('scripts/estate-comment.mjs'));
    expect(comment?.if).toContain("github.event_name == 'pull_request'");
  });

  it('posts the --diff as one comment, and updates it on the next push', async () => {
    const { dir, env } = pullRequest();
    const logs: string[] = [];
    const first = stubPoster();
    expect(await main({ env, poster: first, cwd: dir, log: (l) => logs.push(l) })).toBe(0);
    expect(first.calls[0]).toBe('list 7');
    expect(first.calls).toHaveLength(2);
    const posted = first.calls[1]!;
    expect(posted.startsWith(`create 7 ${MARKER}\n## Azure NetApp Files estate: changes against \``)).toBe(true);
    expect(posted).toContain(
      '| `acct/pool1/data` | Premium | 64 MiB/s → 128 MiB/s (+64 MiB/s) | 1 TiB → 2 TiB (+1 TiB) | $301.25 → $602.50 (+$301.25) | `infra/main.tf:10` |',
    );
    expect(readFileSync(env.GITHUB_STEP_SUMMARY!, 'utf8')).toBe(posted.slice(`create 7 ${MARKER}\n`.length));
    expect(logs).toEqual(['anf-lint estate: comment posted.']);

    // The next run finds its comment by the marker and edits it instead of adding another.
    const body = posted.slice('create 7 '.length);
    const again = stubPoster([
      { id: 1, body: 'LGTM' },
      { id: 42, body: `${MARKER}\nan older estate` },
    ]);
    await main({ env, poster: again, cwd: dir, log: () => {} });
    expect(again.calls).toEqual(['list 7', `update 42 ${body}`]);
    const same = stubPoster([{ id: 42, body }]);
    await main({ env, poster: same, cwd: dir, log: () => {} });
    expect(same.calls).toEqual(['list 7']);
  });

  it('a token that may not comment is a warning, not a failure; outside a pull request nothing is posted', async () => {
    const { dir, env } = pullRequest();
    const logs: string[] = [];
    expect(
      await main({
        env,
        poster: stubPoster([], 'HTTP 403 Resource not accessible by integration'),
        cwd: dir,
        log: (l) => logs.push(l),
      }),
    ).toBe(0);
    expect(logs[0]).toMatch(/^::warning::anf-lint estate: could not comment on the pull request \(HTTP 403/);
    const push = stubPoster();
    expect(await main({ env: { ...env, GITHUB_EVENT_NAME: 'push' }, poster: push, cwd: dir, log: () => {} })).toBe(0);
    expect(push.calls).toEqual([]);
    // As the action runs it: a process, here on a push event (no request is made).
    const script = spawnSync(process.execPath, [join(ROOT, 'scripts', 'estate-comment.mjs')], {
      cwd: dir,
      env: baseEnv({ GITHUB_EVENT_NAME: 'push' }),
      encoding: 'utf8',
    });
    expect(script.status).toBe(0);
    expect(script.stderr).toBe('anf-lint estate: not a pull request (push); no comment.\n');
  });

  it('a failing diff fails the step with the CLI message', async () => {
    const { dir, env } = pullRequest();
    writeFileSync(
      env.GITHUB_EVENT_PATH!,
      JSON.stringify({ pull_request: { number: 7, base: { sha: 'f'.repeat(40) } } }),
    );
    const logs: string[] = [];
    const poster = stubPoster();
    expect(await main({ env, poster, cwd: dir, log: (l) => logs.push(l) })).toBe(2);
    expect(logs[0]).toContain('is not a commit, branch or tag in this repository');
    expect(poster.calls).toEqual([]);
  });
});
