import { describe, expect, it } from 'vitest';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../src/server/lib/passwords.ts';

const FORMAT = /^scrypt\$N=16384,r=8,p=1\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

describe('password hashing', () => {
  it('stores scrypt hashes in the format the seeder writes: 16-byte salt, 64-byte key', async () => {
    const hash = await hashPassword('correct horse battery');
    const match = FORMAT.exec(hash);
    expect(match).not.toBeNull();
    expect(Buffer.from(match![1]!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(match![2]!, 'base64url')).toHaveLength(64);
    expect(await hashPassword('correct horse battery')).not.toBe(hash); // a fresh salt each time
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batter', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('treats anything that is not the stored format as no match', async () => {
    const hash = await hashPassword('pw123456');
    for (const stored of ['', 'pw123456', 'bcrypt$2b$10$abc', hash.replace('N=16384', 'N=1000'), hash.replace('N=16384', 'N=1048576000'), hash.slice(0, -10) + '!!!!!!!!!!']) {
      expect(await verifyPassword('pw123456', stored)).toBe(false);
    }
  });

  it('spends a verification on unknown accounts too, and never matches', async () => {
    expect(await verifyAgainstDummy('anything')).toBe(false);
  });
});
