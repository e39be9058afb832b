import { describe, expect, it } from 'vitest';
import { makeUserDocument } from '@web/test/user-fixtures.js';
import { samePrefixPath, websiteLink } from './profile-links.js';

describe('websiteLink', () => {
  it('labels the link with the host name', () => {
    expect(websiteLink('https://www.ada.example/about/')).toEqual({
      href: 'https://www.ada.example/about/',
      label: 'www.ada.example',
    });
  });

  it('keeps a port in the label', () => {
    expect(websiteLink('http://ada.example:8080')?.label).toBe('ada.example:8080');
  });

  it('is null for no website or one that is not http(s)', () => {
    expect(websiteLink(null)).toBeNull();
    expect(websiteLink('')).toBeNull();
    expect(websiteLink('javascript:alert(1)')).toBeNull();
    expect(websiteLink('not a url')).toBeNull();
  });
});

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
