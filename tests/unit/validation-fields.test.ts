import { describe, expect, it } from 'vitest';
import { parseInput, z } from '../../src/server/http/validation.ts';

const schema = z.object({ commentId: z.coerce.number().int().positive(), name: z.string().min(1) });
const fieldsOf = (input: unknown) => {
  try {
    parseInput(schema, input);
    return null;
  } catch (error) {
    return (error as { fields?: Record<string, string> }).fields;
  }
};

describe('validation errors name what is wrong with each field', () => {
  it('a missing field, or one sent empty or null, is required', () => {
    expect(fieldsOf({})).toEqual({ commentId: 'required', name: 'required' });
    expect(fieldsOf({ commentId: 3, name: '' })).toEqual({ name: 'required' });
    expect(fieldsOf({ commentId: 3, name: null })).toEqual({ name: 'required' });
  });

  it('a value of the wrong kind has the wrong type, not missing', () => {
    expect(fieldsOf({ commentId: 'abc', name: 'Ada' })).toEqual({ commentId: 'invalid_type' });
    expect(fieldsOf({ commentId: 3, name: 5 })).toEqual({ name: 'invalid_type' });
  });

  it('a body that is not an object is wrong as a whole', () => {
    expect(fieldsOf([1, 2])).toEqual({ _: 'invalid_type' });
  });
});
