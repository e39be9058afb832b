import { describe, expect, it } from 'vitest';
import { displayNameOf } from './display-name.js';

// spec §3: first and last name joined; otherwise displayName; otherwise username; otherwise 'Me'.
describe('displayNameOf', () => {
  it('joins first and last name', () => {
    expect(
      displayNameOf({
        firstName: 'Ada',
        lastName: 'Lovelace',
        displayName: 'Countess',
        username: 'ada',
      }),
    ).toBe('Ada Lovelace');
  });

  it('uses whichever of first and last name is present, without stray spaces', () => {
    expect(displayNameOf({ firstName: 'Ada', lastName: null, displayName: 'Countess' })).toBe(
      'Ada',
    );
    expect(displayNameOf({ firstName: '', lastName: 'Lovelace', displayName: 'Countess' })).toBe(
      'Lovelace',
    );
    expect(displayNameOf({ firstName: '  Ada  ', lastName: ' Lovelace ' })).toBe('Ada Lovelace');
  });

  it('falls back to displayName when both names are missing or blank', () => {
    expect(displayNameOf({ displayName: 'Countess', username: 'ada' })).toBe('Countess');
    expect(
      displayNameOf({
        firstName: '   ',
        lastName: '\t',
        displayName: ' Countess ',
        username: 'ada',
      }),
    ).toBe('Countess');
  });

  it('falls back to the username when the names and displayName are missing or blank', () => {
    expect(
      displayNameOf({ firstName: null, lastName: null, displayName: null, username: 'ada' }),
    ).toBe('ada');
    expect(displayNameOf({ firstName: ' ', displayName: '  ', username: 'ada' })).toBe('ada');
  });

  it("says 'Me' when nothing is known", () => {
    expect(displayNameOf(null)).toBe('Me');
    expect(displayNameOf(undefined)).toBe('Me');
    expect(displayNameOf({})).toBe('Me');
    expect(displayNameOf({ firstName: ' ', lastName: '', displayName: ' ', username: '  ' })).toBe(
      'Me',
    );
  });
});
