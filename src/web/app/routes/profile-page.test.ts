import { describe, expect, it } from 'vitest';
import { makeUserDocument } from '@web/test/user-fixtures.js';
import { samePrefixPath } from './profile-page.js';

describe('samePrefixPath (an old or mixed-case name leads to the current address)', () => {
  const renamed = makeUserDocument({ username: 'ada_l' });

  it('keeps /{username} addresses at the top level', () => {
    expect(samePrefixPath('/ada', renamed)).toBe('/ada_l');
  });

  it('keeps the /ym/ prefix of spec §2', () => {
    expect(samePrefixPath('/ym/ada', renamed)).toBe('/ym/ada_l');
  });

  it('falls back to /user/{uid} for an account without a username', () => {
    expect(samePrefixPath('/ym/ada', makeUserDocument({ uid: 'u9', username: null }))).toBe(
      '/user/u9',
    );
  });
});
