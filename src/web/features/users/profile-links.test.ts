import { describe, expect, it } from 'vitest';
import { websiteLink } from './profile-links.js';

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
