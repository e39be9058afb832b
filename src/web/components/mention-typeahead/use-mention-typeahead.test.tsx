// @vitest-environment jsdom
import { useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { PeopleResult } from '@shared/schemas/search.js';
import { jsonResponse, stubFetch } from '@web/test/fetch-stub.js';
import { seenRequest } from '@web/test/render-route.js';
import { makePeopleResult } from '@web/test/search-fixtures.js';
import { useMentionTypeahead } from './use-mention-typeahead.js';

afterEach(cleanup);

/** A textarea with the typeahead, as the forms wire it; Enter not taken by the list "sends". */
function Field({ onSend }: { onSend: (text: string) => void }) {
  const [text, setText] = useState('');
  const typeahead = useMentionTypeahead({ setText });
  return (
    <>
      <label htmlFor="field">Write</label>
      <textarea
        id="field"
        value={text}
        {...typeahead.fieldProps}
        onChange={(event) => {
          setText(event.target.value);
          typeahead.update(event.currentTarget);
        }}
        onKeyDown={(event) => {
          if (typeahead.onKeyDown(event)) return;
          if (event.key === 'Enter' && event.ctrlKey) onSend(text);
        }}
      />
      {typeahead.popup}
    </>
  );
}

function renderField() {
  const sent: string[] = [];
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <Field onSend={(text) => sent.push(text)} />
    </QueryClientProvider>,
  );
  const field = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Write' });
  return { field, sent };
}

/** Answers people searches from `people` (by prefix of username), recording each query asked. */
function stubPeople(people: PeopleResult) {
  const asked: string[] = [];
  const signals: AbortSignal[] = [];
  const spy = stubFetch((input, init) => {
    const request = seenRequest(input, init);
    const q = request.url.searchParams.get('q') ?? '';
    asked.push(q);
    if (request.signal) signals.push(request.signal);
    const items = people.items.filter((person) => person.username?.startsWith(q.toLowerCase()));
    return Promise.resolve(jsonResponse({ items }));
  });
  return { asked, signals, spy };
}

const people = makePeopleResult(['ada', 'adam', 'adele', 'bob']);

