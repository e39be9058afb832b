import { describe, expect, it } from 'vitest';
import { muteDurations } from '@shared/schemas/relationship.js';
import { muteDurationChoices, muteUntilLabel } from './mute-durations.js';

describe('mute durations', () => {
  it('offers every duration the server takes, once, in order', () => {
    expect(muteDurationChoices.map((choice) => choice.value)).toEqual([...muteDurations]);
  });

  it('says until when a mute lasts', () => {
    expect(muteUntilLabel(null)).toBe('Muted until you unmute');
    const label = muteUntilLabel('2031-05-03T14:00:00.000Z', 'en-GB');
    expect(label).toMatch(/^Muted until 3 May 2031/);
  });
});
