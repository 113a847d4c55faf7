import { describe, expect, it } from 'vitest';
import { BoundedMemo } from '../../server/src/core/iac/boundedMemo';

describe('BoundedMemo', () => {
  it('computes an answer once, an undefined one too', () => {
    const memo = new BoundedMemo<string | undefined>(10);
    let calls = 0;
    const compute = () => {
      calls++;
      return undefined;
    };
    expect(memo.get('a', compute)).toBeUndefined();
    expect(memo.get('a', compute)).toBeUndefined();
    expect(calls).toBe(1);
  });

  it('forgets every answer once it holds `max` and a new one comes', () => {
    const memo = new BoundedMemo<number>(2);
    let calls = 0;
    const compute = () => ++calls;
    memo.get('a', compute);
    memo.get('b', compute);
    memo.get('c', compute); // clears a and b, keeps c
    expect(memo.get('c', compute)).toBe(3);
    expect(memo.get('a', compute)).toBe(4);
    expect(calls).toBe(4);
  });
});
