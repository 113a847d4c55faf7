import { describe, expect, it } from 'vitest';
import { plainFinding, type Finding } from '../../server/src/core/diagnostics';

/** A finding whose message and fixes are made when read, as ANF306's are. */
class Lazy implements Finding {
  readonly span = { start: 4, end: 9 };
  get message(): string {
    return 'made when read';
  }
  get fixes() {
    return [{ title: 'Remove the line', edits: [], applicability: 'safe' as const }];
  }
}

describe('plainFinding', () => {
  it('copies the fields a class computes in getters, which a spread drops', () => {
    const lazy = new Lazy();
    expect(({ ...lazy } as Partial<Finding>).message).toBeUndefined();
    const copy = { ...plainFinding(lazy), span: { start: 0, end: 5 } };
    expect(copy.message).toBe('made when read');
    expect(copy.fixes?.map((f) => f.title)).toEqual(['Remove the line']);
    expect(copy).not.toHaveProperty('related');
  });
});
