import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
// The shared modules here are outside src/web, so they are zod's (scripts/web-contract.ts): the reference.
import { serverMessageSchema as byZod, topics as zodTopics } from '@shared/realtime.js';
import { topicKinds, topicName, type TopicKind } from '@shared/realtime-protocol.js';
// A module under src/web gets the generated topics, each document a `wireCheck`.
import { topics as shippedTopics } from '@shared/contract/topics.js';
import { changed, changes, pathsOf, valuesOf } from '@web/test/wire-fuzz.js';
import { wireShapeOf } from '../../../scripts/web-contract.js';
import { readServerMessage } from './realtime-messages.js';
import type { WireShape } from './wire-check.js';

/** The same verdict and the same message from zod's parse and from the web's reader. */
function expectSameAnswer(message: unknown) {
  const expected = z.safeParse(byZod, message);
  const actual = readServerMessage(message);
  expect(actual.success, JSON.stringify(message)).toBe(expected.success);
  if (expected.success && actual.success) expect(actual.data).toEqual(expected.data);
}

/** A topic name of each kind, with a key its naming accepts. */
const sampleTopic: Record<TopicKind, string> = {
  user: topicName('user', 'u_1-A'),
  post: topicName('post', '42'),
  feed: topicName('feed', null),
  notifications: topicName('notifications', 'u_1-A'),
  relationships: topicName('relationships', 'u_1-A'),
  moderation: topicName('moderation', null),
};

describe('the topics as the web app ships them', () => {
  it('has every topic, with its audience and a document check that is not zod', () => {
    expect(Object.keys(shippedTopics).sort()).toEqual([...topicKinds].sort());
    for (const kind of topicKinds) {
      expect(shippedTopics[kind].audience).toBe(zodTopics[kind].audience);
      expect(shippedTopics[kind].document).not.toHaveProperty('_zod');
    }
  });
});

describe('readServerMessage', () => {
  describe.each(topicKinds)('a document of %s', (kind) => {
    const shape = wireShapeOf(zodTopics[kind].document, kind) as WireShape;
    const doc = (data: unknown) => ({ type: 'doc', topic: sampleTopic[kind], data });

    it('answers as zod does for what the contract allows', () => {
      fc.assert(
        fc.property(valuesOf(shape), (data) => {
          expect(z.safeParse(byZod, doc(data)).success, JSON.stringify(data)).toBe(true);
          expectSameAnswer(doc(data));
        }),
        { numRuns: 25 },
      );
    });

    it('answers as zod does for a message with one place broken', () => {
      const broken = valuesOf(shape).chain((data) => {
        const message = doc(data);
        return fc
          .tuple(fc.constantFrom(...pathsOf(message)), changes)
          .map(([path, change]) => changed(message, path, change));
      });
      fc.assert(
        fc.property(broken, (message) => {
          expectSameAnswer(message);
        }),
        { numRuns: 40 },
      );
    });
  });

  it('never reads a document by the shape of another kind, nor on a topic no kind has', () => {
    const user = valuesOf(wireShapeOf(zodTopics.user.document, 'user') as WireShape);
    fc.assert(
      fc.property(user, (data) => {
        for (const topic of [
          sampleTopic.post,
          sampleTopic.feed,
          'posts/not-an-id',
          'nothing/1',
          `users/${'a'.repeat(300)}`,
        ]) {
          expectSameAnswer({ type: 'doc', topic, data });
        }
      }),
      { numRuns: 10 },
    );
  });

  it('answers as zod does for the other messages, whole or with one place broken', () => {
    const others = fc.constantFrom<unknown>(
      { type: 'pong' },
      { type: 'error', code: 'forbidden', message: 'No.', topic: sampleTopic.notifications },
      { type: 'error', code: 'bad_message', message: 'What?' },
      { type: 'session', state: 'ended' },
    );
    const broken = others.chain((message) =>
      fc
        .tuple(fc.constantFrom(...pathsOf(message)), changes)
        .map(([path, change]) => changed(message, path, change)),
    );
    fc.assert(
      fc.property(fc.oneof(others, broken), (message) => {
        expectSameAnswer(message);
      }),
      { numRuns: 200 },
    );
    for (const message of [null, 'pong', [], 7, { type: 'doc' }, { type: 'hello' }, {}]) {
      expectSameAnswer(message);
    }
  });
});
