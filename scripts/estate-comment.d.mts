// Types for estate-comment.mjs, which test/cli/action.test.ts imports.
export const MARKER: string;

export interface DiffResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Comment {
  id: number;
  body?: string;
}

export interface CommentPoster {
  comments(issue: number): Promise<Comment[]>;
  create(issue: number, body: string): Promise<unknown>;
  update(id: number, body: string): Promise<unknown>;
}

export function runEstateDiff(options: { base: string; paths: string[]; cwd: string; cli: string }): DiffResult;
export function githubPoster(options: { token: string; apiUrl: string; repository: string }): CommentPoster;
export function main(options?: {
  env?: Record<string, string | undefined>;
  poster?: CommentPoster;
  diff?: (options: { base: string; paths: string[]; cwd: string; cli: string }) => DiffResult;
  log?: (line: string) => void;
  cwd?: string;
}): Promise<number>;
