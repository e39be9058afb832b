import { describe, expect, it } from 'vitest';
import { newPostForm } from './create-post.js';

const image = (name: string) => new File([new Uint8Array([1, 2, 3])], name, { type: 'image/png' });

describe('newPostForm', () => {
  it('sends the text, then the descriptions, then the files, by position', () => {
    const form = newPostForm({
      body: 'Hello',
      images: [
        { file: image('a.png'), alt: '  A red square ' },
        { file: image('b.png'), alt: '' },
      ],
    });
    expect([...form.keys()]).toEqual(['body', 'alt0', 'image0', 'image1']);
    expect(form.get('alt0')).toBe('A red square');
    expect((form.get('image1') as File).name).toBe('b.png');
  });
});
