import { describe, expect, it } from 'vitest';
import { feedTabSearch, feedViewOf } from './feed-view.js';

const view = (search: string, signedIn = true) => feedViewOf(new URLSearchParams(search), signedIn);

describe('feedViewOf', () => {
  it('opens Following for signed-in readers and Everyone for visitors', () => {
    expect(view('')).toEqual({ kind: 'tab', tab: 'following' });
    expect(view('', false)).toEqual({ kind: 'tab', tab: 'everyone' });
  });

  it('keeps the tab of the address', () => {
    expect(view('?tab=everyone')).toEqual({ kind: 'tab', tab: 'everyone' });
    expect(view('?tab=following')).toEqual({ kind: 'tab', tab: 'following' });
    expect(view('?tab=nonsense')).toEqual({ kind: 'tab', tab: 'following' });
  });

  it('gives visitors Everyone whatever the address says', () => {
    expect(view('?tab=following', false)).toEqual({ kind: 'tab', tab: 'everyone' });
  });

  it('reads a hashtag as the server does', () => {
    expect(view('?tag=Hearth')).toEqual({ kind: 'tag', tag: 'hearth' });
    expect(view('?tag=%23caf%C3%A9', false)).toEqual({ kind: 'tag', tag: 'café' });
    expect(view('?tab=following&tag=news')).toEqual({ kind: 'tag', tag: 'news' });
  });

  it('flags what cannot be a hashtag', () => {
    expect(view('?tag=')).toEqual({ kind: 'bad-tag', text: '' });
    expect(view('?tag=a%20b')).toEqual({ kind: 'bad-tag', text: 'a b' });
  });
});

describe('feedTabSearch', () => {
  it('leaves the default tab out of the address', () => {
    expect(feedTabSearch('following')).toBe('');
    expect(feedTabSearch('everyone')).toBe('?tab=everyone');
  });
});
