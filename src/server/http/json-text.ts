import fastJson from 'fast-json-stringify';
import type { z } from 'zod';
import type { Page } from '../../shared/schemas/post.js';
import { wireSchema } from './serializer.js';

/**
 * A response body already written as JSON by the contract's own serializer (`memoisedJson`): `serve`
 * sends it as it is, with the JSON content type, and the route's serializer is not run on it again.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * Writes values of `schema` as the route's response serializer writes them (objects closed: a field the
 * contract does not declare is dropped), and keeps each value's text for as long as the value itself
 * lives. A document the read cache keeps, listed on every page that shows it, is then written once, not
 * once per response (ADR 0040). The values must not be changed once written; the cache's documents and
 * the views built from them are not.
 */
export function memoisedJson<T extends object>(schema: z.ZodType<T>): (value: T) => string {
  const json = wireSchema(schema);
  // Only a schema the compiled serializer writes can be written here as the route would write it.
  if (!json) throw new Error('memoisedJson needs a schema that JSON Schema can express.');
  const write: (value: T) => string = fastJson(json);
  const texts = new WeakMap<T, string>();
  return (value) => {
    let text = texts.get(value);
    if (text === undefined) {
      text = write(value);
      texts.set(value, text);
    }
    return text;
  };
}

/** A page of a list (`pageSchema`) from its items' texts, as the page's own serializer would write it. */
export function pageJson<T extends object>(page: Page<T>, itemJson: (item: T) => string): JsonText {
  let items = '';
  for (const item of page.items) items += (items === '' ? '' : ',') + itemJson(item);
  return new JsonText(`{"items":[${items}],"nextCursor":${JSON.stringify(page.nextCursor)}}`);
}
