import { describe, expect, it } from 'vitest';
import { decodeBytes } from '../../server/src/core/project';

/**
 * Windows PowerShell 5 writes UTF-16 files with a byte order mark (`Out-File`, `>`). Read as UTF-8
 * they became text full of NUL characters: not the file, and minutes of tree-sitter error recovery
 * for a 55 KB .bicep (issue 32). They are decoded as UTF-16, and never fixed (fixes write UTF-8).
 */
const TEXT =
  "param location string = 'westeurope' // é\nresource account 'Microsoft.NetApp/netAppAccounts@2024-03-01' = {\n  name: 'anf'\n}\n";

function utf16(text: string, endian: 'le' | 'be'): Uint8Array {
  const bytes = new Uint8Array(2 + text.length * 2);
  bytes.set(endian === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const [first, second] = endian === 'le' ? [code & 0xff, code >> 8] : [code >> 8, code & 0xff];
    bytes[2 + i * 2] = first;
    bytes[3 + i * 2] = second;
  }
  return bytes;
}

describe('decodeBytes', () => {
  it.each(['le', 'be'] as const)('decodes UTF-16%s with a byte order mark, and says it is not UTF-8', (endian) => {
    expect(decodeBytes(utf16(TEXT, endian))).toEqual({ text: TEXT, decodable: false });
  });

  it('reads UTF-8 as before', () => {
    expect(decodeBytes(new TextEncoder().encode(TEXT))).toEqual({ text: TEXT, decodable: true });
  });

  it('reads bytes that start like UTF-16 but are not (an odd length) as before', () => {
    const bytes = new Uint8Array([0xff, 0xfe, 0x41]);
    expect(decodeBytes(bytes).decodable).toBe(false);
    expect(decodeBytes(bytes).text.endsWith('A')).toBe(true);
  });
});
