// Table rows to the store's types, shared by the SQL of both engines. PostgreSQL returns bigint and
// numeric columns as text, so every count goes through Number().
import type { Selectable } from 'kysely';
import type { EndpointId } from '../config.js';
import type { AccountTable, ObservationTable, PlanTable } from './schema.js';
import type { Figure } from '../blend/inputs.js';
import type { Account, Plan } from './store.js';

export const toPlan = (r: Selectable<PlanTable>): Plan => ({
  id: r.id,
  name: r.name,
  monthlyPoints: Number(r.monthly_points),
  requestsPerMinute: r.requests_per_minute === null ? null : Number(r.requests_per_minute),
  endpoints: JSON.parse(r.endpoints) as EndpointId[],
});

export const toAccount = (r: Omit<Selectable<AccountTable>, 'refilled_period'>): Account => ({
  id: r.id,
  planId: r.plan_id,
  // PostgreSQL returns bigint as text.
  points: Number(r.points),
  expiresAt: r.expires_at,
  createdAt: r.created_at,
});

export const toObservation = (r: Selectable<ObservationTable>): Figure => ({
  source: r.source,
  quote: r.quote,
  date: r.date,
  rate: r.rate,
  direction: r.direction,
  unit: Number(r.unit),
  table: r.tbl,
  storedAt: r.stored_at,
});
