// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultImages } from '@shared/paths.js';
import { inlineLoadingLogo } from '../../../../scripts/vite-web-delivery.js';
import { LoadingScreen } from './loading-screen.js';

afterEach(cleanup);

// The repository's root is the working directory of every test run (vitest.config.ts).
const indexHtml = readFileSync(path.join(process.cwd(), 'src', 'web', 'index.html'), 'utf8');

/** The elements of `html` as the browser reads them, attributes in a steady order. */
function canonical(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  const write = (node: Element): string => {
    const attributes = [...node.attributes]
      .map((attribute) => `${attribute.name}="${attribute.value}"`)
      .sort()
      .join(' ');
    const children = [...node.children].map(write).join('');
    return `<${node.localName} ${attributes}>${children}</${node.localName}>`;
  };
  return [...template.content.children].map(write).join('');
}

describe('the first load’s loading screen', () => {
  it('is in index.html as the app renders it, so the page shows it before any script has run', () => {
    const root = /<div id="root">([\s\S]*?)<\/div>\s*<script/.exec(indexHtml)?.[1];
    expect(root, 'index.html has a #root with the loading screen').toBeTruthy();
    const { container } = render(<LoadingScreen variant="page" />);
    expect(canonical(root ?? '')).toBe(canonical(container.innerHTML));
    // spec §1: the small logo with the alt text "Loading".
    expect(canonical(root ?? '')).toContain('alt="Loading"');
  });
});

describe('inlineLoadingLogo (the build)', () => {
  const logo = Buffer.from('a small logo');

  it('writes the logo into the page, so the first paint needs no other request', () => {
    const built = inlineLoadingLogo(indexHtml, defaultImages.logo, logo);
    const dataUrl = `data:image/png;base64,${logo.toString('base64')}`;
    expect(built).toContain(`src="${dataUrl}"`);
    expect(built).not.toContain(`src="${defaultImages.logo}"`);
    // Nothing else of the page changes.
    expect(built.replace(dataUrl, defaultImages.logo)).toBe(indexHtml);
  });

  it('fails the build when the page has no loading screen, or two', () => {
    expect(() => inlineLoadingLogo('<div id="root"></div>', defaultImages.logo, logo)).toThrow(
      /one loading-screen logo/,
    );
    const twice = indexHtml.replace('<noscript>', () => `${loadingImg(indexHtml)}<noscript>`);
    expect(() => inlineLoadingLogo(twice, defaultImages.logo, logo)).toThrow(
      /one loading-screen logo/,
    );
  });
});

function loadingImg(html: string): string {
  return /<img\b[^>]*class="loading-screen__logo"[^>]*>/.exec(html)?.[0] ?? '';
}
