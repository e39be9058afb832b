import { describe, expect, it } from 'vitest';
import { withoutRepeatedTitle } from './legal-document-view.js';

describe('withoutRepeatedTitle', () => {
  it('drops a first heading that repeats the title', () => {
    expect(withoutRepeatedTitle('# Terms of Service\n\nBody.', 'Terms of Service').trim()).toBe(
      'Body.',
    );
  });
  it('keeps a first heading that says something else', () => {
    const markdown = '# Welcome\n\nBody.';
    expect(withoutRepeatedTitle(markdown, 'Terms of Service')).toBe(markdown);
  });
  it('keeps documents that start with text', () => {
    expect(withoutRepeatedTitle('Body.', 'Privacy Policy')).toBe('Body.');
  });
});