describe('the mention typeahead', () => {
  it('opens a listbox of people for @ and a letter, the first one active', async () => {
    const { asked } = stubPeople(people);
    const { field } = renderField();
    const user = userEvent.setup();
    await user.type(field, 'Hi @ad');

    const list = await screen.findByRole('listbox', { name: 'People to mention' });
    const options = screen.getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'ada@ada',
      'adam@adam',
      'adele@adele',
    ]);
    expect(field.getAttribute('aria-autocomplete')).toBe('list');
    expect(field.getAttribute('aria-controls')).toBe(list.id);
    expect(field.getAttribute('aria-activedescendant')).toBe(options[0]?.id);
    expect(options[0]?.getAttribute('aria-selected')).toBe('true');
    expect(options[1]?.getAttribute('aria-selected')).toBe('false');
    // Typing paused once, on the whole name: one search, for "ad".
    expect(asked).toEqual(['ad']);
    expect(document.activeElement).toBe(field);
  });

  it('moves with the arrow keys, wrapping, and picks with Enter', async () => {
    stubPeople(people);
    const { field, sent } = renderField();
    const user = userEvent.setup();
    await user.type(field, 'Hi @ad');
    await screen.findByRole('listbox');

    await user.keyboard('{ArrowDown}');
    let options = screen.getAllByRole('option');
    expect(field.getAttribute('aria-activedescendant')).toBe(options[1]?.id);
    expect(options[1]?.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowUp}{ArrowUp}');
    options = screen.getAllByRole('option');
    expect(field.getAttribute('aria-activedescendant')).toBe(options[2]?.id);

    await user.keyboard('{Enter}');
    expect(field.value).toBe('Hi @adele ');
    expect(field.selectionStart).toBe('Hi @adele '.length);
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(field.hasAttribute('aria-activedescendant')).toBe(false);
    expect(sent).toEqual([]);
  });

  it('picks with Tab too, replacing the whole name the caret is in', async () => {
    stubPeople(people);
    const { field } = renderField();
    const user = userEvent.setup();
    await user.type(field, '@adxyz and more');
    // Back to just after "@ad".
    field.setSelectionRange(3, 3);
    await user.type(field, '{arrowleft}{arrowright}', { skipClick: true });
    await screen.findByRole('listbox');
    await user.keyboard('{Tab}');
    expect(field.value).toBe('@ada and more');
    expect(document.activeElement).toBe(field);
  });

  it('closes on Escape without changing the text, and opens again for a new @', async () => {
    stubPeople(people);
    const { field } = renderField();
    const user = userEvent.setup();
    await user.type(field, '@ad');
    await screen.findByRole('listbox');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(field.value).toBe('@ad');
    // Enter now belongs to the field: a new line.
    await user.keyboard('{Enter}');
    expect(field.value).toBe('@ad\n');
    await user.type(field, '@bo');
    expect(await screen.findByRole('option', { name: /bob/ })).toBeTruthy();
  });

  it('picks the option clicked, keeping focus in the field', async () => {
    stubPeople(people);
    const { field } = renderField();
    const user = userEvent.setup();
    await user.type(field, 'cc @ad');
    await user.click(await screen.findByRole('option', { name: /adam/ }));
    expect(field.value).toBe('cc @adam ');
    expect(document.activeElement).toBe(field);
  });

  it('says when it is looking and when no one is found', async () => {
    stubPeople(people);
    const { field } = renderField();
    const user = userEvent.setup();
    await user.type(field, '@zz');
    expect(screen.getByText('Looking for people…')).toBeTruthy();
    expect(await screen.findByText('No one found')).toBeTruthy();
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(field.hasAttribute('aria-controls')).toBe(false);
    // With nothing to pick, Enter is the field's own.
    await user.keyboard('{Enter}');
    expect(field.value).toBe('@zz\n');
  });

  it('leaves Ctrl+Enter to the form while the list is open', async () => {
    stubPeople(people);
    const { field, sent } = renderField();
    const user = userEvent.setup();
    await user.type(field, '@ad');
    await screen.findByRole('listbox');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(sent).toEqual(['@ad']);
    expect(field.value).toBe('@ad');
  });

  it('does not open for an @ inside a word or with nothing after it', async () => {
    const { spy } = stubPeople(people);
    const { field } = renderField();
    const user = userEvent.setup();
    await user.type(field, 'mail ana@ex or @');
    await act(() => new Promise((resolve) => setTimeout(resolve, 250)));
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.queryByText('Looking for people…')).toBeNull();
    expect(spy).not.toHaveBeenCalled();
  });

  it('asks once per name, and from the cache when the name is typed again', async () => {
    const { asked } = stubPeople(people);
    const { field } = renderField();
    const user = userEvent.setup();
    await user.type(field, '@ad');
    await screen.findByRole('listbox');
    await user.type(field, 'a');
    await waitFor(() => {
      expect(asked).toEqual(['ad', 'ada']);
    });
    await waitFor(() => {
      expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
        'ada@ada',
        'adam@adam',
      ]);
    });
    await user.type(field, '{Backspace}');
    await waitFor(() => {
      expect(screen.getAllByRole('option')).toHaveLength(3);
    });
    await act(() => new Promise((resolve) => setTimeout(resolve, 250)));
    expect(asked).toEqual(['ad', 'ada']);
  });

  it('calls off a search the typing has moved past', async () => {
    const signals = new Map<string, AbortSignal>();
    stubFetch((input, init) => {
      const request = seenRequest(input, init);
      const q = request.url.searchParams.get('q') ?? '';
      const signal = request.signal;
      if (signal) signals.set(q, signal);
      if (q === 'ad') {
        // A slow answer: it only ever ends by being called off.
        return new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => {
            reject(new DOMException('Aborted', 'AbortError'));
          });
        });
      }
      return Promise.resolve(jsonResponse(makePeopleResult(['adam'])));
    });
    const { field } = renderField();
    const user = userEvent.setup();
    await user.type(field, '@ad');
    await waitFor(() => {
      expect(signals.has('ad')).toBe(true);
    });
    await user.type(field, 'a');
    expect(await screen.findByRole('option', { name: /adam/ })).toBeTruthy();
    expect(signals.get('ad')?.aborted).toBe(true);
  });
});
