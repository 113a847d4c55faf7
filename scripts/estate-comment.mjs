#!/usr/bin/env node
// The GitHub Action's pull-request step (action.yml): runs `anf-lint estate --diff <base>` and posts
// the Markdown as one pull-request comment, updated in place on every push (found by a marker line),
// and writes it to the job summary. Outside a pull request it does nothing. A token that may not
// comment (a pull request from a fork) is a warning, not a failure: the summary still has it.
//
// Tested by test/cli/action.test.ts with a fake event payload and a stubbed comment poster.
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The first line of our comment: how the next run finds it to update it. */
export const MARKER = '<!-- anf-lint estate -->';

/** Runs the built CLI of this repository (bin/anf-lint). */
export function runEstateDiff({ base, paths, cwd, cli }) {
  const result = spawnSync(process.execPath, [cli, 'estate', ...paths, '--diff', base, '--format', 'markdown'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: result.status ?? 3, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** The GitHub REST calls the step makes: list the pull request's comments, create one, update one. */
export function githubPoster({ token, apiUrl, repository }) {
  const call = async (method, path, body) => {
    const response = await fetch(`${apiUrl}/repos/${repository}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
    return response.status === 204 ? undefined : response.json();
  };
  return {
    async comments(issue) {
      const all = [];
      for (let page = 1; page <= 10; page++) {
        const batch = await call('GET', `/issues/${issue}/comments?per_page=100&page=${page}`);
        all.push(...batch);
        if (batch.length < 100) break;
      }
      return all;
    },
    create: (issue, body) => call('POST', `/issues/${issue}/comments`, { body }),
    update: (id, body) => call('PATCH', `/issues/comments/${id}`, { body }),
  };
}

/**
 * The step. `env` is the process environment (GITHUB_EVENT_PATH, GITHUB_EVENT_NAME, INPUT_PATHS,
 * GITHUB_STEP_SUMMARY...); `poster` and `diff` are replaced in tests. Returns the exit code.
 */
export async function main({
  env = process.env,
  poster,
  diff = runEstateDiff,
  log = (line) => process.stderr.write(`${line}\n`),
  cwd = process.cwd(),
} = {}) {
  const eventName = env.GITHUB_EVENT_NAME ?? '';
  if (eventName !== 'pull_request' && eventName !== 'pull_request_target') {
    log(`anf-lint estate: not a pull request (${eventName || 'no event'}); no comment.`);
    return 0;
  }
  const event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8'));
  const pull = event.pull_request;
  const base = pull?.base?.sha;
  if (!pull || !base) {
    log('anf-lint estate: the event has no pull request base; no comment.');
    return 0;
  }
  const paths = (env.INPUT_PATHS ?? '').split(/\s+/).filter(Boolean);
  const cli = env.ANF_LINT_CLI ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'anf-lint');
  const result = diff({ base, paths, cwd, cli });
  if (result.code !== 0) {
    log(`anf-lint estate --diff ${base} failed (exit ${result.code}):\n${result.stderr}`);
    return result.code;
  }
  const body = `${MARKER}\n${result.stdout}`;
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, result.stdout);
  const api =
    poster ??
    githubPoster({
      token: env.INPUT_GITHUB_TOKEN ?? env.GITHUB_TOKEN ?? '',
      apiUrl: env.GITHUB_API_URL ?? 'https://api.github.com',
      repository: env.GITHUB_REPOSITORY ?? event.repository?.full_name,
    });
  try {
    const existing = (await api.comments(pull.number)).find(
      (c) => typeof c.body === 'string' && c.body.startsWith(MARKER),
    );
    if (existing) {
      if (existing.body !== body) await api.update(existing.id, body);
      log(`anf-lint estate: comment ${existing.id} ${existing.body === body ? 'unchanged' : 'updated'}.`);
    } else {
      await api.create(pull.number, body);
      log('anf-lint estate: comment posted.');
    }
  } catch (error) {
    // A fork's pull request gets a read-only token: the job summary has the comment.
    log(
      `::warning::anf-lint estate: could not comment on the pull request (${error instanceof Error ? error.message : String(error)}); the job summary has the estate change.`,
    );
  }
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then((code) => {
    process.exitCode = code;
  });
}
