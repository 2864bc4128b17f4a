import assert from 'node:assert/strict';
import { test } from 'node:test';
import { missedPublications } from './health.js';

const daily = { cadence: 'daily' as const, publishedAtUtc: '15:00:00' };

test('a daily source counts business days after its newest figure', () => {
  // Friday 2026-04-10 → Monday 13th and Tuesday 14th (published by 16:00) are missed.
  assert.equal(missedPublications(daily, '2026-04-10', new Date('2026-04-14T16:00:00Z')), 2);
  assert.equal(missedPublications(daily, '2026-04-10', new Date('2026-04-14T14:00:00Z')), 1);
  assert.equal(missedPublications(daily, '2026-04-10', new Date('2026-04-12T23:00:00Z')), 0);
  assert.equal(missedPublications(daily, null, new Date('2026-04-12T23:00:00Z')), null);
});

test('weekly and monthly sources count whole weeks and months', () => {
  assert.equal(missedPublications({ cadence: 'weekly', publishedAtUtc: '21:15:00' }, '2026-03-13', new Date('2026-04-14T00:00:00Z')), 4);
  assert.equal(missedPublications({ cadence: 'monthly', publishedAtUtc: '00:00:00' }, '2026-01-31', new Date('2026-04-14T00:00:00Z')), 2);
});
