/**
 * Request bodies of the Orders API's pickup moves (since 2026-09), kept apart from the order
 * schemas so the webhooks entry, which reads orders, does not carry their checks.
 */
import * as z from 'zod/mini';
import { isCalendarDate } from '../core/calendar-date.js';
import { strict } from './catalog/base.js';
import { lazy, nonEmptyString } from './common.js';

/** Body of POST reschedule_pickup. */
export const RescheduleParams = /* @__PURE__ */ lazy(() =>
  strict({
    /** A `date` of the order's `reschedule_options`, `YYYY-MM-DD`. */
    reschedule_date: z.string({ error: 'expected a date YYYY-MM-DD' }).check(z.refine(isCalendarDate, 'expected a real calendar date YYYY-MM-DD')),
  }),
);
export interface RescheduleParams extends z.output<typeof RescheduleParams> {}

/** Body of POST relocate_pickup. */
export const RelocateParams = /* @__PURE__ */ lazy(() =>
  strict({
    /** An `id` of the order's `relocate_options`. */
    pickup_location: nonEmptyString(),
  }),
);
export interface RelocateParams extends z.output<typeof RelocateParams> {}
